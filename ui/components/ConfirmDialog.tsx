// "Ask first" for an action that cannot be undone (admin Optimize and Archive, removing a
// notification channel): an alertdialog saying what will happen, focus on Cancel, Escape cancels.
import { useRef } from 'react'
import { Modal } from './Modal'

export function ConfirmDialog({
  title,
  text,
  action,
  onCancel,
  onConfirm,
}: {
  title: string
  text: string
  action: string
  onCancel: () => void
  onConfirm: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  return (
    <Modal
      className="confirm-dialog"
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      onClose={onCancel}
      initialFocus={cancel}
    >
      <article>
        <h3 id="confirm-title">{title}</h3>
        <p id="confirm-text">{text}</p>
        <footer>
          <button ref={cancel} type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" onClick={onConfirm}>
            {action}
          </button>
        </footer>
      </article>
    </Modal>
  )
}
