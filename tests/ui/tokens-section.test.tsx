// Settings → Account → Personal access tokens in happy-dom: the expiry choices read shortest first, 30 days chosen.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/settings/account' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { TokensSection } = await import('../../ui/pages/settings/TokensSection')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
afterAll(async () => {
  globalThis.fetch = realFetch
  await GlobalRegistrator.unregister()
})

test("the token's expiry choices read shortest first, with 30 days chosen", async () => {
  globalThis.fetch = (async () => new Response(JSON.stringify({ tokens: [] }), { headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch
  const container = document.createElement('div')
  document.body.appendChild(container)
  const root = createRoot(container)
  await act(async () => root.render(<TokensSection />))
  const select = container.querySelector<HTMLSelectElement>('select[name="tokenExpiry"]')!
  expect([...select.options].map((o) => o.textContent)).toEqual(['7 days', '30 days', '90 days', '1 year', 'Never'])
  expect(select.value).toBe('30')
  await act(async () => root.unmount())
  container.remove()
})
