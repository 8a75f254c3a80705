// /api/admin dashboard routes (issue 14 items 1–4): who may call them, the two switches (rows
// created with active false, audited, broadcast on the admin topic), maintenance mode's 503 for
// signed-in non-admins while scanning goes on, and health / KPIs / resources / activity from real data.
import { afterEach, describe, expect, test } from 'bun:test'
import { MAINTENANCE_HEADER, MAINTENANCE_MESSAGE } from '../../src/web/maintenance-mode'
import { runScan } from '../../src/scanner/scan'
import { setSetting } from '../../src/settings/service'
import { addTerm } from '../../src/terms/service'
import { startFakeReddit, type FakeReddit, fakeRedditClient } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, startTestServer, testClock, type TestDeps } from '../helpers'

let deps: TestDeps | null = null
let fake: FakeReddit | null = null
afterEach(async () => {
  deps?.close()
  await fake?.stop()
  deps = null
  fake = null
})

async function setup(clock = testClock(Date.UTC(2026, 0, 15, 12, 0))) {
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  const source = fakeRedditClient(fake, { clock })
  deps = makeDeps({}, clock, { source })
  const app = makeApp(deps)
  const admin = await createUserWithSession(deps, { role: 'admin', email: 'root@example.com' })
  const member = await createUserWithSession(deps, { role: 'product+gd' })
  return { deps, app, admin, member, clock, fake }
}

const audits = (d: TestDeps) => d.sqlite.query('SELECT actor, action, target, result, details FROM audit_log ORDER BY id').all() as any[]

describe('who may call the dashboard routes', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/settings'],
    ['PUT', '/api/admin/settings/is_emergency_paused', { active: false }],
    ['PUT', '/api/admin/settings/is_maintenance_mode_active', { active: false }],
    ['GET', '/api/admin/health'],
    ['GET', '/api/admin/kpis'],
    ['GET', '/api/admin/resources'],
    ['GET', '/api/admin/activity'],
  ]
  for (const [method, path, json] of routes)
    test(`${method} ${path}: signed out 401, subscriber 403, admin 200`, async () => {
      const s = await setup()
      expect((await call(s.app, method, path, { json })).status).toBe(401)
      const denied = await call(s.app, method, path, { json, cookie: s.member.cookie })
      expect(denied.status).toBe(403)
      expect(denied.body.error.message).toBe('This page is restricted to admin users only.')
      expect((await call(s.app, method, path, { json, cookie: s.admin.cookie })).status).toBe(200)
    })
})

describe('emergency pause and maintenance mode', () => {
  test('reading the settings creates the missing rows with active false', async () => {
    const s = await setup()
    // (the one row a fresh server writes at start says the sources table was seeded: src/sources/store.ts)
    const switches = "SELECT name, value FROM system_settings WHERE name LIKE 'is_%' ORDER BY name"
    expect(s.deps.sqlite.query(switches).all()).toEqual([])
    const r = await call(s.app, 'GET', '/api/admin/settings', { cookie: s.admin.cookie })
    expect(r.body).toEqual({ is_emergency_paused: false, is_maintenance_mode_active: false })
    const rows = s.deps.sqlite.query(switches).all()
    expect(rows).toEqual([
      { name: 'is_emergency_paused', value: '{"active":false}' },
      { name: 'is_maintenance_mode_active', value: '{"active":false}' },
    ])
  })

  test('switching is audited and announced as settings.changed; a bad name or body is refused', async () => {
    const s = await setup()
    const seen: unknown[] = []
    s.deps.bus.on('settings.changed', (e) => void seen.push(e))
    const r = await call(s.app, 'PUT', '/api/admin/settings/is_emergency_paused', { json: { active: true }, cookie: s.admin.cookie })
    expect(r.body).toEqual({ name: 'is_emergency_paused', active: true })
    expect(seen).toEqual([{ name: 'is_emergency_paused', active: true }])
    expect(audits(s.deps)).toEqual([
      { actor: 'root@example.com', action: 'settings.is_emergency_paused', target: 'is_emergency_paused', result: 'ok', details: '{"active":true}' },
    ])
    expect((await call(s.app, 'GET', '/api/admin/settings', { cookie: s.admin.cookie })).body.is_emergency_paused).toBe(true)
    expect((await call(s.app, 'PUT', '/api/admin/settings/is_everything_off', { json: { active: true }, cookie: s.admin.cookie })).status).toBe(400)
    expect((await call(s.app, 'PUT', '/api/admin/settings/is_emergency_paused', { json: { active: 'yes' }, cookie: s.admin.cookie })).status).toBe(400)
    expect(audits(s.deps)).toHaveLength(1)
  })

  test('maintenance: a signed-in subscriber gets 503 MAINTENANCE, admins and open routes work, scanning and alerts go on', async () => {
    const s = await setup()
    await addTerm(s.deps, s.member.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
    const before = await call(s.app, 'GET', '/api/terms?category=wts', { cookie: s.member.cookie })
    expect(before.status).toBe(200)
    expect(before.headers.get(MAINTENANCE_HEADER)).toBeNull()
    await call(s.app, 'PUT', '/api/admin/settings/is_maintenance_mode_active', { json: { active: true }, cookie: s.admin.cookie })

    const cases: [string, string, string | undefined, number][] = [
      ['GET', '/api/terms?category=wts', s.member.cookie, 503],
      ['GET', '/api/matches?category=wts', s.member.cookie, 503],
      ['GET', '/api/unread', s.member.cookie, 503],
      ['GET', '/api/me', s.member.cookie, 200],
      ['GET', '/api/config', s.member.cookie, 200],
      ['GET', '/api/terms?category=wts', s.admin.cookie, 200],
      ['GET', '/api/admin/health', s.admin.cookie, 200],
      ['GET', '/api/posts?category=wts&page=1', undefined, 200],
      ['GET', '/api/terms?category=wts', undefined, 401],
      ['GET', '/healthz', undefined, 200],
    ]
    for (const [method, path, cookie, status] of cases) {
      const r = await call(s.app, method, path, { cookie })
      expect({ path, cookie: cookie === s.admin.cookie ? 'admin' : cookie ? 'member' : 'none', status: r.status }).toEqual({
        path,
        cookie: cookie === s.admin.cookie ? 'admin' : cookie ? 'member' : 'none',
        status,
      })
      if (path.startsWith('/api/')) expect(r.headers.get(MAINTENANCE_HEADER)).toBe('on')
      if (status === 503) expect(r.body.error).toMatchObject({ code: 'MAINTENANCE', message: MAINTENANCE_MESSAGE })
    }
    // the login route stays open
    expect((await call(s.app, 'POST', '/api/auth/login', { json: { email: 'nobody@example.com', password: 'wrong-password' } })).status).not.toBe(503)

    // Scanning and matching go on: a new post still becomes the subscriber's match.
    s.clock.advance(2000)
    s.fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400', subreddit: 'GunAccessoriesForSale' })
    const o = await runScan(s.deps)
    expect(o).toMatchObject({ status: 'success', matchesCreated: 1 })

    await call(s.app, 'PUT', '/api/admin/settings/is_maintenance_mode_active', { json: { active: false }, cookie: s.admin.cookie })
    const after = await call(s.app, 'GET', '/api/matches?category=wts', { cookie: s.member.cookie })
    expect(after.status).toBe(200)
    expect(after.headers.get(MAINTENANCE_HEADER)).toBeNull()
  })

  test('the emergency pause still stops scanning', async () => {
    const s = await setup()
    await call(s.app, 'PUT', '/api/admin/settings/is_emergency_paused', { json: { active: true }, cookie: s.admin.cookie })
    s.fake.publish({ title: '[WTS] Aimpoint T2', subreddit: 'GunAccessoriesForSale' })
    expect((await runScan(s.deps)).status).toBe('paused')
    expect(s.fake.requests.length).toBe(0)
  })
})

describe('health, KPIs, resources and activity from the data', () => {
  const H = 3_600_000
  test('health: counts, minutes since the last successful scan, email queue colour', async () => {
    const s = await setup()
    const now = s.clock.now().getTime()
    const health = async () => (await call(s.app, 'GET', '/api/admin/health', { cookie: s.admin.cookie })).body
    expect(await health()).toMatchObject({
      posts: 0,
      users: 2,
      matches: 0,
      lastScanAt: null,
      status: 'warning',
      performance: 75,
      emailQueuePending: 0,
      emailQueueColour: 'green',
    })
    s.deps.sqlite.query("INSERT INTO maintenance_logs (job_name, status, created_at) VALUES ('fetch-reddit-posts', 'success', ?)").run(now - 12 * 60_000)
    s.deps.sqlite.query("INSERT INTO maintenance_logs (job_name, status, created_at) VALUES ('fetch-reddit-posts', 'failed', ?)").run(now - 60_000)
    for (let i = 0; i < 11; i++) s.deps.sqlite.query("INSERT INTO outbox (channel, kind, payload, status) VALUES ('email', 'match', '{}', 'pending')").run()
    s.deps.sqlite.query("INSERT INTO outbox (channel, kind, payload, status) VALUES ('push', 'match', '{}', 'pending')").run()
    expect(await health()).toMatchObject({ status: 'warning', minutesSinceLastScan: 12, performance: 75, emailQueuePending: 11, emailQueueColour: 'red' })
    s.deps.sqlite.query("INSERT INTO maintenance_logs (job_name, status, created_at) VALUES ('fetch-reddit-posts', 'success', ?)").run(now - 30_000)
    expect(await health()).toMatchObject({ status: 'healthy', performance: 95 })
  })

  test("KPIs: today's and yesterday's matches, growth, users matched, posts today, tiers and conversion", async () => {
    const s = await setup() // 2026-01-15 12:00 UTC
    const now = s.clock.now().getTime()
    const trial = await createUserWithSession(s.deps, { role: 'app_trial', subscriptionStatus: 'trialing' })
    await createUserWithSession(s.deps, { role: 'gd', subscriptionStatus: 'canceled' })
    const post = (at: number, id: string) =>
      (
        s.deps.sqlite
          .query("INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at) VALUES (?, 'gd', 'gundeals', 't', 'u', ?) RETURNING id")
          .get(id, at) as any
      ).id
    const match = (user: number, postId: number, at: number) =>
      s.deps.sqlite
        .query("INSERT INTO matches (user_id, post_id, category, matched_terms, post_title, post_url, created_at) VALUES (?, ?, 'gd', '[]', 't', 'u', ?)")
        .run(user, postId, at)
    const p1 = post(now - 2 * H, 'a') // today
    const p2 = post(now - 13 * H, 'b') // yesterday 23:00
    const p3 = post(now - 30 * H, 'c') // yesterday 06:00
    match(s.member.userId, p1, now - H)
    match(trial.userId, p1, now - H)
    match(s.member.userId, p2, now - 13 * H) // yesterday, within 24 h
    match(trial.userId, p2, now - 13 * H)
    match(s.member.userId, p3, now - 30 * H)
    match(trial.userId, p3, now - 30 * H)
    const k = (await call(s.app, 'GET', '/api/admin/kpis', { cookie: s.admin.cookie })).body
    expect(k).toMatchObject({
      matchesToday: 2,
      matchesYesterday: 4,
      matchesGrowthPercent: -50,
      usersMatched24h: 2,
      postsToday: 1,
      totalUsers: 4,
      activeOrTrialing: 3, // admin (active), member (active), trial (trialing)
      trialUsers: 1,
      paidUsers: 2, // product+gd and gd
      conversionRate: 66.7,
    })
  })

  test('resources are measured, not sample text; activity lists the admin actions', async () => {
    const s = await setup()
    await call(s.app, 'PUT', '/api/admin/settings/is_maintenance_mode_active', { json: { active: true }, cookie: s.admin.cookie })
    s.deps.sqlite.query("INSERT INTO outbox (channel, kind, payload, status) VALUES ('email', 'match', '{}', 'pending')").run()
    const r = (await call(s.app, 'GET', '/api/admin/resources', { cookie: s.admin.cookie })).body
    expect(r.uptimeSeconds).toBeGreaterThanOrEqual(0)
    expect(r.memory.rssBytes).toBeGreaterThan(1_000_000)
    expect(r.memory.heapUsedBytes).toBeGreaterThan(0)
    expect(r.database.fileBytes).toBeGreaterThan(0)
    expect(r.openSockets).toBe(0)
    expect(r.outbox).toEqual({ pending: 1, sending: 0 })
    expect(r.reddit).toMatchObject({ mode: 'atom', requestsLastMinute: 0, allowedPerMinute: 10, last429At: null })
    expect(r.scanInterval).toEqual({ ms: 7500, adaptive: true })
    expect(r.alertLatency24h).toEqual({ samples: 0, p50Ms: null, p95Ms: null })
    const a = (await call(s.app, 'GET', '/api/admin/activity', { cookie: s.admin.cookie })).body
    expect(a[0]).toMatchObject({ kind: 'admin', actor: 'root@example.com', status: 'ok' })
    expect(a[0].text).toBe('Maintenance mode turned on')
  })

  test('alert latency p50/p95 over 24 h from live matches, and the last 429 from the scan log', async () => {
    const s = await setup()
    const now = s.clock.now().getTime()
    const m = (createdAt: number, postAt: number, source = 'live') =>
      s.deps.sqlite
        .query(
          "INSERT INTO matches (user_id, post_id, category, matched_terms, post_title, post_url, post_created_at, created_at, source) VALUES (?, NULL, 'gd', '[]', 't', 'u', ?, ?, ?)",
        )
        .run(s.member.userId, postAt, createdAt, source)
    for (let i = 1; i <= 20; i++) m(now - i * 60_000, now - i * 60_000 - i * 1000) // latencies 1..20 s
    m(now - 60_000, now - 3_600_000, 'backfill') // not an alert
    m(now - 25 * H, now - 26 * H) // older than 24 h
    s.deps.sqlite.query("INSERT INTO scan_metrics (created_at, scan_type, status, error) VALUES (?, 'live', 'failed', 'rate_limited: 429')").run(now - 5000)
    const r = (await call(s.app, 'GET', '/api/admin/resources', { cookie: s.admin.cookie })).body
    expect(r.alertLatency24h).toEqual({ samples: 20, p50Ms: 10_000, p95Ms: 19_000 })
    expect(r.reddit.last429At).toBe(new Date(now - 5000).toISOString())
  })
})

describe('settings.changed reaches admin sockets only', () => {
  test('an admin socket sees the switch live; a subscriber socket does not', async () => {
    const server = await startTestServer()
    try {
      const admin = await createUserWithSession(server.deps, { role: 'admin' })
      const member = await createUserWithSession(server.deps)
      const origin = new URL(server.deps.config.appUrl).origin
      const open = (cookie: string) => {
        const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin, cookie } } as never)
        const got: any[] = []
        ws.onmessage = (e) => void got.push(JSON.parse(String(e.data)))
        return { ws, got, ready: new Promise<void>((r) => (ws.onopen = () => r())) }
      }
      const a = open(admin.cookie)
      const b = open(member.cookie)
      await Promise.all([a.ready, b.ready])
      while (!a.got.some((m) => m.type === 'hello') || !b.got.some((m) => m.type === 'hello')) await Bun.sleep(10)
      const r = await fetch(server.url + '/api/admin/settings/is_emergency_paused', {
        method: 'PUT',
        headers: { origin, cookie: admin.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ active: true }),
      })
      expect(r.status).toBe(200)
      for (let i = 0; i < 100 && !a.got.some((m) => m.type === 'settings.changed'); i++) await Bun.sleep(10)
      expect(a.got.find((m) => m.type === 'settings.changed')).toEqual({ type: 'settings.changed', data: { name: 'is_emergency_paused', active: true } })
      await Bun.sleep(50)
      expect(b.got.some((m) => m.type === 'settings.changed')).toBe(false)
      a.ws.close()
      b.ws.close()
      await setSetting(server.deps, 'is_emergency_paused', false)
    } finally {
      await server.stop()
    }
  })
})
