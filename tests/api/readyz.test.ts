// GET /readyz: 200 with every check when the database takes a write, the migrations are applied,
// the term index is loaded and a scan succeeded within 10 minutes (or the pause is on); 503 with
// the failing checks otherwise. /healthz keeps answering as before.
import { afterEach, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { BLOCK_PAGE, RedditClient } from '../../src/forums/reddit-client'
import { JOB, logJob } from '../../src/jobs/log'
import { setSetting } from '../../src/settings/service'
import { runScan } from '../../src/scanner/scan'
import { fakeOauthClient, startFakeReddit } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, testClock, wire, type TestDeps } from '../helpers'

let deps: TestDeps
afterEach(() => deps?.close())

const setup = () => {
  const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
  deps = makeDeps({}, clock)
  return { clock, app: makeApp(deps) }
}
const ready = async (app: { handle(r: Request): Promise<Response> }) => call(app, 'GET', '/readyz')

describe('GET /readyz', () => {
  test('a fresh server is ready: every check passes and is listed, without credentials or secrets', async () => {
    const { app } = setup()
    const r = await ready(app)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ ready: true, failing: [] })
    expect(Object.keys(r.body.checks)).toEqual(['database', 'migrations', 'termIndex', 'scan', 'forums'])
    expect(r.body.checks.migrations.detail).toMatch(/^(\d+) of \1 migrations applied$/)
    expect(r.body.checks.scan.detail).toBe('no scan yet; started less than 10 min ago')
    expect(r.text).not.toContain(deps.config.dataDir)
    // The probe write was rolled back.
    expect(deps.sqlite.query("SELECT * FROM metrics WHERE id = 'readyz_probe'").get()).toBeNull()
  })

  test('503 when the last successful scan is older than 10 minutes; ready again after a scan, and while paused', async () => {
    const { app, clock } = setup()
    await logJob(deps, JOB.scan, 'success', 10, {}, clock.now().getTime())
    clock.advance(10 * 60_000)
    expect((await ready(app)).status).toBe(200)
    clock.advance(60_000)
    const stale = await ready(app)
    expect(stale.status).toBe(503)
    expect(stale.body.failing).toEqual(['scan'])
    expect(stale.body.checks.scan).toEqual({ ok: false, detail: 'last successful scan 11 min ago (limit 10 min)' })
    await logJob(deps, JOB.scan, 'failed', 10, {}, clock.now().getTime())
    expect((await ready(app)).status).toBe(503) // a failed scan is not a successful one
    await setSetting(deps, 'is_emergency_paused', true)
    const paused = await ready(app)
    expect(paused.status).toBe(200)
    expect(paused.body.checks.scan.detail).toContain('emergency pause')
    await setSetting(deps, 'is_emergency_paused', false)
    await logJob(deps, JOB.scan, 'success', 10, {}, clock.now().getTime())
    expect((await ready(app)).status).toBe(200)
  })

  test("a stale scan names the forum source's trouble: the block page and its fix", async () => {
    const { app, clock } = setup()
    await logJob(deps, JOB.scan, 'success', 10, {}, clock.now().getTime())
    clock.advance(11 * 60_000)
    ;(deps.source as RedditClient).health.failed(clock.now().getTime(), 'blocked', BLOCK_PAGE)
    const r = await ready(app)
    expect(r.status).toBe(503)
    expect(r.body.checks.scan.detail).toBe(`last successful scan 11 min ago (limit 10 min); the forum source is blocked: ${BLOCK_PAGE}`)
    expect((await call(app, 'GET', '/healthz')).body.source).toBe(`blocked: ${BLOCK_PAGE}`)
  })

  test('with a key, a subreddit Reddit banned drops out of the multireddit without a word: /readyz and Admin → Logs flag it against its rhythm', async () => {
    const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    const fake = await startFakeReddit({ now: () => clock.now().getTime() })
    try {
      deps = makeDeps({}, clock, { source: fakeOauthClient(fake, { clock }) })
      const app = makeApp(deps)
      const admin = await createUserWithSession(deps, { role: 'admin' })
      for (let i = 0; i < 20; i++) {
        fake.publish({ subreddit: 'GunAccessoriesForSale', title: `[WTS] Aimpoint T2 #${i} - $650` })
        fake.publish({ subreddit: 'gundeals', title: `[Optic] Holosun 507C #${i} - $250` })
        clock.advance(5 * 60_000)
        if (i % 5 === 4) expect((await runScan(deps)).status).toBe('success')
      }
      fake.ban('GunAccessoriesForSale') // with a key Reddit leaves it out of /r/A+B/new: the scans stay green
      for (let i = 0; i < 16; i++) {
        fake.publish({ subreddit: 'gundeals', title: `[Optic] Holosun 508T #${i} - $300` })
        clock.advance(30 * 60_000)
        expect((await runScan(deps)).status).toBe('success')
      }
      const r = await ready(app)
      expect(r.status).toBe(200) // the others are read: ready, with a warning that names the quiet forum
      expect(r.body.checks.forums).toEqual({
        ok: true,
        warn: true,
        detail:
          'r/GunAccessoriesForSale: last post 8 h 5 min ago (no post for 8 h 5 min, usually one every 5 min, while the other forums get posts: banned, private or dropped from the request?); r/gundeals: last post 30 min ago',
      })
      const status = (await call(app, 'GET', '/api/admin/scanner', { cookie: admin.cookie })).body
      expect(status.health.state).toBe('ok')
      expect(status.lastPostAt).toBe(new Date(clock.now().getTime() - 30 * 60_000).toISOString())
      expect(status.lastPostPerForum).toEqual([
        expect.objectContaining({ subreddit: 'GunAccessoriesForSale', usualGapMs: 5 * 60_000, flag: expect.stringMatching(/^no post for 8 h 5 min, /) }),
        expect.objectContaining({ subreddit: 'gundeals', flag: null }),
      ])
    } finally {
      await fake.stop()
    }
  })

  test('503 when the term index is not loaded', async () => {
    setup()
    wire(deps)
    const r = await ready(createApp({ ...deps, matcher: null as never }))
    expect(r.status).toBe(503)
    expect(r.body.failing).toEqual(['termIndex'])
  })

  test('503 when a migration is missing or the database refuses writes; /healthz stays as it was', async () => {
    const { app } = setup()
    deps.sqlite.run('DELETE FROM __migrations WHERE rowid = (SELECT max(rowid) FROM __migrations)')
    let r = await ready(app)
    expect(r.status).toBe(503)
    expect(r.body.failing).toEqual(['migrations'])
    deps.sqlite.run('PRAGMA query_only = ON')
    r = await ready(app)
    expect(r.body.failing).toEqual(['database', 'migrations'])
    expect(r.body.checks.database).toEqual({ ok: false, detail: 'the database refused a write' })
    expect((await call(app, 'GET', '/healthz')).body).toMatchObject({ db: 'ok' })
    deps.sqlite.run('PRAGMA query_only = OFF')
  })
})
