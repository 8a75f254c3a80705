// The toast region (spec §9): F8 focuses it, a horizontal swipe over 50 px dismisses a toast. It
// renders into the toast host of ui/top-layer.ts, which sits inside the topmost open modal dialog,
// so toasts show above every dialog and sheet and stay clickable (issue 12 item 1).
import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useSignals } from '@preact/signals-react/runtime'
import { dismissToast, toasts, type ToastItem } from '../toast'
import { toastHost } from '../top-layer'

export const TOAST_HOTKEY = 'F8'
export const SWIPE_THRESHOLD = 50

export function Toaster() {
  useSignals()
  const region = useRef<HTMLOListElement>(null)
  // Set after mounting: a server render (tests/ui/routes.test.ts) has no document to portal into.
  const [host, setHost] = useState<HTMLElement | null>(null)
  useEffect(() => setHost(toastHost()), [])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === TOAST_HOTKEY) {
        e.preventDefault()
        region.current?.focus()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  const open = toasts.value.filter((t) => t.open)
  if (!host) return null
  return createPortal(
    <section aria-label={`Notifications (${TOAST_HOTKEY})`} className="toaster">
      <ol ref={region} tabIndex={-1} className="toast-list" data-testid="toasts">
        {open.map((t) => (
          <Toast key={t.id} item={t} />
        ))}
      </ol>
    </section>,
    host,
  )
}

function Toast({ item }: { item: ToastItem }) {
  const start = useRef<number | null>(null)
  const el = useRef<HTMLLIElement>(null)
  const onDown = (e: React.PointerEvent) => {
    start.current = e.clientX
  }
  const onMove = (e: React.PointerEvent) => {
    if (start.current === null || !el.current) return
    el.current.style.transform = `translateX(${e.clientX - start.current}px)`
  }
  const onUp = (e: React.PointerEvent) => {
    if (start.current === null) return
    const dx = e.clientX - start.current
    start.current = null
    if (el.current) el.current.style.transform = ''
    if (Math.abs(dx) > SWIPE_THRESHOLD) dismissToast(item.id)
  }
  return (
    <li
      ref={el}
      className={`toast ${item.variant === 'destructive' ? 'destructive' : ''}`}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={() => (start.current = null)}
    >
      {/* the live role sits inside the item: an <li> with a role of its own is no list item (axe: list, listitem) */}
      <div
        className="toast-body"
        role={item.variant === 'destructive' ? 'alert' : 'status'}
        aria-live={item.variant === 'destructive' ? 'assertive' : 'polite'}
      >
        <strong className="toast-title">{item.title}</strong>
        {item.description ? <div className="toast-description">{item.description}</div> : null}
      </div>
      <button type="button" className="toast-close" aria-label="Close" onClick={() => dismissToast(item.id)}>
        ×
      </button>
    </li>
  )
}
