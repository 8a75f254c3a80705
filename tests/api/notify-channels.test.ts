// External channels through a real server and local fakes: add a webhook / ntfy topic / Discord
// webhook, 'Send test', a live match fanning out to each (signature verifies, ntfy headers,
// Discord embed), retries after a 500 and a Discord 429 with retry_after, URL rules, plan gate.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { matchTerms, outbox, searchTerms } from '../../src/db/schema'
import { fakeDiscord } from '../fakes/discord'
import { fakeNtfy } from '../fakes/ntfy'
import { fakeWebhookReceiver, verifySignature } from '../fakes/webhook-receiver'
import { createUserWithSession, startTestServer } from '../helpers'
import { channelKit, makeMatch } from './notify-helpers'

let server: Awaited<ReturnType<typeof startTestServer>>
const hook = fakeWebhookReceiver()
const ntfy = fakeNtfy({ token: 'tk_secret' })
const discord = fakeDiscord()
beforeAll(async () => {
  server = await startTestServer({ CHANNELS_ALLOW_PRIVATE: '1' })
  kit = channelKit(server)
})
afterAll(async () => {
  await server.stop()
  for (const f of [hook, ntfy, discord]) await f.stop()
})
afterEach(() => {
  for (const f of [hook, ntfy, discord]) f.received.length = 0
})

type Kit = ReturnType<typeof channelKit>
let kit: Kit
const api = (...a: Parameters<Kit['api']>) => kit.api(...a)
const deliver = (...a: Parameters<Kit['deliver']>) => kit.deliver(...a)
const liveMatchFor = (...a: Parameters<Kit['liveMatchFor']>) => kit.liveMatchFor(...a)

describe('webhook', () => {
  test("the payload's price is the listing price stored with the post (a body price edit), else the title's", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'webhook', url: hook.hookUrl })
    hook.setSecret(add.body.secret)
    const post = server.deps.sqlite
      .query<{ id: number }, []>(
        `INSERT INTO posts (reddit_id, forum, subreddit, title, url, content, created_at, price)
         VALUES ('pr1', 'product', 'GunAccessoriesForSale', '[WTS] Trijicon RMR Type 2', 'https://www.reddit.com/r/x/comments/pr1/', 'Price drop: $380 shipped', 0, 380) RETURNING id`,
      )
      .get()!
    const t = server.deps.db.insert(searchTerms).values({ userId: u.userId, category: 'wts', term: 'trijicon' }).returning().get()
    const withPost = { ...makeMatch(server.deps, u.userId, { title: '[WTS] Trijicon RMR Type 2' }), postId: post.id }
    const titleOnly = makeMatch(server.deps, u.userId, { title: '[WTS] Trijicon RMR Type 2 - $450' })
    for (const m of [withPost, titleOnly]) {
      server.deps.db.insert(matchTerms).values({ matchId: m.id, termId: t.id }).run()
      server.deps.dispatcher.add({ userId: u.userId, match: m, notify: true })
    }
    await server.deps.dispatcher.flush()
    const before = hook.received.length
    await deliver()
    const prices = hook.received.slice(before).map((r) => JSON.parse(r.body) as { match: { id: number }; post: { price: number | null } })
    expect(Object.fromEntries(prices.map((p) => [p.match.id, p.post.price]))).toEqual({ [withPost.id]: 380, [titleOnly.id]: 450 })
  })

  test('add → secret shown once; Send test signs; a live match is POSTed as signed JSON; a 500 is retried', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'webhook', name: 'My script', url: hook.hookUrl })
    expect(add.status).toBe(201)
    expect(add.body.secret).toMatch(/^whsec_/)
    hook.setSecret(add.body.secret)
    const list = await api('GET', '/api/notifications/channels', u.cookie)
    expect(list.body.channels).toHaveLength(1)
    expect(JSON.stringify(list.body)).not.toContain(add.body.secret)

    const t = await api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body).toMatchObject({ ok: true, result: 'delivered (204)' })
    expect(hook.received).toHaveLength(1)
    expect(verifySignature(add.body.secret, hook.received[0]!)).toBe(true)
    expect(JSON.parse(hook.received[0]!.body)).toMatchObject({ type: 'test' })

    hook.failNext({ status: 500, body: 'oops' })
    const { match } = await liveMatchFor(u.userId)
    await deliver()
    const row = server.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `match:${match.id}:webhook:${add.body.channel.id}`))
      .get()!
    expect(row).toMatchObject({ status: 'pending', attempts: 1 })
    expect(row.lastError).toContain('500')
    await deliver({ dueNow: true })
    expect(server.deps.db.select().from(outbox).where(eq(outbox.id, row.id)).get()!.status).toBe('sent')

    const sent = hook.received.at(-1)!
    expect(sent.headers['x-dibs-event']).toBe('match')
    expect(sent.headers['x-dibs-delivery']).toBe(row.dedupeKey!)
    expect(verifySignature(add.body.secret, sent)).toBe(true)
    expect(verifySignature('whsec_wrong', sent)).toBe(false)
    expect(Number(sent.headers['x-dibs-timestamp'])).toBeCloseTo(Date.now() / 1000, -2)
    expect(JSON.parse(sent.body)).toMatchObject({
      type: 'match',
      deliveryId: row.dedupeKey,
      match: { id: match.id, category: 'wts', matchedTerms: ['trijicon'] },
      post: { title: '[WTS] Trijicon RMR Type 2 - $450', url: match.url, price: 450 },
    })
  })

  test('a 4xx (not 429) fails for good; a regenerated secret invalidates the old one', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'webhook', url: hook.hookUrl })
    hook.setSecret(add.body.secret)
    const again = await api('POST', `/api/notifications/channels/${add.body.channel.id}/secret`, u.cookie)
    expect(again.body.secret).not.toBe(add.body.secret)
    // the receiver still holds the old secret: 401 → failed (the test shows it inline)
    const t = await api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body.ok).toBe(false)
    expect(t.body.result).toContain('failed (401')
    const { match } = await liveMatchFor(u.userId)
    await deliver()
    expect(
      server.deps.db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupeKey, `match:${match.id}:webhook:${add.body.channel.id}`))
        .get()!.status,
    ).toBe('failed')
  })
})

describe('ntfy', () => {
  test('publishes with Title, Priority, Tags, Click and the Bearer token', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await api('POST', '/api/notifications/channels', u.cookie, {
      kind: 'ntfy',
      url: `${ntfy.url}/dibs-alerts`,
      token: 'tk_secret',
      priority: 4,
      tags: 'rotating_light,gun',
    })
    expect(add.status).toBe(201)
    expect(add.body.secret).toBeUndefined()
    expect(add.body.channel).toMatchObject({ hasToken: true, priority: 4 })
    const { match } = await liveMatchFor(u.userId)
    await deliver()
    const req = ntfy.received.at(-1)!
    expect(req).toMatchObject({ method: 'POST', path: '/dibs-alerts' })
    expect(req.headers).toMatchObject({
      title: 'New GAFS WTS match · $450',
      priority: '4',
      tags: 'rotating_light,gun',
      click: match.url,
      authorization: 'Bearer tk_secret',
    })
    expect(req.body).toBe('[WTS] Trijicon RMR Type 2 - $450\nMatched: trijicon')
  })

  test('a wrong token: Send test shows the 403', async () => {
    const u = await createUserWithSession(server.deps)
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'ntfy', url: `${ntfy.url}/dibs-alerts`, token: 'tk_wrong' })
    const t = await api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body.ok).toBe(false)
    expect(t.body.result).toContain('failed (403')
    expect((await api('GET', '/api/notifications/channels', u.cookie)).body.channels[0].lastResult).toContain('403')
  })
})

describe('Discord', () => {
  test('an embed with title, link, price, matched terms; a 429 waits retry_after', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'discord', url: discord.hookUrl })
    expect(add.status).toBe(201)
    expect(add.body.channel.url).toEndWith('/api/webhooks/123456789/…') // the token is never shown again
    discord.rateLimit(30)
    const { match } = await liveMatchFor(u.userId)
    const before = Date.now()
    await deliver()
    const row = server.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `match:${match.id}:discord:${add.body.channel.id}`))
      .get()!
    expect(row.status).toBe('pending')
    expect(row.nextAttemptAt.getTime() - before).toBeGreaterThanOrEqual(30_000) // not the 5 s backoff
    await deliver({ dueNow: true })
    expect(server.deps.db.select().from(outbox).where(eq(outbox.id, row.id)).get()!.status).toBe('sent')
    const body = JSON.parse(discord.received.at(-1)!.body)
    expect(body.embeds).toHaveLength(1)
    expect(body.embeds[0]).toMatchObject({
      title: '[WTS] Trijicon RMR Type 2 - $450',
      url: match.url,
      fields: [
        { name: 'Price', value: '$450', inline: true },
        { name: 'Matched', value: 'trijicon', inline: true },
        { name: 'Forum', value: 'GAFS WTS', inline: true },
      ],
    })
    expect(body.allowed_mentions).toEqual({ parse: [] })
  })

  test("Send test posts the sample; 'What Dibs sends' shows the request with the webhook token masked", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'discord', url: discord.hookUrl })
    const t = await api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
    expect(t.body).toMatchObject({ ok: true, result: 'delivered (204)' })
    expect(JSON.parse(discord.received.at(-1)!.body).content).toBe('Dibs test notification')
    const p = await api('GET', `/api/notifications/channels/${add.body.channel.id}/payload`, u.cookie)
    expect(p.body.request).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } })
    expect(p.body.request.url).toEndWith('/api/webhooks/123456789/tok-en_abc')
    expect(JSON.parse(p.body.request.body).embeds[0].title).toBe('[WTS] Dibs test notification - $100')
  })
})

describe('per-term channels reach external channels', () => {
  test('a term that turns a channel off, a muted term, and the union of two terms', async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'none' })
    const a = (await api('POST', '/api/notifications/channels', u.cookie, { kind: 'discord', url: discord.hookUrl })).body.channel.id
    const b = (await api('POST', '/api/notifications/channels', u.cookie, { kind: 'ntfy', url: `${ntfy.url}/t2`, token: 'tk_secret' })).body.channel.id
    const t1 = server.deps.db.insert(searchTerms).values({ userId: u.userId, category: 'wts', term: 'rmr' }).returning().get()
    const t2 = server.deps.db.insert(searchTerms).values({ userId: u.userId, category: 'wts', term: 'trijicon' }).returning().get()
    expect((await api('PATCH', `/api/terms/${t1.id}/delivery`, u.cookie, { endpoints: { [a]: false } })).status).toBe(200)
    expect((await api('PATCH', `/api/terms/${t2.id}/delivery`, u.cookie, { endpoints: { [b]: false } })).status).toBe(200)
    const keys = (id: number) =>
      server.deps.db
        .select({ k: outbox.dedupeKey })
        .from(outbox)
        .all()
        .map((r) => r.k!)
        .filter((k) => k.startsWith(`match:${id}:`))
        .sort()
    const m1 = makeMatch(server.deps, u.userId)
    server.deps.db.insert(matchTerms).values({ matchId: m1.id, termId: t1.id }).run()
    const m2 = makeMatch(server.deps, u.userId)
    for (const id of [t1.id, t2.id]) server.deps.db.insert(matchTerms).values({ matchId: m2.id, termId: id }).run()
    for (const m of [m1, m2]) server.deps.dispatcher.add({ userId: u.userId, match: m, notify: true })
    await server.deps.dispatcher.flush()
    expect(keys(m1.id)).toEqual([`match:${m1.id}:ntfy:${b}`])
    expect(keys(m2.id)).toEqual([`match:${m2.id}:discord:${a}`, `match:${m2.id}:ntfy:${b}`].sort())
    // muted: nothing but in-app
    const mute = await api('PATCH', `/api/terms/${t1.id}/delivery`, u.cookie, { mute: '8h' })
    expect(mute.body.term.mutedUntil).toBeString()
    const m3 = makeMatch(server.deps, u.userId)
    server.deps.db.insert(matchTerms).values({ matchId: m3.id, termId: t1.id }).run()
    server.deps.dispatcher.add({ userId: u.userId, match: m3, notify: true })
    await server.deps.dispatcher.flush()
    expect(keys(m3.id)).toEqual([])
  })
})

describe('URL rules and gate', () => {
  test('without CHANNELS_ALLOW_PRIVATE: http, loopback and non-Discord hosts are refused', async () => {
    server.deps.config.channelsAllowPrivate = false
    try {
      const u = await createUserWithSession(server.deps)
      const cases: [string, string, string][] = [
        ['webhook', 'http://hooks.example.com/x', 'https://'],
        ['webhook', hook.hookUrl, 'https://'],
        ['webhook', 'https://127.0.0.1:9/x', 'private network'],
        ['webhook', 'https://[::1]/x', 'private network'],
        ['webhook', 'https://user:pass@example.com/x', 'user name or password'],
        ['ntfy', 'https://10.0.0.8/topic', 'private network'],
        ['discord', 'https://example.com/api/webhooks/1/abc', 'Discord webhook URL'],
        ['discord', 'https://discord.com/channels/1/2', 'Discord webhook URL'],
      ]
      for (const [kind, url, reason] of cases) {
        const r = await api('POST', '/api/notifications/channels', u.cookie, { kind, url })
        expect({ url, status: r.status, code: r.body.error?.code }).toEqual({ url, status: 400, code: 'INVALID_URL' })
        expect(r.body.error.message).toContain(reason)
      }
    } finally {
      server.deps.config.channelsAllowPrivate = true
    }
  })

  test('a saved URL that now points inward is refused at send time', async () => {
    const u = await createUserWithSession(server.deps)
    const add = await api('POST', '/api/notifications/channels', u.cookie, { kind: 'webhook', url: hook.hookUrl })
    server.deps.config.channelsAllowPrivate = false
    try {
      const t = await api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, u.cookie)
      expect(t.body.ok).toBe(false)
      expect(t.body.result).toContain('URL refused')
      expect(hook.received).toHaveLength(0)
    } finally {
      server.deps.config.channelsAllowPrivate = true
    }
  })

  test("an expired trial cannot add channels; another user's channel is not found; signed out is 401", async () => {
    const lapsed = await createUserWithSession(server.deps, { role: 'app_trial', accessExpiresAt: new Date(Date.now() - 1000) })
    const r = await api('POST', '/api/notifications/channels', lapsed.cookie, { kind: 'webhook', url: hook.hookUrl })
    expect(r.status).toBe(403)
    expect(r.body.error.message).toBe('Alerts on other channels (webhooks, chat apps, push services) require a subscription')
    const owner = await createUserWithSession(server.deps)
    const other = await createUserWithSession(server.deps)
    const add = await api('POST', '/api/notifications/channels', owner.cookie, { kind: 'webhook', url: hook.hookUrl })
    expect((await api('DELETE', `/api/notifications/channels/${add.body.channel.id}`, other.cookie)).status).toBe(404)
    expect((await api('POST', `/api/notifications/channels/${add.body.channel.id}/test`, other.cookie)).status).toBe(404)
    expect((await api('GET', '/api/notifications/channels', '')).status).toBe(401)
    expect((await api('DELETE', `/api/notifications/channels/${add.body.channel.id}`, owner.cookie)).status).toBe(200)
  })
})
