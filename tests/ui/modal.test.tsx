// The shared modal mechanism in happy-dom (issue 12 items 1, 18): the search-terms dialog opens
// modal, Escape closes it wherever focus is, focus goes back to the opener, and the toast region
// moves into the open dialog (above it) and back out. Chromium checks the same by keyboard and
// pointer in tests/e2e/a11y.test.ts.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/' })
const { act, useState } = await import('react')
const { createRoot } = await import('react-dom/client')
const { toast, toasts } = await import('../../ui/toast')
const { Toaster } = await import('../../ui/components/Toaster')
const { SearchTermsDialog } = await import('../../ui/components/SearchTermsDialog')
const { terms, termLimits } = await import('../../ui/terms')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
let container: HTMLElement
let root: ReturnType<typeof createRoot>

beforeAll(() => {
  globalThis.fetch = (async () =>
    new Response(JSON.stringify({ terms: terms.value.wts ?? [], limit: 10 }), { headers: { 'content-type': 'application/json' } })) as never
  terms.value = { ...terms.value, wts: [{ id: 1, term: 'rmr', category: 'wts', createdAt: '' }] }
  termLimits.value = { ...termLimits.value, wts: 10 }
})
afterAll(async () => {
  globalThis.fetch = realFetch
  await GlobalRegistrator.unregister()
})
afterEach(async () => {
  await act(async () => root?.unmount())
  container?.remove()
  toasts.value = []
})

/** The dashboard's use of the dialog: a button opens it, onClose closes it. */
function Page() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Toaster />
      <button type="button" id="opener" onClick={() => setOpen(true)}>
        Search WTS Posts
      </button>
      <SearchTermsDialog category="wts" open={open} onClose={() => setOpen(false)} />
    </>
  )
}

async function openDialog() {
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => root.render(<Page />))
  const opener = document.getElementById('opener') as HTMLButtonElement
  opener.focus()
  await act(async () => opener.click())
  return { opener, dialog: document.querySelector('dialog.terms-dialog') as HTMLDialogElement }
}

describe('the search-terms dialog is modal', () => {
  test('it opens with showModal() and focus in its input', async () => {
    const shown: Element[] = []
    const showModal = HTMLDialogElement.prototype.showModal
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      shown.push(this)
      showModal.call(this)
    }
    try {
      const { dialog } = await openDialog()
      expect(shown).toEqual([dialog])
      expect(dialog.open).toBe(true)
      expect(document.activeElement).toBe(dialog.querySelector('input[name="term"]'))
    } finally {
      HTMLDialogElement.prototype.showModal = showModal
    }
  })

  test('Escape closes it even when focus has left it, and focus goes back to the opener', async () => {
    const { opener, dialog } = await openDialog()
    ;(document.activeElement as HTMLElement | null)?.blur()
    await act(async () => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }))
    })
    expect(dialog.isConnected).toBe(false)
    expect(document.activeElement?.id).toBe(opener.id)
  })

  test('a toast raised while it is open renders inside it, and back in the page once it closes', async () => {
    const { dialog } = await openDialog()
    await act(async () => {
      toast({ title: 'Term already exists', description: 'This search term is already in your list', variant: 'destructive', duration: Infinity })
    })
    expect(dialog.querySelector('li.toast')?.textContent).toContain('Term already exists')
    const done = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Done')!
    await act(async () => done.click())
    const toastEl = document.querySelector('li.toast')!
    expect(toastEl.closest('dialog')).toBeNull()
    expect(toastEl.isConnected).toBe(true)
  })
})
