// The rows the outbox's senders read and write through src/notify (src/notify/channel-store.ts; issue
// 29 §1: src/outbox/channels no longer queries notify_endpoints or push_subscriptions): Telegram's
// link code and chat look-ups by the JSON options, results capped at 300 characters, a gone
// subscription deleted inside the caller's transaction.
import { afterEach, expect, test } from 'bun:test'
import { asAsync } from '../../../src/db/async-sqlite'
import { channelStore } from '../../../src/notify/channel-store'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

const T = Date.UTC(2026, 5, 1, 12, 0)
let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

function setup(): TestDeps {
  deps = makeDeps({}, testClock(T))
  for (const u of [1, 2, 3]) deps.sqlite.run('INSERT INTO users (id, email) VALUES (?, ?)', [u, `u${u}@example.com`])
  const ep = deps.sqlite.query('INSERT INTO notify_endpoints (user_id, kind, url, options, created_at) VALUES (?, ?, ?, ?, ?)')
  ep.run(1, 'telegram', 'not linked yet', JSON.stringify({ linkCode: 'abc123', chatId: null }), T) // id 1
  ep.run(2, 'telegram', 'chat 42', JSON.stringify({ chatId: 42 }), T) // id 2
  ep.run(3, 'telegram', 'chat 42', JSON.stringify({ chatId: 42 }), T) // id 3
  ep.run(3, 'webhook', 'https://example.com/hook', JSON.stringify({ linkCode: 'abc123', chatId: 42 }), T) // id 4: not Telegram
  return deps
}

test('Telegram: the channel of a link code, Telegram only; unknown code → null', async () => {
  const d = setup()
  expect((await channelStore.telegramEndpointByLinkCode(d, 'abc123'))?.id).toBe(1)
  expect(await channelStore.telegramEndpointByLinkCode(d, 'nope')).toBeNull()
})

test("Telegram: a chat's owners are the users of the Telegram channels linked to it", async () => {
  const d = setup()
  expect((await channelStore.telegramChatOwners(d, 42)).sort((a, b) => a - b)).toEqual([2, 3])
  expect(await channelStore.telegramChatOwners(d, 7)).toEqual([])
})

test('linking a chat: options and address change, the result reads linked, the code no longer finds it', async () => {
  const d = setup()
  await channelStore.markTelegramLinked(d, 1, { chatId: 99, chatName: '@me' }, 'chat @me')
  const ep = (await channelStore.endpoint(d, 1))!
  expect(ep.options).toEqual({ chatId: 99, chatName: '@me' })
  expect(ep.url).toBe('chat @me')
  expect(ep.lastResult).toBe('linked')
  expect(ep.lastResultAt?.getTime()).toBe(T)
  expect(await channelStore.telegramEndpointByLinkCode(d, 'abc123')).toBeNull()
  expect(await channelStore.telegramChatOwners(d, 99)).toEqual([1])
})

test('a result is recorded with its time, cut at 300 characters; a removed channel reads null', async () => {
  const d = setup()
  await channelStore.recordResult(d, 4, `failed (${'x'.repeat(400)})`)
  const ep = (await channelStore.endpoint(d, 4))!
  expect(ep.lastResult).toHaveLength(300)
  expect(ep.lastResultAt?.getTime()).toBe(T)
  d.sqlite.run('DELETE FROM notify_endpoints WHERE id = 4')
  expect(await channelStore.endpoint(d, 4)).toBeNull()
})

test('push: delivered stamps the time; gone deletes the row inside the caller’s transaction (rolled back with it)', async () => {
  const d = setup()
  d.sqlite.run("INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (1, 'https://push.example/1', 'k', 'a', 0)")
  const id = d.sqlite.query<{ id: number }, []>('SELECT id FROM push_subscriptions').get()!.id
  await channelStore.markPushDelivered(d, id)
  expect((await channelStore.subscription(d, id))?.lastSuccessAt?.getTime()).toBe(T)
  const failed = await asAsync(d.db)
    .transaction(async (tx) => {
      await channelStore.deleteSubscription({ db: tx }, id)
      throw new Error('rolled back')
    })
    .catch((err: unknown) => err)
  expect(failed).toEqual(new Error('rolled back'))
  expect(await channelStore.subscription(d, id)).not.toBeNull()
  await asAsync(d.db).transaction((tx) => channelStore.deleteSubscription({ db: tx }, id))
  expect(await channelStore.subscription(d, id)).toBeNull()
})
