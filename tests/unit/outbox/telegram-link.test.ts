// Linking a Telegram chat while the user changes the channel's settings (docs/atomicity-audit.md C6):
// both read and rewrite the options JSON; each in its own transaction, neither loses the other's change.
import { afterEach, expect, test } from 'bun:test'
import { channelStore } from '../../../src/notify/channel-store'
import { controlOf, updateEndpoint } from '../../../src/notify/endpoints'
import { linkChat } from '../../../src/outbox/channels/telegram'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

const T = Date.UTC(2026, 5, 1, 12, 0)
let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('a link and a settings change at once: the chat is linked and the level kept, in either order', async () => {
  for (const order of ['link first', 'change first']) {
    deps?.close()
    deps = makeDeps({}, testClock(T))
    const d = deps
    d.sqlite.run("INSERT INTO users (id, email) VALUES (1, 'u1@example.com')")
    d.sqlite.run('INSERT INTO notify_endpoints (user_id, kind, url, options, created_at) VALUES (1, ?, ?, ?, ?)', [
      'telegram',
      'not linked yet',
      JSON.stringify({ linkCode: 'abc123' }),
      T,
    ])
    const link = () => linkChat(d, channelStore, 'abc123', { id: 42, title: 'Deals' })
    const change = () => updateEndpoint(d, 1, 1, { level: 'important' })
    const [a, b] = order === 'link first' ? [link(), change()] : [change(), link()]
    await Promise.all([a, b])
    const ep = (await channelStore.endpoint(d, 1))!
    expect({ order, chatId: ep.options.chatId, level: controlOf(ep).level, linkCode: ep.options.linkCode }).toEqual({
      order,
      chatId: 42,
      level: 'important',
      linkCode: undefined,
    })
  }
})

test('a code already used or unknown links nothing', async () => {
  deps = makeDeps({}, testClock(T))
  const d = deps
  d.sqlite.run("INSERT INTO users (id, email) VALUES (1, 'u1@example.com')")
  d.sqlite.run('INSERT INTO notify_endpoints (user_id, kind, url, options, created_at) VALUES (1, ?, ?, ?, ?)', [
    'telegram',
    'x',
    JSON.stringify({ linkCode: 'abc123' }),
    T,
  ])
  expect(await linkChat(d, channelStore, 'abc123', { id: 42 })).toStartWith('Linked')
  expect(await linkChat(d, channelStore, 'abc123', { id: 43 })).toStartWith('That code is not valid')
  expect((await channelStore.endpoint(d, 1))!.options.chatId).toBe(42)
})
