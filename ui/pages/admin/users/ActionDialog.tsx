// One dialog per Users-page action (role, gift, trial, ban, reset, delete …): a title, what will
// happen, optional fields, Cancel and the action's button. A refusal from the server is shown in
// the dialog (role=alert) and the dialog stays open; success closes it with a toast.
import { useRef, useState, type ReactNode } from 'react'
import { Modal } from '../../../components/Modal'
import { ApiError } from '../../../client'
import { toast } from '../../../toast'

type Props = {
  title: string
  children?: ReactNode
  confirmLabel: string
  danger?: boolean
  canSubmit?: boolean
  /** runs the action; resolves to the success toast's text */
  run: () => Promise<string>
  onDone: () => void
  onClose: () => void
}

export function ActionDialog({ title, children, confirmLabel, danger, canSubmit = true, run, onDone, onClose }: Props) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const submit = async () => {
    setBusy(true)
    setError(null)
    try {
      const message = await run()
      toast({ title: 'Done', description: message })
      onDone()
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'An unexpected error occurred')
      setBusy(false)
    }
  }
  return (
    <Modal
      className="admin-action-dialog"
      aria-labelledby="admin-action-title"
      onClose={busy ? undefined : onClose}
      initialFocus={children ? undefined : cancel}
    >
      <article>
        <h3 id="admin-action-title">{title}</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            if (canSubmit && !busy) void submit()
          }}
        >
          {children}
          {error ? (
            <p className="admin-form-error" role="alert">
              {error}
            </p>
          ) : null}
          <footer>
            <button ref={cancel} type="button" className="secondary" disabled={busy} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className={danger ? 'admin-danger' : undefined} disabled={!canSubmit || busy} aria-busy={busy || undefined}>
              {confirmLabel}
            </button>
          </footer>
        </form>
      </article>
    </Modal>
  )
}
