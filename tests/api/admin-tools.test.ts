// /api/admin Tools routes (issue 14 item 12): scan metrics, scraper trigger, batch matching,
// maintenance logs, post-type backfill and archive — who may call them, what they do, audit rows.
import { afterEach, describe, expect, test } from 'bun:test'
import { BATCH_DENIED, PAUSED_MESSAGE, SCRAPER_DENIED } from '../../src/admin/shared/texts'
import { BLOCK_PAGE } from '../../src/forums/reddit-client'
import { runScan } from '../../src/scanner/scan'
import { addTerm } from '../../src/terms/service'
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

const H = 3_600_000

async function setup() {
  const clock = testClock(Date.UTC(2026, 0, 15, 12, 0))
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  const source = fakeRedditClient(fake, { clock })
  deps = makeDeps({}, clock, { source })
  const app = makeApp(deps)
  const admin = await createUserWithSession(deps, { role: 'admin', email: 'root@example.com' })
  const member = await createUserWithSession(deps, { role: 'product+gd' })
  const d = deps
  return {
    deps: d,
    app,
    admin,
    member,
    clock,
    fake,
    as: (who: 'admin' | 'member', method: string, path: string, json?: unknown) =>
      call(app, method, path, { json, cookie: (who === 'admin' ? admin : member).cookie }),
    audits: () =>
      d.sqlite.query('SELECT actor, action, result, details FROM audit_log ORDER BY id').all() as {
        actor: string
        action: string
        result: string
        details: string
      }[],
  }
}

describe('who may call the tools routes', () => {
  const routes: [string, string, unknown, number, string][] = [
    ['GET', '/api/admin/scan-metrics', undefined, 200, 'This page is restricted to admin users only.'],
    ['POST', '/api/admin/scraper/trigger', {}, 202, SCRAPER_DENIED],
    ['POST', '/api/admin/match-batch', {}, 200, BATCH_DENIED],
    ['GET', '/api/admin/maintenance-logs', undefined, 200, 'This page is restricted to admin users only.'],
    ['POST', '/api/admin/backfill-post-types', {}, 200, 'This page is restricted to admin users only.'],
    ['POST', '/api/admin/archive-posts', { olderThanHours: 24 }, 200, 'This page is restricted to admin users only.'],
    ['GET', '/api/admin/archive-posts?olderThanHours=24', undefined, 200, 'This page is restricted to admin users only.'],
  ]
  for (const [method, path, json, ok, denied] of routes)
    test(`${method} ${path}: signed out 401, subscriber 403 '${denied.slice(0, 40)}…', admin ${ok}`, async () => {
      const s = await setup()
      expect((await call(s.app, method, path, { json })).status).toBe(401)
      const r = await s.as('member', method, path, json)
      expect(r.status).toBe(403)
      expect(r.body.error.message).toBe(denied)
      expect((await s.as('admin', method, path, json)).status).toBe(ok)
      // refused calls write nothing; the admin's state-changing call writes one audit row
      expect(s.audits().length).toBe(method === 'GET' ? 0 : 1)
    })
})

describe('tools', () => {
  test('scan metrics: the latest 100 scans, newest first, and the last 24 h in figures', async () => {
    const s = await setup()
    const now = s.clock.now().getTime()
    const ins = s.deps.sqlite.query(
      'INSERT INTO scan_metrics (created_at, scan_type, status, posts_new, matches_found, users_processed, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    for (let i = 0; i < 110; i++) ins.run(now - i * 60_000, 'live', i % 10 === 0 ? 'failed' : 'success', 1, 2, 1, 100 + i)
    ins.run(now - 25 * H, 'live', 'success', 50, 50, 50, 10) // outside 24 h
    const r = (await s.as('admin', 'GET', '/api/admin/scan-metrics')).body
    expect(r.rows).toHaveLength(100)
    expect(r.rows[0]).toMatchObject({
      createdAt: new Date(now).toISOString(),
      scanType: 'live',
      status: 'failed',
      postsNew: 1,
      matchesFound: 2,
      durationMs: 100,
    })
    expect(r.stats24h).toEqual({ scans: 110, successful: 99, failed: 11, postsNew: 110, matchesFound: 220, usersProcessed: 110, avgDurationMs: 155 })
  })

  test('the scraper trigger schedules a manual scan (202), audited; refused while paused', async () => {
    const s = await setup()
    s.fake.publish({ title: '[WTS] Aimpoint T2 - $650', subreddit: 'GunAccessoriesForSale' })
    const r = await s.as('admin', 'POST', '/api/admin/scraper/trigger', {})
    expect(r.status).toBe(202)
    expect(r.body).toEqual({ scheduled: true, sourceProblem: null })
    for (let i = 0; i < 200 && !s.deps.sqlite.query("SELECT 1 FROM scan_metrics WHERE scan_type = 'manual'").get(); i++) await Bun.sleep(10)
    expect(s.deps.sqlite.query('SELECT scan_type, status, posts_new FROM scan_metrics').all()).toEqual([
      { scan_type: 'manual', status: 'success', posts_new: 1 },
    ])
    expect(s.audits()).toEqual([{ actor: 'root@example.com', action: 'scanner.trigger', result: 'ok', details: '{}' }])

    s.deps.sqlite.query(`INSERT INTO system_settings (name, value) VALUES ('is_emergency_paused', '{"active":true}')`).run()
    const paused = await s.as('admin', 'POST', '/api/admin/scraper/trigger', {})
    expect(paused.status).toBe(409)
    expect(paused.body.error.message).toBe(PAUSED_MESSAGE)
    expect(s.audits()[1]).toMatchObject({ action: 'scanner.trigger', result: 'failed' })
  })

  test('the scraper trigger on a source Reddit blocks names the block and its fix', async () => {
    const s = await setup()
    s.fake.block()
    await runScan(s.deps)
    const r = await s.as('admin', 'POST', '/api/admin/scraper/trigger', {})
    expect(r.status).toBe(202)
    expect(r.body).toEqual({ scheduled: true, sourceProblem: `The Reddit source is blocked: ${BLOCK_PAGE}` })
  })

  test('batch matching answers the spec shape and creates the missing matches (never alerted)', async () => {
    const s = await setup()
    s.fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $400', subreddit: 'GunAccessoriesForSale' })
    await runScan(s.deps)
    await addTerm(s.deps, s.member.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
    s.deps.sqlite.query('DELETE FROM matches').run() // as if the term predated a restore
    const notify: boolean[] = []
    s.deps.bus.on('match.new', (e) => void notify.push(e.notify))
    const r = await s.as('admin', 'POST', '/api/admin/match-batch', {})
    expect(r.status).toBe(200)
    expect(notify).toEqual([false])
    expect(Object.keys(r.body).sort()).toEqual(['execution_time_seconds', 'matches_created', 'recent_posts_count', 'total_search_terms'])
    expect(r.body).toMatchObject({ total_search_terms: 1, recent_posts_count: 1, matches_created: 1 })
    expect(s.deps.sqlite.query('SELECT source FROM matches').all()).toEqual([{ source: 'batch' }])
    const a = s.audits()
    expect(a[0]!.action).toBe('matching.batch')
    expect(JSON.parse(a[0]!.details)).toMatchObject({ matches_created: 1, recent_posts_count: 1 })
  })

  test('maintenance logs: the 10 latest, newest first', async () => {
    const s = await setup()
    const now = s.clock.now().getTime()
    for (let i = 0; i < 12; i++)
      s.deps.sqlite
        .query("INSERT INTO maintenance_logs (job_name, status, created_at, details) VALUES ('archive-posts', 'success', ?, ?)")
        .run(now - i * 1000, `{"archived_count":${i}}`)
    const r = (await s.as('admin', 'GET', '/api/admin/maintenance-logs')).body
    expect(r).toHaveLength(10)
    expect(r[0]).toMatchObject({ jobName: 'archive-posts', status: 'success', executedAt: new Date(now).toISOString(), details: { archived_count: 0 } })
    expect(r[9].details).toEqual({ archived_count: 9 })
  })

  test('backfill classifies unclassified posts; archive deletes posts older than the chosen age', async () => {
    const s = await setup()
    const now = s.clock.now().getTime()
    const post = (id: string, title: string, sub: string, at: number, type: string | null) =>
      s.deps.sqlite
        .query('INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at, post_type) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(id, sub === 'gundeals' ? 'gd' : 'product', sub, title, 'https://reddit.example/' + id, at, type)
    post('a', '[WTS] Holosun 507C', 'GunAccessoriesForSale', now - H, null)
    post('b', '[WTB] Aimpoint T2', 'GunAccessoriesForSale', now - 30 * H, 'wtb')
    post('c', '[Optic] Deal', 'gundeals', now - 200 * H, 'gd')
    const b = await s.as('admin', 'POST', '/api/admin/backfill-post-types', {})
    expect(b.body).toEqual({ count: 1, examined: 1 })
    expect(s.deps.sqlite.query("SELECT post_type FROM posts WHERE reddit_id = 'a'").get()).toEqual({ post_type: 'wts' })
    // what the confirmation says first: how many posts would go (nothing is deleted or audited)
    expect((await s.as('admin', 'GET', '/api/admin/archive-posts?olderThanHours=168')).body).toEqual({ count: 1, olderThanHours: 168 })
    expect((await s.as('admin', 'GET', '/api/admin/archive-posts')).body).toEqual({ count: 2, olderThanHours: 24 })
    expect((await s.as('admin', 'GET', '/api/admin/archive-posts?olderThanHours=0')).status).toBe(400)
    expect(s.deps.sqlite.query('SELECT count(*) AS n FROM posts').get()).toEqual({ n: 3 })
    const week = await s.as('admin', 'POST', '/api/admin/archive-posts', { olderThanHours: 168 })
    expect(week.body).toEqual({ count: 1 })
    const day = await s.as('admin', 'POST', '/api/admin/archive-posts', {})
    expect(day.body).toEqual({ count: 1 }) // default 24 h (spec §4)
    expect(s.deps.sqlite.query('SELECT reddit_id FROM posts').all()).toEqual([{ reddit_id: 'a' }])
    expect(s.audits().map((a) => [a.action, JSON.parse(a.details)])).toEqual([
      ['posts.backfill_types', { count: 1, examined: 1 }],
      ['posts.archive', { older_than_hours: 168, count: 1 }],
      ['posts.archive', { older_than_hours: 24, count: 1 }],
    ])
    expect((await s.as('admin', 'POST', '/api/admin/archive-posts', { olderThanHours: 0 })).status).toBe(400)
  })
})
