// /api/admin Logs routes (issue 14 item 7): scanner status and force run (never overlapping a scan
// in flight), the scan log with its status filter, the application log tail, and runtime scan
// settings stored in system_settings and applied to the rate budget without a restart.
import { afterEach, describe, expect, test } from 'bun:test'
import { applyStoredScanSettings } from '../../src/admin/logs/scan-settings'
import { BLOCK_PAGE } from '../../src/forums/reddit-client'
import { SCRAPER_DENIED } from '../../src/admin/shared/texts'
import { log, setLogLevel } from '../../src/lib/log'
import { runScan } from '../../src/scanner/scan'
import { startFakeReddit, type FakeReddit, fakeRedditClient } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

let deps: TestDeps | null = null
let fake: FakeReddit | null = null
afterEach(async () => {
  deps?.close()
  await fake?.stop()
  deps = null
  fake = null
})

async function setup(opts: { timeoutDelayMs?: number } = {}) {
  const clock = testClock(Date.UTC(2026, 0, 15, 12, 0))
  fake = await startFakeReddit({ now: () => clock.now().getTime(), timeoutDelayMs: opts.timeoutDelayMs })
  const f = fake
  const client = () => fakeRedditClient(f, { clock, timeoutMs: 3000 })
  deps = await makeDeps({}, clock, { source: client() })
  const app = makeApp(deps)
  const admin = await createUserWithSession(deps, { role: 'admin', email: 'root@example.com' })
  const member = await createUserWithSession(deps, { role: 'product+gd' })
  const d = deps
  return {
    deps: d,
    app,
    clock,
    fake: f,
    client,
    admin,
    member,
    as: (who: 'admin' | 'member', method: string, path: string, json?: unknown) =>
      call(app, method, path, { json, cookie: (who === 'admin' ? admin : member).cookie }),
    audits: () => d.sqlite.query('SELECT action, result, details FROM audit_log ORDER BY id').all() as { action: string; result: string; details: string }[],
  }
}

describe('who may call the logs routes', () => {
  const ONLY = 'This page is restricted to admin users only.'
  const routes: [string, string, unknown, string][] = [
    ['GET', '/api/admin/scanner', undefined, ONLY],
    ['POST', '/api/admin/scanner/run', {}, SCRAPER_DENIED],
    ['GET', '/api/admin/scan-log', undefined, ONLY],
    ['GET', '/api/admin/logs/app', undefined, ONLY],
    ['GET', '/api/admin/scan-settings', undefined, ONLY],
    ['PUT', '/api/admin/scan-settings', { intervalSeconds: null, maxRequestsPerMinute: 10 }, ONLY],
    ['DELETE', '/api/admin/scan-settings', undefined, ONLY],
  ]
  for (const [method, path, json, denied] of routes)
    test(`${method} ${path}: signed out 401, subscriber 403, admin 200`, async () => {
      const s = await setup()
      expect((await call(s.app, method, path, { json })).status).toBe(401)
      const r = await s.as('member', method, path, json)
      expect(r.status).toBe(403)
      expect(r.body.error.message).toBe(denied)
      expect((await s.as('admin', method, path, json)).status).toBe(200)
      expect(s.audits().length).toBe(method === 'GET' ? 0 : 1)
    })
})

describe('scanner status and control', () => {
  test('idle → failing since the first failure after the last success → paused; force run reports the outcome', async () => {
    const s = await setup()
    const status = async () => (await s.as('admin', 'GET', '/api/admin/scanner')).body
    expect(await status()).toMatchObject({ state: 'idle', lastScanAt: null, failingSince: null, mode: 'atom' })

    const ok = await s.as('admin', 'POST', '/api/admin/scanner/run', {})
    expect(ok.body).toMatchObject({ status: 'success', scanType: 'manual' })
    expect((await status()).lastSuccessAt).toBe(s.clock.now().toISOString())

    s.clock.advance(60_000)
    s.fake.setFault('500', 2)
    const firstFailAt = s.clock.now().toISOString()
    expect((await s.as('admin', 'POST', '/api/admin/scanner/run', {})).body.status).toBe('failed')
    s.clock.advance(60_000)
    await runScan(s.deps)
    const failing = await status()
    expect(failing).toMatchObject({ state: 'failing', failingSince: firstFailAt })
    expect(failing.lastError).toContain('server')

    await s.as('admin', 'PUT', '/api/admin/settings/is_emergency_paused', { active: true })
    expect(await status()).toMatchObject({ state: 'paused', paused: true, nextScanAt: null })
    expect((await s.as('admin', 'POST', '/api/admin/scanner/run', {})).body.status).toBe('paused')
    expect(s.audits().map((a) => a.action)).toEqual(['scanner.force_run', 'scanner.force_run', 'settings.is_emergency_paused', 'scanner.force_run'])
  })

  test('waiting for the rate budget when the cap for this minute is spent', async () => {
    const s = await setup()
    await s.as('admin', 'PUT', '/api/admin/scan-settings', { intervalSeconds: null, maxRequestsPerMinute: 1 })
    await s.as('admin', 'POST', '/api/admin/scanner/run', {})
    const st = (await s.as('admin', 'GET', '/api/admin/scanner')).body
    expect(st).toMatchObject({ state: 'waiting', waitingReason: 'cap', waitingWhy: 'the 1 request a minute Dibs allows itself is used (Scan settings)' })
    expect(Date.parse(st.waitingUntil)).toBe(s.clock.now().getTime() + 60_000)
    expect((await s.as('admin', 'POST', '/api/admin/scanner/run', {})).body.status).toBe('waiting')
  })

  test('a source Reddit blocks (no key, a cloud address): the failed scan counts its request, and a force run names the block, not the budget', async () => {
    const s = await setup()
    expect((await call(s.app, 'GET', '/api/posts')).body.delayed).toBe(false)
    s.fake.block()
    const first = (await s.as('admin', 'POST', '/api/admin/scanner/run', {})).body
    expect(first).toMatchObject({ status: 'failed', requests: 1, waitingWhy: null })
    const row = (await s.as('admin', 'GET', '/api/admin/scan-log')).body[0]
    expect(row.summary).toBe('0 fetched, 0 new, 0 matches for 0 users, 1 request')
    expect(row.error).toBe(`blocked: ${BLOCK_PAGE}`)
    s.clock.advance(1000) // inside the backoff: nothing is sent, and the answer says why
    const second = (await s.as('admin', 'POST', '/api/admin/scanner/run', {})).body
    expect(second).toMatchObject({ status: 'waiting', requests: 0, waitingWhy: BLOCK_PAGE })
    expect((await s.as('admin', 'GET', '/api/admin/scanner')).body).toMatchObject({ state: 'failing', waitingWhy: BLOCK_PAGE, health: { state: 'blocked' } })
    expect(s.fake.requests.filter((r) => r.path.includes('/new')).length).toBe(1)
    // the public feed says posts are delayed, and nothing of why
    const feed = await call(s.app, 'GET', '/api/posts')
    expect(feed.body).toEqual({ posts: [], total: 0, page: 1, pageSize: 10, delayed: true })
  })

  test('a force run while a scheduled scan is in flight does not overlap it', async () => {
    const s = await setup({ timeoutDelayMs: 300 })
    s.fake.setFault('timeout', 1) // the scheduled scan's request stalls 300 ms, then answers
    const scheduled = runScan(s.deps)
    await Bun.sleep(20)
    expect((await s.as('admin', 'GET', '/api/admin/scanner')).body.state).toBe('running')
    const forced = await s.as('admin', 'POST', '/api/admin/scanner/run', {})
    expect(forced.body.status).toBe('busy')
    expect((await scheduled).status).toBe('success')
    expect(s.fake.requests.filter((r) => r.path.includes('/new')).length).toBe(1)
    expect(s.deps.sqlite.query('SELECT count(*) AS n FROM scan_metrics').get()).toEqual({ n: 1 })
  })
})

describe('scan log and application log', () => {
  test('the scan log merges scans and maintenance jobs, newest first, filtered by status', async () => {
    const s = await setup()
    const now = s.clock.now().getTime()
    s.deps.sqlite.query("INSERT INTO scan_metrics (created_at, scan_type, status, posts_new) VALUES (?, 'live', 'success', 3)").run(now - 3000)
    s.deps.sqlite.query("INSERT INTO scan_metrics (created_at, scan_type, status, error) VALUES (?, 'live', 'failed', 'server: 503')").run(now - 2000)
    s.deps.sqlite
      .query("INSERT INTO maintenance_logs (job_name, status, created_at, details) VALUES ('fetch-reddit-posts', 'success', ?, '{}')")
      .run(now - 3000)
    s.deps.sqlite
      .query(`INSERT INTO maintenance_logs (job_name, status, created_at, details) VALUES ('archive-posts', 'success', ?, '{"archived_count":4}')`)
      .run(now - 1000)
    const all = (await s.as('admin', 'GET', '/api/admin/scan-log')).body
    expect(all.map((e: any) => [e.source, e.status])).toEqual([
      ['job', 'success'],
      ['scan', 'failed'],
      ['scan', 'success'],
    ])
    expect(all[0].summary).toBe('archived count: 4')
    expect(all[1].error).toBe('server: 503')
    const failed = (await s.as('admin', 'GET', '/api/admin/scan-log?status=failed')).body
    expect(failed).toHaveLength(1)
    expect(failed[0].job).toBe('fetch-reddit-posts (live)')
  })

  test('the application log keeps the last lines whatever LOG_LEVEL prints, with a level filter and ?after for the live tail', async () => {
    const s = await setup()
    setLogLevel('silent')
    const marker = `marker-${Math.random()}`
    log.info(`${marker} info`)
    log.warn(`${marker} warn`, { code: 42 })
    log.debug(`${marker} debug`) // below info and LOG_LEVEL: not kept
    const all = (await s.as('admin', 'GET', '/api/admin/logs/app')).body
    const mine = all.lines.filter((l: any) => l.text.startsWith(marker))
    expect(mine.map((l: any) => [l.level, l.text])).toEqual([
      ['info', `${marker} info`],
      ['warn', `${marker} warn code=42`],
    ])
    const warnOnly = (await s.as('admin', 'GET', '/api/admin/logs/app?level=warn')).body
    expect(warnOnly.lines.every((l: any) => l.level === 'warn' || l.level === 'error')).toBe(true)
    const after = (await s.as('admin', 'GET', `/api/admin/logs/app?after=${all.lastSeq}`)).body
    expect(after.lines.filter((l: any) => l.text.startsWith(marker))).toEqual([])
    log.error(`${marker} error`)
    const tail = (await s.as('admin', 'GET', `/api/admin/logs/app?after=${all.lastSeq}`)).body
    expect(tail.lines.map((l: any) => l.text)).toContain(`${marker} error`)
    for (let i = 0; i < 600; i++) log.info(`${marker} flood ${i}`)
    const full = (await s.as('admin', 'GET', '/api/admin/logs/app')).body
    expect(full.lines).toHaveLength(500)
    expect(full.lines.at(-1).text).toBe(`${marker} flood 599`)
  })
})

describe('runtime scan settings', () => {
  test('stored in system_settings and applied to the rate budget at once; invalid input refused; reset returns to the environment', async () => {
    const s = await setup()
    const budget = s.deps.source.budget!
    const view = (await s.as('admin', 'GET', '/api/admin/scan-settings')).body
    expect(view).toMatchObject({
      intervalSeconds: null,
      maxRequestsPerMinute: 10,
      source: 'environment',
      mode: 'atom',
      modeCapPerMinute: 10,
      minIntervalSeconds: 7.5,
    })
    expect(budget.recommendedIntervalMs()).toBe(7500)

    const saved = await s.as('admin', 'PUT', '/api/admin/scan-settings', { intervalSeconds: 20, maxRequestsPerMinute: 6 })
    expect(saved.body).toMatchObject({ intervalSeconds: 20, maxRequestsPerMinute: 6, source: 'stored', minIntervalSeconds: 12.5 })
    expect(budget.recommendedIntervalMs()).toBe(20_000)
    expect(budget.capPerMinute).toBe(6)
    expect(JSON.parse((s.deps.sqlite.query("SELECT value FROM system_settings WHERE name = 'scan_settings'").get() as any).value)).toEqual({
      active: true,
      intervalSeconds: 20,
      maxRequestsPerMinute: 6,
    })

    const tooMany = await s.as('admin', 'PUT', '/api/admin/scan-settings', { intervalSeconds: null, maxRequestsPerMinute: 50 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.message).toBe('Max Reddit requests per minute must be a whole number from 1 to 10 (atom mode allows 10).')
    const tooFast = await s.as('admin', 'PUT', '/api/admin/scan-settings', { intervalSeconds: 5, maxRequestsPerMinute: 10 })
    expect(tooFast.status).toBe(400)
    expect(tooFast.body.error.message).toBe('Scan interval must be between 7.5 and 3600 seconds at 10 requests per minute, or adaptive.')
    expect(budget.capPerMinute).toBe(6) // unchanged by refused input

    // A restarted server (a fresh source) picks the stored settings up.
    const fresh = s.client()
    await applyStoredScanSettings({ db: s.deps.db, source: fresh })
    expect(fresh.budget.capPerMinute).toBe(6)
    expect(fresh.budget.recommendedIntervalMs()).toBe(20_000)

    const reset = await s.as('admin', 'DELETE', '/api/admin/scan-settings')
    expect(reset.body).toMatchObject({ intervalSeconds: null, maxRequestsPerMinute: 10, source: 'environment' })
    expect(budget.recommendedIntervalMs()).toBe(7500)
    expect(s.audits().map((a) => [a.action, a.result])).toEqual([
      ['scanner.settings', 'ok'],
      ['scanner.settings', 'failed'],
      ['scanner.settings', 'failed'],
      ['scanner.settings_reset', 'ok'],
    ])
  })
})
