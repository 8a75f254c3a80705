// The stack of open modal dialogs, and where the toast region lives (issue 12 items 1, 18).
//
// A dialog opened with showModal() sits in the browser's top layer and makes everything outside it
// inert. No z-index lifts the toasts above it, and a popover shown after it draws on top but stays
// inert: unclickable and hidden from screen readers. So the toast region is one element, made here,
// that moves into the topmost open modal dialog and back to <body> when the last one closes.
const open: HTMLDialogElement[] = []
let host: HTMLElement | null = null

function place() {
  if (!host) return
  const target = open.at(-1) ?? document.body
  if (host.parentElement !== target) target.appendChild(host)
}

/** The element <Toaster/> renders into (created on first use). */
export function toastHost(): HTMLElement {
  if (host?.ownerDocument !== document) {
    host = document.createElement('div')
    host.className = 'toast-host'
  }
  place()
  return host
}

export function modalOpened(dialog: HTMLDialogElement) {
  open.push(dialog)
  place()
}

export function modalClosed(dialog: HTMLDialogElement) {
  const i = open.lastIndexOf(dialog)
  if (i >= 0) open.splice(i, 1)
  place()
}

/** The dialog that takes the keyboard now: the last one opened and still open. */
export function topModal(): HTMLDialogElement | null {
  return open.at(-1) ?? null
}

const TABBABLE = 'a[href], button, input, select, textarea, summary, [tabindex]'

/** The elements Tab visits inside `dialog`, in order (not those of a dialog nested in it). */
export function tabbables(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) =>
      el.tabIndex >= 0 &&
      !(el as HTMLButtonElement).disabled &&
      !(el instanceof HTMLInputElement && el.type === 'hidden') &&
      el.closest('dialog') === dialog &&
      (typeof el.checkVisibility !== 'function' || el.checkVisibility({ visibilityProperty: true })),
  )
}
