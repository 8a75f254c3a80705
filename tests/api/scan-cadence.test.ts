// When the scan job runs: the real job of jobList (src/services.ts) on its own timer
// (src/jobs/schedule.ts), the real RedditClient and the fake Reddit, all on one test clock whose
// timers fire only when the test moves time on, so every time below is exact.
import { afterEach, describe, expect, spyOn, test } from 'bun:test'
import type { AccessState } from '../../src/access/rules'
import { JOB } from '../../src/jobs/log'
import { startJobs, type RunningJobs } from '../../src/jobs/schedule'
import { log } from '../../src/lib/log'
import { runScan } from '../../src/scanner/scan'
import { jobList } from '../../src/services'
import { addTerm } from '../../src/terms/service'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { createUserWithSession, fakeTimers, makeDeps, startTestServer, testClock, type TestDeps } from '../helpers'

const T0 = 1_763_640_000_000
const FULL: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }

let fake: FakeReddit | null = null
let deps: TestDeps | null = null
let jobs: RunningJobs | null = null
afterEach(async () => {
  await jobs?.stop()
  await fake?.stop()
  deps?.close()
  fake = deps = jobs = null
})

/** The scan job alone, started on a fake clock against the fake Reddit (public JSON, or OAuth). */
async function startScanJob(mode: 'public' | 'oauth', env: Record<string, string> = {}, lateMs = 0) {
  const t = fakeTimers(testClock(T0), { lateMs })
  fake = await startFakeReddit({ now: t.now })
  const reddit: Record<string, string> =
    mode === 'oauth'
      ? { REDDIT_BASE_URL: fake.oauthUrl, REDDIT_AUTH_URL: fake.authUrl, REDDIT_CLIENT_ID: fake.clientId, REDDIT_CLIENT_SECRET: fake.clientSecret }
      : { REDDIT_BASE_URL: fake.url }
  deps = makeDeps({ ...reddit, ...env }, t.clock)
  const d = deps
  const f = fake
  return {
    t,
    deps: d,
    fake: f,
    start: () =>
      (jobs = startJobs(
        d,
        jobList(d).filter((j) => j.name === JOB.scan),
        t,
      )),
    /** listing requests, ms after T0 */
    requests: () => f.listingRequests().map((r) => r.at - T0),
  }
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!)
const maxInAnyMinute = (times: number[]) => Math.max(...times.map((s) => times.filter((t) => t >= s && t < s + 60_000).length))

describe('the scan cadence', () => {
  test('OAuth with SCAN_INTERVAL_SECONDS=2 scans every 2 s exactly (the cron tick made it 3 s)', async () => {
    const s = await startScanJob('oauth', { SCAN_INTERVAL_SECONDS: '2' })
    s.start()
    await s.t.advanceTo(T0 + 60_000)
    expect(s.requests()).toHaveLength(31)
    expect(new Set(gaps(s.requests()))).toEqual(new Set([2000]))
  })

  test('timers that fire late do not add up: scans that start 40 ms late keep the 2 s grid', async () => {
    const s = await startScanJob('oauth', { SCAN_INTERVAL_SECONDS: '2' }, 40)
    s.start()
    await s.t.advanceTo(T0 + 20_000)
    expect(s.requests().slice(0, 4)).toEqual([40, 2080, 4080, 6080])
    expect(new Set(gaps(s.requests().slice(1)))).toEqual(new Set([2000]))
  })

  test('public JSON with SCAN_INTERVAL_SECONDS=2 is raised to 7.5 s: evenly spaced, never 10 in a burst then a stall', async () => {
    const s = await startScanJob('public', { SCAN_INTERVAL_SECONDS: '2' })
    s.start()
    await s.t.advanceTo(T0 + 5 * 60_000)
    const times = s.requests()
    expect(times).toHaveLength(41)
    expect(new Set(gaps(times))).toEqual(new Set([7500]))
    expect(maxInAnyMinute(times)).toBe(8) // the cap is 10; 20 % stays unused
  })

  test('a post published at any moment is stored and matched within one interval (public JSON, adaptive)', async () => {
    const s = await startScanJob('public')
    const user = await createUserWithSession(s.deps, { role: 'product+gd' })
    await addTerm(s.deps, user.userId, FULL, 'wts', 'latency probe')
    const matchedAt = new Map<string, number>()
    s.deps.bus.on('match.new', ({ match }) => void matchedAt.set(match.title, s.t.now()))
    s.start()
    let seed = 11
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const publishedAt = new Map<string, number>()
    for (let i = 0, at = T0 + 1000; i < 40; i++, at += Math.round(rnd() * 9000)) {
      await s.t.advanceTo(at)
      const title = `[WTS] latency probe ${i} - $100`
      s.fake.publish({ title })
      publishedAt.set(title, s.t.now())
    }
    await s.t.advanceTo(s.t.now() + 7500)
    const waits = [...publishedAt].map(([title, at]) => matchedAt.get(title)! - at)
    expect(waits).toHaveLength(40)
    expect(Math.max(...waits)).toBeLessThanOrEqual(7500)
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0)
  })

  test('a catch-up of three pages pushes the next scan three intervals out, so no minute exceeds the cap', async () => {
    const s = await startScanJob('public')
    s.fake.publish({ title: '[WTS] already there' })
    s.start()
    await s.t.advanceTo(T0 + 1000)
    s.fake.publishMany(250) // between two scans: three pages of up to 100
    await s.t.advanceTo(T0 + 60_000)
    const times = s.requests()
    expect(times.slice(0, 6)).toEqual([0, 7500, 7500, 7500, 30_000, 37_500])
    expect(maxInAnyMinute(times)).toBeLessThanOrEqual(10)
  })

  test("an admin's scan in between spends the job's next slot: the job waits for the one after, keeping the pace", async () => {
    const s = await startScanJob('public')
    s.start()
    await s.t.advanceTo(T0 + 3000)
    await runScan(s.deps, undefined, { manual: true })
    await s.t.advanceTo(T0 + 20_000)
    expect(s.requests()).toEqual([0, 3000, 15_000])
  })
})

describe('a SCAN_INTERVAL_SECONDS faster than the mode allows', () => {
  const intervalWarnings = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter((call) => String(call[0]).includes('SCAN_INTERVAL_SECONDS'))

  test('is raised with exactly one warning when the scan job starts: what was configured, what is used, and why', async () => {
    const warn = spyOn(log, 'warn')
    try {
      const s = await startScanJob('public', { SCAN_INTERVAL_SECONDS: '2' })
      s.start()
      await s.t.advanceTo(T0 + 2 * 60_000)
      const calls = intervalWarnings(warn)
      expect(calls).toHaveLength(1)
      const [msg, fields] = calls[0]!
      expect(msg).toBe('SCAN_INTERVAL_SECONDS is faster than atom mode allows: scanning every 7.5 s instead of 2 s')
      expect(fields).toMatchObject({ configured: '2 s', used: '7.5 s' })
      expect(String((fields as { why: string }).why)).toContain('10 requests/min')
    } finally {
      warn.mockRestore()
    }
  })

  test('an interval the mode allows (OAuth, 1 s) gives no warning', async () => {
    const warn = spyOn(log, 'warn')
    try {
      const s = await startScanJob('oauth', { SCAN_INTERVAL_SECONDS: '1' })
      s.start()
      await s.t.advanceTo(T0 + 10_000)
      expect(intervalWarnings(warn)).toHaveLength(0)
      expect(new Set(gaps(s.requests()))).toEqual(new Set([1000]))
    } finally {
      warn.mockRestore()
    }
  })

  test('a server started with it logs the warning once', async () => {
    fake = await startFakeReddit()
    const warn = spyOn(log, 'warn')
    try {
      const server = await startTestServer({ REDDIT_BASE_URL: fake.url, SCAN_INTERVAL_SECONDS: '3' }, { jobs: true })
      await server.stop()
      expect(intervalWarnings(warn).map((call) => call[0])).toEqual([
        'SCAN_INTERVAL_SECONDS is faster than atom mode allows: scanning every 7.5 s instead of 3 s',
      ])
    } finally {
      warn.mockRestore()
    }
  })
})
