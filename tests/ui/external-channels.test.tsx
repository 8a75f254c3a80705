// Notification Settings → Other channels in the UI, rendered in happy-dom against a stand-in fetch: the type's setup
// line is the description of the type and of every field a screen reader announces, and a Telegram channel still
// waiting for its /start code shows that prompt, not also the red failure an alert to the unlinked chat recorded.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, afterEach, expect, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/settings/account' })
const { act } = await import('react')
const { createRoot } = await import('react-dom/client')
const { ExternalChannels } = await import('../../ui/components/ExternalChannels')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const realFetch = globalThis.fetch
let container: HTMLElement
let root: ReturnType<typeof createRoot>

const KINDS = [
  {
    kind: 'webhook',
    label: 'Webhook',
    setup: 'Any https URL: Dibs POSTs each match as signed JSON.',
    fields: [
      { name: 'url', label: 'URL', type: 'url', required: true },
      { name: 'token', label: 'Token', type: 'secret', required: false },
    ],
    unavailable: null,
  },
  { kind: 'telegram', label: 'Telegram', setup: 'Add the channel, then send the /start code it shows to the bot.', fields: [], unavailable: null },
]
const unlinkedTelegram = {
  id: 7,
  kind: 'telegram',
  name: '',
  url: 'not linked yet',
  lastResult: 'failed (not linked yet: Send /start Ab12Cd34 to @DibsAlertsBot in Telegram.)',
  lastResultAt: '2026-11-27T10:00:00.000Z',
  failing: true,
  level: 'all',
  ratePerMinute: null,
  linked: false,
  linkCode: 'Ab12Cd34',
  startCommand: '/start Ab12Cd34',
  botUsername: 'DibsAlertsBot',
}

async function render(channels: unknown[]) {
  globalThis.fetch = (async () =>
    new Response(JSON.stringify({ channels, kinds: KINDS, gate: { allowed: true, message: null } }), {
      headers: { 'content-type': 'application/json' },
    })) as unknown as typeof fetch
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => root.render(<ExternalChannels />))
  await act(async () => new Promise((r) => setTimeout(r, 0)))
}
afterEach(async () => {
  await act(async () => root?.unmount())
  container?.remove()
  globalThis.fetch = realFetch
})
afterAll(async () => {
  await GlobalRegistrator.unregister()
})

const description = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

test("the type's setup line describes the type select and every field", async () => {
  await render([])
  const form = container.querySelector('form[aria-label="Add channel"]')!
  const controls = [...form.querySelectorAll('select[name="channel-kind"], input[name^="channel-"]:not([name="channel-name"])')]
  expect(controls.map((c) => c.getAttribute('name'))).toEqual(['channel-kind', 'channel-url', 'channel-token'])
  for (const c of controls) expect(description(c)).toBe(KINDS[0]!.setup)
})

test('an unlinked Telegram channel says how to link it, without a red failure under it', async () => {
  await render([unlinkedTelegram])
  const item = container.querySelector('li[data-kind="telegram"]')!
  expect(item.querySelector('[data-testid="telegram-link"]')!.textContent).toBe('To link your chat, send /start Ab12Cd34 to @DibsAlertsBot in Telegram.')
  expect(item.querySelector('[role="alert"]')).toBeNull()
  expect(item.textContent).not.toContain('Last delivery failed')
})

test('a linked channel whose last delivery failed still shows the failure as an alert', async () => {
  await render([{ ...unlinkedTelegram, url: 'chat Alice', linked: true, linkCode: null, startCommand: null, lastResult: 'failed (403: the bot was blocked)' }])
  const item = container.querySelector('li[data-kind="telegram"]')!
  expect(item.querySelector('[role="alert"]')!.textContent).toBe('Last delivery failed (403: the bot was blocked)')
})
