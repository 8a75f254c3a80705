// Every dialog, sheet and menu of the app opens through <Modal> (issue 12 item 18): a <dialog>
// shown with showModal(), so focus moves in and the page behind is inert. Tab and Shift+Tab cycle
// inside it, Escape closes it wherever focus is, and on close focus goes back to the element that
// opened it (or, when that one is gone or disabled, into the dialog still open below). While it is
// open the toast region lives inside it, above its content (ui/top-layer.ts).
import { useLayoutEffect, useRef, type ComponentPropsWithoutRef, type RefObject } from 'react'
import { modalClosed, modalOpened, tabbables, topModal } from '../top-layer'

type Props = Omit<ComponentPropsWithoutRef<'dialog'>, 'open'> & {
  /** Escape, a close request, and the dialog's own close controls call it; none: not dismissible. */
  onClose?: () => void
  /** What takes focus when it opens (default: the browser's choice, the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>
}

export function Modal({ onClose, initialFocus, children, ...rest }: Props) {
  const ref = useRef<HTMLDialogElement>(null)
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose
  useLayoutEffect(() => {
    const dialog = ref.current!
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
    let closing = false
    const show = () => {
      if (!dialog.open) dialog.showModal()
    }
    show()
    modalOpened(dialog)
    initialFocus?.current?.focus()

    const onKey = (e: KeyboardEvent) => {
      if (topModal() !== dialog) return
      if (e.key === 'Escape') {
        e.preventDefault()
        onCloseRef.current?.()
      } else if (e.key === 'Tab') {
        const list = tabbables(dialog)
        const first = list[0]
        const last = list.at(-1)
        const active = document.activeElement
        const inside = active !== null && dialog.contains(active)
        if (!first || !last) e.preventDefault()
        else if (e.shiftKey && (active === first || !inside)) {
          e.preventDefault()
          last.focus()
        } else if (!e.shiftKey && (active === last || !inside)) {
          e.preventDefault()
          first.focus()
        }
      }
    }
    // A close request that did not come through a key (e.g. Android's back gesture).
    const onCancel = (e: Event) => {
      e.preventDefault()
      onCloseRef.current?.()
    }
    // The browser closed it on its own: keep it open until React unmounts it.
    const onNativeClose = () => {
      if (closing) return
      show()
      onCloseRef.current?.()
    }
    document.addEventListener('keydown', onKey)
    dialog.addEventListener('cancel', onCancel)
    dialog.addEventListener('close', onNativeClose)
    return () => {
      closing = true
      document.removeEventListener('keydown', onKey)
      dialog.removeEventListener('cancel', onCancel)
      dialog.removeEventListener('close', onNativeClose)
      if (dialog.open) dialog.close()
      modalClosed(dialog)
      const restore = () => {
        if (opener?.isConnected) opener.focus({ preventScroll: true })
        const below = topModal()
        if (below && !below.contains(document.activeElement)) tabbables(below)[0]?.focus()
      }
      restore()
      // React may put focus back where it was before this commit once the commit ends; if that
      // left it nowhere, restore again.
      queueMicrotask(() => {
        if (document.activeElement === null || document.activeElement === document.body) restore()
      })
    }
  }, [])
  return (
    <dialog ref={ref} {...rest}>
      {children}
    </dialog>
  )
}
