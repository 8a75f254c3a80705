// Listing lifecycle through the fake Reddit: the re-check of recent posts (/api/info, public and
// OAuth), post.updated on real WebSockets, digests that skip sold posts, the budget share, and
// 'Wait before email and push' (a post removed 30 s after posting never reaches the push service).
import { afterEach, describe, expect, test } from 'bun:test'
import type { AccessState } from '../../src/access/rules'
import { runDigests } from '../../src/notify/digest'
import { runRecheck } from '../../src/scanner/recheck'
import { nextScanAt, runScan } from '../../src/scanner/scan'
import { attachListeners } from '../../src/services'
import { addTerm } from '../../src/terms/service'
import { startFakePushService } from '../fakes/push-service'
import { fakeOauthEnv, startFakeReddit, fakeRedditClient } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, startTestServer, testClock, wire } from '../helpers'
import { outboxWithPush } from './notify-helpers'

const FULL: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }
const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

type Msg = { type: string; data: any }
function connect(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/api/ws', { headers } as never)
  const messages: Msg[] = []
  ws.onmessage = (e) => void messages.push(JSON.parse(String(e.data)) as Msg)
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve()
    ws.onerror = () => reject(new Error('socket error'))
  })
  const next = async (type: string, ms = 3000) => {
    const until = Date.now() + ms
    while (Date.now() < until) {
      const m = messages.find((x) => x.type === type)
      if (m) return m
      await Bun.sleep(10)
    }
    throw new Error(`no ${type} within ${ms} ms`)
  }
  return { ws, messages, opened, next }
}

/**
 * A test clock, the fake Reddit on it, test deps and a client: OAuth with `oauth`, else logged-out JSON
 * (REDDIT_MODE=json, against a fake that still serves it: the re-check's 10-a-minute budget share).
 */
async function onFakeReddit(opts: { oauth?: boolean; env?: Record<string, string>; share?: number } = {}) {
  const clock = testClock(1_763_640_000_000)
  const creds = opts.oauth ? { clientId: 'id', clientSecret: 'secret' } : {}
  const fake = await startFakeReddit({ ...creds, now: () => clock.now().getTime(), ...(opts.oauth ? {} : { loggedOutJson: 'open' as const }) })
  cleanup.push(() => fake.stop())
  const deps = makeDeps(opts.env ?? {}, clock)
  cleanup.push(() => deps.close())
  const client = fakeRedditClient(fake, {
    ...(opts.oauth ? { baseUrl: fake.oauthUrl } : { mode: 'json' as const }),
    ...creds,
    now: () => clock.now().getTime(),
    recheckShare: opts.share,
  })
  return { clock, fake, deps, client }
}

/** Makes the stored posts look `ms` older (a real server's clock is the wall clock). */
const age = (sqlite: { run(sql: string): unknown }, ms: number) =>
  sqlite.run(`UPDATE posts SET ingested_at = ingested_at - ${ms}, created_at = created_at - ${ms}`)

describe('sold and removed tracking on a real server', () => {
  test('a post marked SOLD on Reddit → state stored, post.updated on the sockets, SOLD in the match list, left out of the digest', async () => {
    const fake = await startFakeReddit()
    cleanup.push(() => fake.stop())
    const server = await startTestServer(fakeOauthEnv(fake))
    cleanup.push(() => server.stop())
    const d = server.deps
    const user = await createUserWithSession(d)
    const other = await createUserWithSession(d)
    await addTerm(d, user.userId, FULL, 'wts', 'rmr')
    await Bun.sleep(5)
    const sold = fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400', selftext: 'Shipped. Timestamp in comments.' })
    fake.publish({ title: '[WTS] Trijicon RMR HRS - $380' })
    expect((await runScan(d)).matchesCreated).toBe(2)

    const origin = new URL(d.config.appUrl).origin
    const mine = connect(server.url, { origin, cookie: user.cookie })
    const anon = connect(server.url, { origin })
    const stranger = connect(server.url, { origin, cookie: other.cookie })
    cleanup.push(() => [mine, anon, stranger].forEach((c) => c.ws.close()))
    await Promise.all([mine.opened, anon.opened, stranger.opened])
    await Promise.all([mine.next('hello'), anon.next('hello'), stranger.next('hello')])

    fake.edit(sold.id, { link_flair_text: 'SOLD', selftext: 'SOLD - thanks all' })
    age(d.sqlite, 3 * 60_000) // past the 2-minute checkpoint
    const o = await runRecheck(d)
    expect(o).toMatchObject({ status: 'success', asked: 2 })
    expect(o.changes.map((c) => c.update.state)).toEqual(['sold'])
    expect(fake.infoRequests()).toHaveLength(1)
    expect(fake.infoRequests()[0]!.path).toBe('/api/info')
    expect(fake.infoRequests()[0]!.query.id!.split(',').sort()).toEqual(fake.posts.map((p) => p.name).sort())

    const row = d.sqlite.query('SELECT state, state_changed_at, recheck_count FROM posts WHERE reddit_id = ?').get(sold.id) as any
    expect(row.state).toBe('sold')
    expect(row.state_changed_at).toBeGreaterThan(0)
    expect(row.recheck_count).toBe(1)

    const msg = await mine.next('post.updated')
    expect(msg.data).toEqual({ post: { postId: expect.any(Number), redditId: sold.id, state: 'sold', stateChangedAt: expect.any(String), price: 400 } })
    expect((await anon.next('post.updated')).data.post.state).toBe('sold') // the landing feed
    expect(JSON.stringify(msg.data)).not.toContain('userIds')

    const list = await call(makeApp(d), 'GET', '/api/matches?category=wts', { cookie: user.cookie, headers: { origin } })
    const states = Object.fromEntries((list.body.matches as any[]).map((m) => [m.title, m.state]))
    expect(states).toEqual({ '[WTS] Trijicon RMR Type 2 - $400': 'sold', '[WTS] Trijicon RMR HRS - $380': 'open' })
    const feed = await call(makeApp(d), 'GET', '/api/posts', { headers: { origin } })
    expect((feed.body.posts as any[]).find((p) => p.redditId === sold.id).state).toBe('sold')

    // the default batched digest lists the open post only
    d.sqlite.run(`UPDATE matches SET created_at = created_at - ${20 * 60_000}`)
    d.sqlite.run(`UPDATE users SET email_confirmed_at = email_confirmed_at - ${40 * 60_000}`)
    expect((await runDigests(d)).sent).toBeGreaterThanOrEqual(1)
    const digest = d.sqlite.query("SELECT payload FROM outbox WHERE kind = 'digest' AND user_id = ?").get(user.userId) as { payload: string }
    expect(digest.payload).toContain('Trijicon RMR HRS')
    expect(digest.payload).not.toContain('RMR Type 2')

    // nothing changes on the next checkpoint run before it is due: no request
    await runRecheck(d)
    expect(fake.infoRequests()).toHaveLength(1)
  })
})

describe('the re-check over OAuth', () => {
  test('uses oauth.reddit.com/api/info with the bearer token; removed, deleted and an edited price are read', async () => {
    const { clock, fake, deps, client } = await onFakeReddit({ oauth: true })
    const a = fake.publish({ title: '[WTS] Aimpoint T2 - $650' })
    const b = fake.publish({ title: '[WTS] EOTech EXPS3 - $500' })
    const c = fake.publish({ title: '[WTS] Holosun 509T - $300', selftext: 'Like new' })
    await runScan(deps, client)
    fake.remove(a.id, 'automod_filtered')
    fake.remove(b.id, 'deleted')
    fake.edit(c.id, { selftext: 'Like new\n\n~~$300~~ $260 shipped' })
    clock.advance(2 * 60_000 + 1)
    const events: any[] = []
    deps.bus.on('post.updated', (e) => void events.push(e))
    const o = await runRecheck(deps, client)
    expect(o.status).toBe('success')
    const info = fake.requests.filter((r) => r.path.startsWith('/api/info'))
    expect(info).toHaveLength(1)
    expect(info[0]).toMatchObject({ host: 'oauth', path: '/api/info' })
    expect(info[0]!.headers.authorization).toMatch(/^bearer /)
    const byId = Object.fromEntries(events.map((e) => [e.post.redditId, e.post]))
    expect(byId[a.id]).toMatchObject({ state: 'removed', price: 650 })
    expect(byId[b.id]).toMatchObject({ state: 'removed' })
    expect(byId[c.id]).toMatchObject({ state: 'open', price: 260, stateChangedAt: null })
    // a removed post is final: never read again
    const counts = deps.sqlite.query('SELECT reddit_id, recheck_count FROM posts').all() as any[]
    expect(counts.find((r) => r.reddit_id === a.id).recheck_count).toBe(6)
  })
})

describe('the budget share', () => {
  test('re-checks stay within RECHECK_BUDGET_SHARE of the cap and never move the live scan off its cadence', async () => {
    const run = async (share: number) => {
      const { clock, fake, deps, client } = await onFakeReddit({ share })
      const scans: number[] = []
      const info: number[] = []
      const start = clock.now().getTime()
      let next = start
      let last = { startedAt: start, endedAt: start }
      // 6 simulated minutes: a post every 5 s (so there is always something to re-check), the scan
      // at its paced time, the re-check job every second as the cron tick runs it
      for (let t = start; t < start + 6 * 60_000; t += 500) {
        clock.set(t)
        if ((t - start) % 5000 === 0) fake.publish({ created_utc: Math.floor(t / 1000) - 200 })
        if (t >= next) {
          const before = fake.listingRequests().length
          await runScan(deps, client)
          if (fake.listingRequests().length > before) scans.push(t)
          last = { startedAt: t, endedAt: clock.now().getTime() }
          next = await nextScanAt(deps, last, client)
        }
        if ((t - start) % 1000 === 0) {
          deps.sqlite.run('UPDATE posts SET ingested_at = ingested_at - 120000 WHERE recheck_count = 0') // every stored post is due
          const before = fake.infoRequests().length
          await runRecheck(deps, client)
          if (fake.infoRequests().length > before) info.push(t)
        }
      }
      return { scans, info, gaps: scans.slice(1).map((t, i) => t - scans[i]!), requests: fake.requests }
    }
    const without = await run(0)
    const withLoad = await run(0.2)
    expect(without.info).toHaveLength(0)
    expect(withLoad.info.length).toBeGreaterThanOrEqual(11) // 2 a minute (20 % of 10) over 6 minutes
    for (let i = 0; i < withLoad.info.length; i++) {
      const inMinute = withLoad.info.filter((t) => t > withLoad.info[i]! - 60_000 && t <= withLoad.info[i]!).length
      expect(inMinute).toBeLessThanOrEqual(2)
    }
    // the live cadence is the same: as many scans, every gap at the public interval (7.5 s, on the 500 ms step)
    expect(withLoad.scans.length).toBe(without.scans.length)
    expect(Math.max(...withLoad.gaps)).toBe(Math.max(...without.gaps))
    expect(Math.max(...withLoad.gaps)).toBeLessThanOrEqual(8000)
    // 6 minutes at one scan per 7.5 s
    expect(withLoad.scans.length).toBeGreaterThanOrEqual(47)
  }, 30_000)
})

describe('Wait before email and push', () => {
  test('a post removed 30 s after posting with a 60 s hold never reaches the push service; an open one arrives after the hold', async () => {
    const { clock, fake, deps, client } = await onFakeReddit({ env: { APP_URL: 'https://dibs.example.com' } })
    const push = await startFakePushService()
    cleanup.push(() => push.stop())
    wire(deps)
    const worker = outboxWithPush(deps, push)
    cleanup.push(() => worker.stop())
    attachListeners(deps, { dispatcher: deps.dispatcher, outbox: worker })
    const app = makeApp(deps)
    const headers = { origin: 'https://dibs.example.com' }
    const u = await createUserWithSession(deps, { emailFrequency: 'none' })
    const device = push.subscribe()
    expect(
      (await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: { endpoint: device.endpoint, keys: device.keys }, headers })).status,
    ).toBe(201)
    expect((await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { web_push_enabled: true }, headers })).status).toBe(200)
    // the setting: validated, stored, read back
    const bad = await call(app, 'PUT', '/api/notifications/hold', { cookie: u.cookie, json: { hold_seconds: 121 }, headers })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ code: 'INVALID_HOLD', message: expect.stringContaining('0 to 120') })
    expect((await call(app, 'PUT', '/api/notifications/hold', { cookie: u.cookie, json: { hold_seconds: 60 }, headers })).body.hold_seconds).toBe(60)
    // (no Reddit key here: the setting says re-checks come only from later polls of the feed)
    expect((await call(app, 'GET', '/api/notifications/hold', { cookie: u.cookie, headers })).body).toMatchObject({ hold_seconds: 60, max_seconds: 120 })
    await addTerm(deps, u.userId, FULL, 'wts', 'rmr')
    clock.advance(1000)

    const removed = fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400' })
    fake.publish({ title: '[WTS] Trijicon RMR HRS - $380' })
    const inApp: unknown[] = []
    deps.bus.on('match.new', (e) => void inApp.push(e))
    await runScan(deps, client)
    expect(inApp).toHaveLength(2) // in-app is instant
    await deps.dispatcher.flush()
    await worker.tick()
    const rows = () => deps.sqlite.query("SELECT status, last_error FROM outbox WHERE channel = 'push' ORDER BY id").all() as any[]
    expect(rows().map((r) => r.status)).toEqual(['waiting', 'waiting'])
    expect(push.received).toHaveLength(0)

    clock.advance(30_000)
    fake.remove(removed.id, 'automod_filtered')
    await runRecheck(deps, client) // nothing due yet: no request
    await worker.tick()
    expect(push.received).toHaveLength(0)
    expect(fake.infoRequests()).toHaveLength(0)

    clock.advance(30_000) // the hold ends: one read for the batch
    const o = await runRecheck(deps, client)
    expect(o).toMatchObject({ status: 'success', released: 1, cancelled: 1 }) // the removed post's held row is cancelled by the read itself
    expect(fake.infoRequests()).toHaveLength(1)
    await worker.tick()
    const after = rows()
    expect(after[0]).toEqual({ status: 'skipped', last_error: 'not sent: the post was removed before delivery' })
    expect(after[1].status).toBe('sent')
    expect(push.received).toHaveLength(1)
    expect((push.received[0]!.payload as any).postTitle).toBe('[WTS] Trijicon RMR HRS - $380')
  })

  test('without a hold a queued alert of a post found sold is cancelled, and a sent one is never sent again', async () => {
    const { clock, fake, deps, client } = await onFakeReddit()
    wire(deps)
    attachListeners(deps, { dispatcher: deps.dispatcher })
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    await addTerm(deps, u.userId, FULL, 'wts', 'rmr')
    clock.advance(1000)
    const p = fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400' })
    const q = fake.publish({ title: '[WTS] Trijicon RMR HRS - $380' })
    await runScan(deps, client)
    await deps.dispatcher.flush()
    deps.sqlite.run("UPDATE outbox SET status = 'sent', sent_at = 1 WHERE id = (SELECT min(id) FROM outbox)") // the first email already went
    fake.edit(p.id, { title: '[SOLD] Trijicon RMR Type 2 - $400' })
    fake.edit(q.id, { link_flair_text: 'SOLD' })
    clock.advance(2 * 60_000 + 1)
    expect((await runRecheck(deps, client)).cancelled).toBe(1)
    const rows = deps.sqlite.query("SELECT status, last_error FROM outbox WHERE channel = 'email' ORDER BY id").all()
    expect(rows).toEqual([
      { status: 'sent', last_error: null },
      { status: 'skipped', last_error: 'not sent: the post was marked sold before delivery' },
    ])
  })
})

describe('re-checks without a key: later polls of the Atom feed', () => {
  test('a stored post the feed shows again marked SOLD or pending changes state; its queued alert is cancelled; nothing else is written', async () => {
    const clock = testClock(1_763_640_000_000)
    const fake = await startFakeReddit({ now: () => clock.now().getTime() })
    cleanup.push(() => fake.stop())
    const deps = makeDeps({}, clock)
    cleanup.push(() => deps.close())
    const client = fakeRedditClient(fake, { now: () => clock.now().getTime() })
    expect(client.mode).toBe('atom')
    expect(client.fetchInfo).toBeUndefined()
    wire(deps)
    attachListeners(deps, { dispatcher: deps.dispatcher })
    const events: { post: { redditId: string; state: string } }[] = []
    deps.bus.on('post.updated', (e) => void events.push(e))
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    await addTerm(deps, u.userId, FULL, 'wts', 'rmr')
    clock.advance(1000)
    const p = fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400' })
    const q = fake.publish({ title: '[WTS] Holosun 507C - $250' })
    const r = fake.publish({ title: '[WTS] Aimpoint T2 - $700' })
    expect((await runScan(deps, client)).postsNew).toBe(3)
    await deps.dispatcher.flush()
    expect(deps.sqlite.query("SELECT status FROM outbox WHERE channel = 'email'").all()).toEqual([{ status: 'pending' }])

    fake.edit(p.id, { selftext: 'SOLD - thanks all' })
    fake.edit(q.id, { title: '[WTS] [Pending] Holosun 507C - $250' })
    clock.advance(60_000)
    const next = await runScan(deps, client)
    expect(next).toMatchObject({ status: 'success', postsNew: 0, postsChanged: 2 })
    const state = (id: string) => (deps.sqlite.query('SELECT state FROM posts WHERE reddit_id = ?').get(id) as { state: string }).state
    expect([state(p.id), state(q.id), state(r.id)]).toEqual(['sold', 'pending', 'open'])
    expect(new Map(events.map((e) => [e.post.redditId, e.post.state]))).toEqual(
      new Map([
        [p.id, 'sold'],
        [q.id, 'pending'],
      ]),
    )
    expect(deps.sqlite.query("SELECT status, last_error FROM outbox WHERE channel = 'email'").all()).toEqual([
      { status: 'skipped', last_error: 'not sent: the post was marked sold before delivery' },
    ])
    // The /api/info checkpoints are not touched, and an unchanged poll writes nothing.
    expect(deps.sqlite.query('SELECT count(*) AS n FROM posts WHERE recheck_count > 0 OR rechecked_at IS NOT NULL').get()).toEqual({ n: 0 })
    clock.advance(60_000)
    expect(await runScan(deps, client)).toMatchObject({ status: 'success', postsChanged: 0 })
    expect(events).toHaveLength(2)
  })
})
