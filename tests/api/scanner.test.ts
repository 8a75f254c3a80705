// From a post on (fake) Reddit to a stored match and bus events, through runScan.
import { afterEach, describe, expect, test } from 'bun:test'
import { setSetting } from '../../src/settings/service'
import type { AccessState } from '../../src/access/rules'
import type { BusEventName, BusEvents } from '../../src/contract/events'
import { runScan } from '../../src/scanner/scan'
import { addTerm } from '../../src/terms/service'
import { startFakeReddit, type FakeReddit, fakeRedditClient } from '../fakes/reddit'
import { createUserWithSession, makeDeps, testClock, type TestDeps } from '../helpers'

const SUBS = ['GunAccessoriesForSale', 'gundeals']
const FULL: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }

let fake: FakeReddit | null = null
let deps: TestDeps | null = null
afterEach(async () => {
  await fake?.stop()
  deps?.close()
  fake = null
  deps = null
})

async function setup(opts: { timeoutMs?: number } = {}) {
  const clock = testClock(1_763_640_000_000)
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  deps = makeDeps({}, clock)
  const client = fakeRedditClient(fake, { clock, subreddits: SUBS, timeoutMs: opts.timeoutMs ?? 2000 })
  const events: { name: BusEventName; data: any }[] = []
  for (const name of ['post.new', 'match.new', 'unread', 'scan.metric', 'scan.next'] as BusEventName[])
    deps.bus.on(name, (data: BusEvents[typeof name]) => void events.push({ name, data }))
  const user = await createUserWithSession(deps, { role: 'product+gd' })
  const d = deps
  return {
    fake,
    deps: d,
    client,
    clock,
    events,
    user,
    term: (category: 'wts' | 'wtb' | 'gd', text: string) => addTerm(d, user.userId, FULL, category, text),
    scan: () => runScan(d, client),
    count: (sql: string) => (d.sqlite.query(sql).get() as { n: number }).n,
  }
}

describe('scanning the forums', () => {
  test('a new post matching a saved term becomes one stored match, announced on the bus', async () => {
    const s = await setup()
    await s.term('wts', 'rmr')
    s.clock.advance(2000)
    s.fake.publish({ title: '[WTS] Trijicon RMR Type 2 RM06 - $400', subreddit: 'GunAccessoriesForSale' })
    s.fake.publish({ title: '[WTB] Aimpoint T2', subreddit: 'GunAccessoriesForSale' })
    s.fake.publish({ title: '[Optic] Holosun 507C - $279', subreddit: 'gundeals', url: 'https://shop.example.com/507c' })
    const o = await s.scan()
    expect(o).toMatchObject({ status: 'success', postsFetched: 3, postsNew: 3, matchesCreated: 1 })
    const m = s.deps.sqlite.query('SELECT * FROM matches').all() as any[]
    expect(m).toHaveLength(1)
    expect(m[0]).toMatchObject({ user_id: s.user.userId, category: 'wts', is_new: 1, source: 'live', post_title: '[WTS] Trijicon RMR Type 2 RM06 - $400' })
    expect(JSON.parse(m[0].matched_terms)).toEqual(['rmr'])
    expect(s.count('SELECT count(*) AS n FROM match_terms')).toBe(1)
    const names = s.events.map((e) => e.name)
    expect(names.filter((n) => n === 'post.new')).toHaveLength(3)
    const alert = s.events.find((e) => e.name === 'match.new')!.data
    expect(alert).toMatchObject({
      userId: s.user.userId,
      notify: true,
      match: { title: '[WTS] Trijicon RMR Type 2 RM06 - $400', matchedTerms: ['rmr'], isNew: true },
    })
    expect(s.events.find((e) => e.name === 'unread')!.data).toEqual({ userId: s.user.userId, counts: { wts: 1, wtb: 0, gd: 0 } })
    expect(names).toContain('scan.metric')
    expect(names).toContain('scan.next')
    const posts = s.deps.sqlite.query('SELECT post_type, forum, link_url FROM posts ORDER BY id').all()
    expect(posts).toEqual([
      { post_type: 'wts', forum: 'product', link_url: null },
      { post_type: 'wtb', forum: 'product', link_url: null },
      { post_type: 'gd', forum: 'gd', link_url: 'https://shop.example.com/507c' },
    ])
    const log = s.deps.sqlite.query("SELECT job_name, status, details FROM maintenance_logs WHERE job_name = 'fetch-reddit-posts'").all() as any[]
    expect(log).toHaveLength(1)
    expect(log[0].status).toBe('success')
    expect(JSON.parse(log[0].details)).toMatchObject({ posts_new: 3, matches_created: 1 })
    expect(s.count("SELECT count(*) AS n FROM scan_metrics WHERE status = 'success'")).toBe(1)
    const next = s.deps.sqlite.query("SELECT value FROM metrics WHERE id = 'next_reddit_scrape'").get() as any
    expect(Date.parse(JSON.parse(next.value).at)).toBeGreaterThan(s.clock.now().getTime())
  })

  test('a re-served post is stored once and never matched twice', async () => {
    const s = await setup()
    await s.term('wts', 'aimpoint')
    s.clock.advance(2000)
    s.fake.publish({ title: '[WTS] Aimpoint T-2 - $640' })
    await s.scan()
    s.clock.advance(8000)
    s.fake.publish({ title: '[WTS] Aimpoint PRO - $360' })
    const second = await s.scan()
    expect(second.postsNew).toBe(1)
    // the listing is served again unchanged: nothing new
    s.clock.advance(8000)
    const third = await s.scan()
    expect(third).toMatchObject({ status: 'success', postsNew: 0, matchesCreated: 0 })
    expect(s.count('SELECT count(*) AS n FROM posts')).toBe(2)
    expect(s.count('SELECT count(*) AS n FROM matches')).toBe(2)
    expect(s.events.filter((e) => e.name === 'match.new')).toHaveLength(2)
  })

  test('150 posts published while the scanner was down are all ingested by the next scan', async () => {
    const s = await setup()
    await s.term('wts', 'widget')
    s.fake.publish({ title: '[WTS] before the downtime' })
    await s.scan()
    s.clock.advance(3600_000)
    for (let i = 0; i < 150; i++) {
      s.clock.advance(1000)
      s.fake.publish({ title: `[WTS] Widget number ${i} - $${100 + i}` })
    }
    const o = await s.scan()
    expect(o).toMatchObject({ status: 'success', scanType: 'catch-up', postsNew: 150, matchesCreated: 150, reachedKnown: true })
    expect(o.pages).toBeGreaterThanOrEqual(2)
    expect(s.count('SELECT count(*) AS n FROM posts')).toBe(151)
    const titles = (s.deps.sqlite.query("SELECT title FROM posts WHERE title LIKE '%Widget%'").all() as any[]).map((r) => r.title)
    expect(new Set(titles).size).toBe(150)
  })

  test('a 429 is a failed scan; no request is sent until the reset, then the scan recovers', async () => {
    const s = await setup()
    s.fake.publish({ title: '[WTS] first' })
    await s.scan()
    s.fake.setFault('429')
    s.clock.advance(8000)
    const failed = await s.scan()
    expect(failed.status).toBe('failed')
    expect(failed.error).toContain('rate_limited')
    const sent = s.fake.listingRequests().length
    s.clock.advance(5000)
    const waiting = await s.scan()
    expect(waiting.status).toBe('waiting')
    expect(s.fake.listingRequests().length).toBe(sent)
    expect(Date.parse(waiting.nextAt) - s.clock.now().getTime()).toBeGreaterThan(10_000) // waits for Reddit's reset
    s.fake.publish({ title: '[WTS] during the block' })
    s.clock.set(Date.parse(waiting.nextAt))
    const ok = await s.scan()
    expect(ok).toMatchObject({ status: 'success', postsNew: 1 })
    expect(s.count("SELECT count(*) AS n FROM maintenance_logs WHERE status = 'failed'")).toBe(1)
  })

  for (const fault of ['500', '503', 'timeout', 'malformed'] as const) {
    test(`a ${fault} answer is logged as a failed scan and the next scan recovers what was missed`, async () => {
      // the client gives up after 1 s, the hung answer takes 1.5 s: room for a loaded machine's normal answers
      const s = await setup({ timeoutMs: 1000 })
      s.fake.setTimeoutDelay(1500)
      await s.term('gd', 'holosun')
      s.clock.advance(2000)
      s.fake.publish({ title: '[WTS] first', subreddit: 'GunAccessoriesForSale' })
      await s.scan()
      s.clock.advance(2000)
      s.fake.publish({ title: '[Optic] Holosun 508T - $299', subreddit: 'gundeals', url: 'https://shop.example.com/508t' })
      s.fake.setFault(fault)
      s.clock.advance(8000)
      const failed = await s.scan()
      expect(failed.status).toBe('failed')
      const row = s.deps.sqlite.query("SELECT status, details FROM maintenance_logs WHERE job_name = 'fetch-reddit-posts' ORDER BY id DESC").get() as any
      expect(row.status).toBe('failed')
      expect(JSON.parse(row.details).error).toContain(fault === '500' || fault === '503' ? 'server' : fault)
      expect(s.count("SELECT count(*) AS n FROM scan_metrics WHERE status = 'failed'")).toBe(1)
      s.clock.set(Date.parse(failed.nextAt))
      const ok = await s.scan()
      expect(ok).toMatchObject({ status: 'success', postsNew: 1, matchesCreated: 1 })
    })
  }

  test("a scan loop paced by each scan's nextAt stays within 10 requests per minute on the public API", async () => {
    const s = await setup()
    const start = s.clock.now().getTime()
    while (s.clock.now().getTime() - start < 5 * 60_000) {
      if (Math.random() < 0.5) s.fake.publish({ title: `[WTS] item ${Math.random()}` })
      const o = await s.scan()
      s.clock.set(Date.parse(o.nextAt))
    }
    const times = s.fake.listingRequests().map((r) => r.at)
    expect(times.length).toBeGreaterThan(30)
    for (const t of times) expect(times.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(10)
  })

  test('emergency pause stops scanning and matching; switching it off resumes', async () => {
    const s = await setup()
    await s.term('wts', 'rmr')
    s.clock.advance(2000)
    await setSetting(s.deps, 'is_emergency_paused', true)
    s.fake.publish({ title: '[WTS] RMR - $350' })
    const paused = await s.scan()
    expect(paused.status).toBe('paused')
    expect(s.fake.listingRequests()).toHaveLength(0)
    expect(s.count('SELECT count(*) AS n FROM posts')).toBe(0)
    await setSetting(s.deps, 'is_emergency_paused', false)
    expect((await s.scan()).matchesCreated).toBe(1)
  })

  test('a post created before the term was saved is stored as read and not notified', async () => {
    const s = await setup()
    s.fake.publish({ title: '[WTS] Old RMR listing - $300', created_utc: Math.floor(s.clock.now().getTime() / 1000) - 600 })
    await s.term('wts', 'rmr')
    const o = await s.scan()
    expect(o.matchesCreated).toBe(1)
    expect(s.deps.sqlite.query('SELECT is_new FROM matches').get()).toEqual({ is_new: 0 })
    expect(s.events.find((e) => e.name === 'match.new')!.data.notify).toBe(false)
  })

  test('users whose plan does not include the forum get no match', async () => {
    const s = await setup()
    const gdOnly = await createUserWithSession(s.deps, { role: 'gd' })
    await s.term('wts', 'rmr')
    // a term saved while the plan allowed it, then the plan changed
    await addTerm(s.deps, gdOnly.userId, FULL, 'wts', 'rmr')
    s.clock.advance(2000)
    s.fake.publish({ title: '[WTS] RMR - $350' })
    await s.scan()
    const users = (s.deps.sqlite.query('SELECT user_id FROM matches').all() as any[]).map((r) => r.user_id)
    expect(users).toEqual([s.user.userId])
  })

  test('terms or users deleted behind the terms service never break a scan', async () => {
    const s = await setup()
    const other = await createUserWithSession(s.deps)
    await s.term('wts', 'rmr')
    await addTerm(s.deps, other.userId, FULL, 'wts', 'rmr')
    s.deps.sqlite.query('DELETE FROM search_terms WHERE user_id = ?').run(s.user.userId)
    s.deps.sqlite.query('DELETE FROM users WHERE id = ?').run(other.userId)
    s.clock.advance(2000)
    s.fake.publish({ title: '[WTS] RMR - $350' })
    const o = await s.scan()
    expect(o).toMatchObject({ status: 'success', postsNew: 1, matchesCreated: 0 })
  })

  test('a term saved by another process (same database) is picked up by the next scan', async () => {
    const s = await setup()
    const { Database } = await import('bun:sqlite')
    const second = new Database(s.deps.config.dbPath)
    second.query("INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, 'wts', 'aimpoint', ?)").run(s.user.userId, s.clock.now().getTime())
    second.close()
    s.clock.advance(2000)
    s.fake.publish({ title: '[WTS] Aimpoint T-2 - $640' })
    expect((await s.scan()).matchesCreated).toBe(1)
  })
})
