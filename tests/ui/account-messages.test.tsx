// Issue 12 item 7 in happy-dom: the profile dialog says why a name is refused, and 'Contact
// Support' drafts the mail to the configured support address.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/dashboard' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { ProfileModal } = await import('../../ui/components/ProfileModal')
const { AuthErrorScreen } = await import('../../ui/components/Protected')
const { Toaster } = await import('../../ui/components/Toaster')
const { me } = await import('../../ui/account')
const { config } = await import('../../ui/state')
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
afterAll(async () => {
  globalThis.fetch = realFetch
  await GlobalRegistrator.unregister()
})

async function render(node: React.ReactNode) {
  const container = document.createElement('div')
  document.body.appendChild(container)
  const root = createRoot(container)
  await act(async () => root.render(node))
  return { container, unmount: () => act(async () => root.unmount()) }
}

test("a refused name shows the server's reason, not 'Failed to update profile'", async () => {
  me.value = { user: { id: 1, email: 'u@example.com', name: 'U' }, access: { userRole: 'product+gd', hasAccess: true } } as never
  globalThis.fetch = (async () =>
    new Response(JSON.stringify({ error: { code: 'VALIDATION', message: 'Name must be at most 100 characters long' } }), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    })) as never
  const view = await render(
    <>
      <ProfileModal onClose={() => {}} />
      <Toaster />
    </>,
  )
  const input = view.container.querySelector('input[type="text"], input:not([type])') as HTMLInputElement
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    setter.call(input, 'x'.repeat(101))
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
  await act(async () => {
    ;(view.container.querySelector('form') as HTMLFormElement).requestSubmit()
    await new Promise((r) => setTimeout(r, 20))
  })
  expect(view.container.textContent).toContain('Name must be at most 100 characters long')
  expect(view.container.textContent).not.toContain('Failed to update profile')
  await view.unmount()
})

test("'Contact Support' addresses the draft to SUPPORT_EMAIL with the error text", async () => {
  config.value = { ...config.value, supportEmail: 'help@dibs.example' }
  const view = await render(<AuthErrorScreen message="Failed to load subscription details." />)
  const link = [...view.container.querySelectorAll('a')].find((a) => a.textContent === 'Contact Support')!
  const href = link.getAttribute('href')!
  expect(href).toStartWith('mailto:help%40dibs.example?subject=Authentication%20Error')
  expect(decodeURIComponent(href)).toContain('Failed to load subscription details.')
  await view.unmount()
})
