// The registry's chat and push-service providers through a real server and fakes that speak each
// real API (tests/fakes/): Telegram (linking by /start code, buttons, a Mark read press, 429),
// Pushover (fields, the Claim link, its 429), Gotify, Matrix (txn ids, M_UNKNOWN_TOKEN told to the
// user), Slack (blocks with buttons, no_service), Apprise (stateless /notify, 424 retried). Then the
// per-channel control: level, the cap per minute folded into one message, quiet hours on every channel.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq, like } from 'drizzle-orm'
import { notificationPrefs, notifyEndpoints, outbox } from '../../src/db/schema'
import type { MatchItem } from '../../src/contract/events'
import { providerHooks } from '../../src/notify/jobs'
import { verifyAlertToken } from '../../src/notify/alert-links'
import { runQuietSummaries } from '../../src/notify/quiet-summary'
import { MATRIX_TOKEN_TEXT } from '../../src/outbox/channels/matrix'
import { slack as slackProvider } from '../../src/outbox/channels/slack'
import { telegramPoller } from '../../src/outbox/channels/telegram'
import { fakeApprise } from '../fakes/apprise'
import { fakeGotify } from '../fakes/gotify'
import { fakeMatrix } from '../fakes/matrix'
import { fakePushover, readPushover } from '../fakes/pushover'
import { fakeSlack } from '../fakes/slack'
import { fakeTelegram } from '../fakes/telegram'
import { createUserWithSession, makeConfig, startTestServer } from '../helpers'
import { channelKit } from './notify-helpers'

const BOT_TOKEN = '123456:AAH-test-token'
const APP_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi'
const USER_KEY = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG'
const tg = fakeTelegram({ token: BOT_TOKEN })
const po = fakePushover({ appToken: APP_TOKEN, users: [USER_KEY] })
const go = fakeGotify({ appToken: 'AgotifyTok.1' })
const mx = fakeMatrix({ token: 'syt_alice_token', roomId: '!room:example.org' })
const sl = fakeSlack()
const ap = fakeApprise()
const fakes = [tg, po, go, mx, sl, ap]

let server: Awaited<ReturnType<typeof startTestServer>>
let kit: ReturnType<typeof channelKit>
beforeAll(async () => {
  server = await startTestServer({
    CHANNELS_ALLOW_PRIVATE: '1',
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_API_URL: tg.apiUrl,
    PUSHOVER_APP_TOKEN: APP_TOKEN,
    PUSHOVER_API_URL: po.apiUrl,
    APPRISE_URL: ap.url,
  })
  kit = channelKit(server)
})
afterAll(async () => {
  await server.stop()
  for (const f of fakes) await f.stop()
})
afterEach(() => {
  for (const f of fakes) f.received.length = 0
})

const rowOf = (dedupeKey: string) => server.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, dedupeKey)).get()!
/**
 * The Claim link the last alert of a channel carried: a signed /c/<token> link of this server (src/notify/alert-links.ts)
 * for that match, user, channel and the claim action, read back from the outbox row the dispatcher queued.
 */
function claimUrl(match: { id: number }, action: 'claim' | 'open' = 'claim'): string {
  const rows = server.deps.db
    .select()
    .from(outbox)
    .all()
    .filter((r) => r.kind === 'match')
  const alert = (rows.at(-1)!.payload as { alert: { actions: { claim: string; open: string } } }).alert
  const link = alert.actions[action]
  expect(link.startsWith(`${server.url}/c/`)).toBe(true)
  expect(verifyAlertToken(server.deps.config.secrets.unsubscribeSecret, link.slice(`${server.url}/c/`.length), server.deps.now())).toMatchObject({
    m: match.id,
    a: action,
  })
  return link
}
/** The Open link the last alert carried (through the link that records the first open). */
const openUrl = (match: { id: number }) => claimUrl(match, 'open')
const endpointRow = (id: number) => server.deps.db.select().from(notifyEndpoints).where(eq(notifyEndpoints.id, id)).get()!

describe('telegram', () => {
  const poller = () => telegramPoller(providerHooks)

  test('a refused bot token reaches the job log once (Admin → Logs), with the fix; the recovery is logged too', async () => {
    const jobRows = () =>
      server.deps.sqlite
        .query<{ status: string; details: string }, []>("SELECT status, details FROM maintenance_logs WHERE job_name = 'telegram-updates' ORDER BY id")
        .all()
    const before = jobRows().length
    const np = server.deps.config.notifyProviders
    const wrong = { ...server.deps, config: { ...server.deps.config, notifyProviders: { ...np, telegramBotToken: '999:wrong' } } }
    const p = poller()
    expect(await p.poll(wrong, 0)).toBe(0)
    const failed = jobRows().slice(before)
    expect(failed.map((r) => r.status)).toEqual(['failed'])
    expect(JSON.parse(failed[0]!.details).error).toBe(
      'Telegram chats cannot be linked and Mark read presses are not seen: getUpdates answered 401: Unauthorized (check TELEGRAM_BOT_TOKEN)',
    )
    expect(await p.poll(server.deps, 0)).toBeGreaterThanOrEqual(0)
    expect(
      jobRows()
        .slice(before)
        .map((r) => r.status),
    ).toEqual(['failed', 'success'])
  }, 20_000)

  test('add → linkCode; /start <code> links the chat; a match arrives with Claim/Open/Mark read; a press marks it read', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'telegram' })
    expect(add.status).toBe(201)
    expect(add.body).toMatchObject({ botUsername: 'DibsTestBot', startCommand: `/start ${add.body.linkCode}` })
    expect(add.body.linkCode).toMatch(/^[A-Za-z0-9]{6,}$/)
    expect(add.body.channel).toMatchObject({ kind: 'telegram', label: 'Telegram', linked: false, startCommand: `/start ${add.body.linkCode}` })
    const id = add.body.channel.id as number

    // before linking, 'Send test' says what to do
    const early = await kit.api('POST', `/api/notifications/channels/${id}/test`, u.cookie)
    expect(early.body.ok).toBe(false)
    expect(early.body.result).toBe(`failed (not linked yet: Send /start ${add.body.linkCode} to @DibsTestBot in Telegram.)`)

    // a match before linking queues nothing for the chat (it would only fail): the settings say to link it
    const before = await kit.liveMatchFor(u.userId, 'sro', { title: '[WTS] Trijicon SRO - $500' })
    expect(
      server.deps.db
        .select()
        .from(outbox)
        .all()
        .filter((r) => r.channel === 'telegram' && r.userId === u.userId),
    ).toEqual([])
    expect(before.match.id).toBeGreaterThan(0)

    const p = poller()
    tg.userSends(5001, '/start WRONGCODE')
    tg.userSends(5001, `/start ${add.body.linkCode}`)
    expect(await p.poll(server.deps, 0)).toBe(2)
    expect(tg.sent.map((s) => s.text.split('.')[0])).toEqual(['That code is not valid or was already used', 'Linked'])
    expect(tg.pendingUpdates()).toBe(2) // not yet confirmed: the next getUpdates confirms them
    await p.poll(server.deps, 0)
    expect(tg.pendingUpdates()).toBe(0)
    const list = await kit.api('GET', '/api/notifications/channels', u.cookie)
    expect(list.body.channels[0]).toMatchObject({ linked: true, linkCode: null, url: 'chat Alice' })
    // the code is spent: a second chat cannot take the channel
    tg.userSends(6002, `/start ${add.body.linkCode}`)
    await p.poll(server.deps, 0)
    expect(tg.sent.at(-1)!.text).toStartWith('That code is not valid')

    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const msg = tg.sent.at(-1)!
    expect(msg.chatId).toBe(5001)
    expect(msg.text).toContain('<b>New GAFS WTS match · $450</b>')
    expect(msg.reply_markup!.inline_keyboard).toEqual([
      [
        { text: 'Claim', url: claimUrl(match) },
        { text: 'Open', url: openUrl(match) },
      ],
      [{ text: 'Mark read', callback_data: `read:${match.id}` }],
    ])
    expect(rowOf(`match:${match.id}:telegram:${id}`).status).toBe('sent')

    const isNew = () => server.deps.sqlite.query<{ is_new: number }, [number]>('SELECT is_new FROM matches WHERE id = ?').get(match.id)!.is_new
    expect(isNew()).toBe(1)
    const q = tg.userPresses(5001, `read:${match.id}`)
    const stranger = tg.userPresses(7777, `read:${match.id}`) // a chat not linked to anyone
    await p.poll(server.deps, 0)
    expect(isNew()).toBe(0)
    expect(tg.callbacks.get(q)).toEqual({ answered: true, text: 'Marked read' })
    expect(tg.callbacks.get(stranger)).toEqual({ answered: true, text: 'This chat is not linked to Dibs.' })
  })

  test("a 429 waits Telegram's retry_after; a blocked bot fails for good with words", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'telegram' })
    tg.userSends(5100, `/start ${add.body.linkCode}`)
    await telegramPoller(providerHooks).poll(server.deps, 0)
    tg.rateLimit(37)
    const before = Date.now()
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const row = rowOf(`match:${match.id}:telegram:${add.body.channel.id}`)
    expect(row.status).toBe('pending')
    expect(row.lastError).toBe('Telegram: Too Many Requests: retry after 37')
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 37_000)
    await kit.deliver({ dueNow: true })
    expect(rowOf(row.dedupeKey!).status).toBe('sent')

    tg.block(5100)
    const t = await kit.api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body.result).toBe(
      'failed (403: Telegram: Forbidden: bot was blocked by the user (unblock the bot, or remove this channel and link the chat again))',
    )
    expect(t.body.channel.failing).toBe(true)
  })
})

describe('pushover', () => {
  test('the user key is checked; a match carries the Claim link; an unknown key fails with words', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const bad = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'pushover', userKey: 'nope' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ code: 'INVALID_FIELD', field: 'userKey' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'pushover', userKey: USER_KEY })
    expect(add.status).toBe(201)
    expect(JSON.stringify(add.body)).not.toContain(USER_KEY)
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const form = readPushover(po.received.at(-1)!)
    expect(form).toMatchObject({ token: APP_TOKEN, user: USER_KEY, title: 'New GAFS WTS match · $450', url: claimUrl(match), url_title: 'Claim' })
    expect(form.message).toContain(`Open: ${openUrl(match)}`)

    const other = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'pushover', userKey: 'x'.repeat(30) })
    const t = await kit.api('POST', `/api/notifications/channels/${other.body.channel.id}/test`, u.cookie)
    expect(t.body.result).toBe('failed (400: Pushover: user identifier is not a valid user, group, or subscribed user key)')
  })

  test("a 429 (monthly limit) waits until the limit's reset", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'pushover', userKey: USER_KEY })
    const reset = Math.floor(Date.now() / 1000) + 3 * 86400
    po.overLimit(reset)
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const row = rowOf(`match:${match.id}:pushover:${add.body.channel.id}`)
    expect(row.status).toBe('pending')
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(reset * 1000 - 5000)
    expect(endpointRow(add.body.channel.id).lastResult).toContain('429: Pushover: this installation has used its messages for the month')
  })
})

describe('gotify', () => {
  test('posts to /message with the app token and a click URL; a wrong token is told', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'gotify', url: go.url, token: 'AgotifyTok.1' })
    expect(add.status).toBe(201)
    const t = await kit.api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body).toMatchObject({ ok: true, result: 'delivered (200)' })
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const sent = go.received.at(-1)!
    expect(sent.headers['x-gotify-key']).toBe('AgotifyTok.1')
    expect(JSON.parse(sent.body)).toMatchObject({ title: 'New GAFS WTS match · $450', extras: { 'client::notification': { click: { url: claimUrl(match) } } } })
    const wrong = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'gotify', url: go.url, token: 'revoked' })
    const w = await kit.api('POST', `/api/notifications/channels/${wrong.body.channel.id}/test`, u.cookie)
    expect(w.body.result).toBe('failed (401: Gotify refused the application token: create a new application token and add the channel again)')
  })
})

describe('matrix', () => {
  test('the room ID is checked; a match is an m.text event with a txn id per delivery; M_UNKNOWN_TOKEN is told to the user', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const fields = { kind: 'matrix', homeserver: mx.url, roomId: '!room:example.org', accessToken: 'syt_alice_token' }
    const bad = await kit.api('POST', '/api/notifications/channels', u.cookie, { ...fields, roomId: '#alias:example.org' })
    expect(bad.body.error).toMatchObject({ code: 'INVALID_FIELD', field: 'roomId' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, fields)
    expect(add.body.channel).toMatchObject({ kind: 'matrix', roomId: '!room:example.org' })
    const t = await kit.api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body).toMatchObject({ ok: true, result: 'delivered (200)' })
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const key = `match:${match.id}:matrix:${add.body.channel.id}`
    expect(mx.events.at(-1)).toMatchObject({ roomId: '!room:example.org', txnId: `dibs-${key.replace(/:/g, '_')}` })
    expect(mx.events.at(-1)!.content.formatted_body).toContain(`<a href="${claimUrl(match)}">Claim</a>`)

    mx.revoke()
    const m2 = (await kit.liveMatchFor(u.userId, 'holosun')).match
    await kit.deliver()
    const row = rowOf(`match:${m2.id}:matrix:${add.body.channel.id}`)
    expect(row).toMatchObject({ status: 'failed', lastError: MATRIX_TOKEN_TEXT })
    const list = await kit.api('GET', '/api/notifications/channels', u.cookie)
    expect(list.body.channels[0]).toMatchObject({ failing: true, lastResult: `failed (401: ${MATRIX_TOKEN_TEXT})` })
  })
})

describe('slack', () => {
  test('only Slack webhook URLs (without CHANNELS_ALLOW_PRIVATE); blocks with Claim and Open buttons; no_service fails for good', async () => {
    const strict = makeConfig({})
    const refused = await slackProvider.validate({ config: strict }, { url: 'https://example.com/services/T1/B2/x' }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(refused).toMatchObject({ code: 'INVALID_URL', details: { field: 'url' } })
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'slack', url: sl.hookUrl })
    expect(add.body.channel.url).not.toContain('s3cr3tXYZ')
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const body = JSON.parse(sl.received.at(-1)!.body)
    expect(body.text).toBe('New GAFS WTS match · $450: [WTS] Trijicon RMR Type 2 - $450')
    expect(body.blocks.at(-1)).toEqual({
      type: 'actions',
      elements: [
        { type: 'button', text: { type: 'plain_text', text: 'Claim' }, url: claimUrl(match), style: 'primary' },
        { type: 'button', text: { type: 'plain_text', text: 'Open' }, url: openUrl(match) },
      ],
    })
    sl.remove(sl.hookUrl)
    const t = await kit.api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body.result).toBe('failed (404: Slack: no_service (the webhook was removed or revoked))')
  })
})

describe('apprise', () => {
  test("the user's Apprise URLs go to the server's /notify; only their schemes are shown; a 424 is retried", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const bad = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'apprise', urls: 'not a url' })
    expect(bad.body.error).toMatchObject({ code: 'INVALID_FIELD', field: 'urls' })
    const urls = 'tgram://123456:ABC/987654\nmailto://me:pw@example.com'
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'apprise', urls })
    expect(add.body.channel.url).toBe('tgram://…, mailto://…')
    expect(JSON.stringify(await kit.api('GET', '/api/notifications/channels', u.cookie))).not.toContain('ABC/987654')
    const t = await kit.api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body).toMatchObject({ ok: true, result: 'delivered (200)' })
    // 'What Dibs sends' masks the user's Apprise URLs (they hold their tokens)
    const p = await kit.api('GET', `/api/notifications/channels/${add.body.channel.id}/payload`, u.cookie)
    expect(JSON.parse(p.body.request.body).urls).toBe('•••,•••')
    ap.failService()
    const { match } = await kit.liveMatchFor(u.userId)
    await kit.deliver()
    const key = `match:${match.id}:apprise:${add.body.channel.id}`
    expect(rowOf(key).status).toBe('pending')
    await kit.deliver({ dueNow: true })
    expect(rowOf(key).status).toBe('sent')
    const sent = JSON.parse(ap.received.at(-1)!.body)
    expect(sent).toMatchObject({ urls: 'tgram://123456:ABC/987654,mailto://me:pw@example.com', title: 'New GAFS WTS match · $450', type: 'info' })
    expect(sent.body).toContain(`Claim: ${claimUrl(match)}`)
  })
})

describe('per-channel control', () => {
  test("'important' takes only price drops and terms marked important", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'slack', url: `${sl.url}/services/T9/B9/imp`, level: 'important' })
    expect(add.body.channel.level).toBe('important')
    const plain = (await kit.liveMatchFor(u.userId, 'rmr')).match
    const marked = (await kit.liveMatchFor(u.userId, 'holosun', { delivery: { email: 'default', push: true, endpoints: {}, important: true } })).match
    const has = (id: number) =>
      server.deps.db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupeKey, `match:${id}:slack:${add.body.channel.id}`))
        .get() !== undefined
    expect([has(plain.id), has(marked.id)]).toEqual([false, true])
    const patch = await kit.api('PATCH', `/api/notifications/channels/${add.body.channel.id}`, u.cookie, { level: 'all' })
    expect(patch.body.channel.level).toBe('all')
    expect(has((await kit.liveMatchFor(u.userId, 'aimpoint')).match.id)).toBe(true)
  })

  test('a cap of 2 per minute: the rest are held and arrive folded into one message', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'slack', url: `${sl.url}/services/T8/B8/cap`, ratePerMinute: 2 })
    const id = add.body.channel.id as number
    const ms: MatchItem[] = []
    for (const i of [1, 2, 3, 4]) ms.push((await kit.liveMatchFor(u.userId, `term${i}`, { title: `[WTS] Item ${i} - $10${i}` })).match)
    const statuses = () => ms.map((m) => rowOf(`match:${m.id}:slack:${id}`).status)
    expect(statuses()).toEqual(['pending', 'pending', 'held', 'held'])
    await kit.deliver()
    expect(sl.received.filter((r) => r.path === '/services/T8/B8/cap')).toHaveLength(2)
    // a minute later the job folds the held two into one message
    const later = { ...server.deps, now: () => new Date(Date.now() + 61_000) }
    expect(await runQuietSummaries(later)).toMatchObject({ channels: 1 })
    expect(statuses()).toEqual(['sent', 'sent', 'sent', 'sent'])
    await kit.deliver({ dueNow: true }) // the summary row is due at the job's (later) time
    const folded = sl.received.filter((r) => r.path === '/services/T8/B8/cap').map((r) => JSON.parse(r.body))
    expect(folded).toHaveLength(3)
    expect(folded[2].text).toBe('2 more matches in the last minute: [WTS] Item 3 - $103')
    expect(JSON.stringify(folded[2].blocks)).toContain('[WTS] Item 4 - $104')
  })

  test('quiet hours hold every channel; their end brings one message per channel', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const now = new Date()
    const hhmm = (d: Date) => d.toISOString().slice(11, 16)
    server.deps.db
      .insert(notificationPrefs)
      .values({
        userId: u.userId,
        emailFrequency: 'none',
        quietStart: hhmm(new Date(now.getTime() - 3600_000)),
        quietEnd: hhmm(new Date(now.getTime() + 3600_000)),
        timeZone: 'UTC',
      })
      .onConflictDoUpdate({
        target: notificationPrefs.userId,
        set: { quietStart: hhmm(new Date(now.getTime() - 3600_000)), quietEnd: hhmm(new Date(now.getTime() + 3600_000)), timeZone: 'UTC' },
      })
      .run()
    const add = await kit.api('POST', '/api/notifications/channels', u.cookie, { kind: 'gotify', url: go.url, token: 'AgotifyTok.1' })
    const m = (await kit.liveMatchFor(u.userId)).match
    expect(rowOf(`match:${m.id}:gotify:${add.body.channel.id}`).status).toBe('held')
    await kit.deliver()
    expect(go.received).toHaveLength(0)
    const after = { ...server.deps, now: () => new Date(now.getTime() + 2 * 3600_000) }
    expect(await runQuietSummaries(after)).toMatchObject({ channels: 1 })
    await kit.deliver({ dueNow: true })
    expect(JSON.parse(go.received.at(-1)!.body).title).toBe('1 new match while you were away')
    const fold = server.deps.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.userId, u.userId), like(outbox.dedupeKey, 'fold:%')))
      .get()!
    expect(fold).toMatchObject({ channel: 'gotify', kind: 'digest', status: 'sent' })
  })
})
