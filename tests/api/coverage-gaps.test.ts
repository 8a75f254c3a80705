// Coverage told honestly (issue 24 §4): a poll whose oldest entry is newer than the newest stored post
// records a gap, shown on Admin → Logs and the Dashboard, counted in /metrics, and told by "Why didn't I
// get an alert?" for a post inside it. The fake Reddit pages only `listingDepth` posts back, so more posts
// than that between two polls make a gap.
import { afterEach, describe, expect, test } from 'bun:test'
import { runScan } from '../../src/scanner/scan'
import { startFakeReddit, fakeOauthClient, fakeRedditClient, type FakeReddit } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

const A = 'GunAccessoriesForSale' // busy
const B = 'gundeals' // quiet
const START = Date.UTC(2026, 5, 1, 10, 0)

let fake: FakeReddit | null = null
let deps: TestDeps | null = null
afterEach(async () => {
  await fake?.stop()
  deps?.close()
  fake = null
  deps = null
})

/** A feed that ignores `after` (answers every page with its newest entries). */
const ignoringAfter: typeof fetch = Object.assign((input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(String(input))
  url.searchParams.delete('after')
  return fetch(url, init)
}, fetch)

async function setup(opts: { listingDepth?: number; oauth?: boolean; fetch?: typeof fetch } = {}) {
  const clock = testClock(START)
  fake = await startFakeReddit({ now: () => clock.now().getTime(), listingDepth: opts.listingDepth })
  const f = fake
  const client = (opts.oauth ? fakeOauthClient : fakeRedditClient)(f, { clock, timeoutMs: 3000, fetch: opts.fetch })
  deps = await makeDeps({}, clock, { source: client })
  const d = deps
  const app = makeApp(d)
  const admin = await createUserWithSession(d, { role: 'admin' })
  const member = await createUserWithSession(d, { role: 'product+gd' })
  /** one post a second from now on */
  const publish = (n: number, subreddit = A) =>
    Array.from({ length: n }, () => {
      clock.advance(1000)
      return f.publish({ subreddit, title: `[WTS] Item ${Math.random().toString(36).slice(2, 8)} - $100` })
    })
  return {
    d,
    app,
    clock,
    fake: f,
    publish,
    scan: async () => {
      clock.advance(60_000) // past the rate budget's pacing
      return runScan(d, client)
    },
    get: (path: string, who: 'admin' | 'member' = 'admin') => call(app, 'GET', path, { cookie: (who === 'admin' ? admin : member).cookie }),
    rows: () => d.sqlite.query('SELECT source, forum, subreddits, from_at, to_at FROM source_gaps ORDER BY id').all(),
  }
}

describe('recording a gap', () => {
  test('busy A, quiet B in one multireddit: the window starts at the newest stored post of either, one row per forum', async () => {
    const s = await setup({ listingDepth: 30 })
    s.fake.publish({ subreddit: B, title: '[Optic] Holosun 507C - $279', created_utc: Math.floor((START - 3 * 3600_000) / 1000) })
    s.publish(5)
    const first = await s.scan()
    expect(first).toMatchObject({ status: 'success', postsNew: 6, gap: null }) // the very first poll: nothing to compare with
    const newest = s.fake.posts[0]!.created_utc * 1000

    const burst = s.publish(50) // 50 posts between two polls, the feed holds 30
    const o = await s.scan()
    const oldestRead = burst[20]!.created_utc * 1000
    expect(o).toMatchObject({ status: 'success', postsNew: 30, reachedKnown: false, gap: { fromAt: newest, toAt: oldestRead } })
    // not from B's post three hours ago: every poll since covered B too
    expect(s.rows()).toEqual([
      { source: 'reddit', forum: 'product', subreddits: A, from_at: newest, to_at: oldestRead },
      { source: 'reddit', forum: 'gd', subreddits: B, from_at: newest, to_at: oldestRead },
    ])
    const logged = s.d.sqlite.query("SELECT details FROM maintenance_logs WHERE job_name = 'fetch-reddit-posts' ORDER BY id DESC").get() as { details: string }
    expect(JSON.parse(logged.details).gap).toBe(`${new Date(newest).toISOString()} – ${new Date(oldestRead).toISOString()}`)

    // quiet B posts once among A's: the poll reaches a stored post, no gap (B's last post being old is not one)
    s.publish(2)
    s.publish(1, B)
    expect(await s.scan()).toMatchObject({ postsNew: 3, gap: null })
    expect(s.rows()).toHaveLength(2)
  })

  test('a catch-up that pages back to a stored post fills the window: nothing is recorded', async () => {
    const s = await setup()
    s.publish(3)
    await s.scan()
    s.publish(150) // more than one page of 100
    const o = await s.scan()
    expect(o).toMatchObject({ status: 'success', postsNew: 150, pages: 2, reachedKnown: true, gap: null })
    expect(s.rows()).toEqual([])
  })

  test('a feed that ignores `after`: the catch-up stops after the page that brought nothing new, and the window is reported', async () => {
    const s = await setup({ fetch: ignoringAfter })
    s.publish(3)
    await s.scan()
    const newest = s.fake.posts[0]!.created_utc * 1000
    const burst = s.publish(150)
    const o = await s.scan()
    const read = o.postsNew // one page: 100, 99 or 98 entries (the client rotates `limit`)
    expect(read).toBeGreaterThanOrEqual(98)
    expect(o).toMatchObject({ status: 'success', pages: 2, postsFetched: read, reachedKnown: false })
    expect(o.gap).toEqual({ fromAt: newest, toAt: burst[150 - read]!.created_utc * 1000 })
  })
})

describe('where the gap is told', () => {
  test('Admin → Logs (24 h / 7 d), the scanner panel, System Health, /metrics and the explainer (Atom: by the post id)', async () => {
    const s = await setup({ listingDepth: 30 })
    s.publish(5)
    await s.scan()
    const from = s.fake.posts[0]!.created_utc * 1000
    const burst = s.publish(50)
    await s.scan()
    const to = burst[20]!.created_utc * 1000

    const gaps = await s.get('/api/admin/source-gaps?window=7d')
    expect(gaps.status).toBe(200)
    expect(gaps.body).toMatchObject({ window: '7d', count: 1, seconds: (to - from) / 1000 })
    expect(gaps.body.gaps).toEqual([
      {
        source: 'reddit',
        forums: ['product', 'gd'],
        subreddits: [A, B],
        fromAt: new Date(from).toISOString(),
        toAt: new Date(to).toISOString(),
        seconds: (to - from) / 1000,
        foundAt: expect.any(String),
      },
    ])
    expect((await s.get('/api/admin/source-gaps', 'member')).status).toBe(403)
    s.clock.advance(25 * 3600_000)
    expect((await s.get('/api/admin/source-gaps')).body).toMatchObject({ window: '24h', count: 0, gaps: [] })
    expect((await s.get('/api/admin/source-gaps?window=7d')).body.count).toBe(1)
    s.clock.advance(-25 * 3600_000)

    const status = (await s.get('/api/admin/scanner')).body
    expect(status.gaps24h).toEqual({ count: 1, seconds: (to - from) / 1000 })
    expect(status.recheck).toBe(
      'Sold/removed re-checks come only from later polls of the feed (no Reddit key, so no /api/info): a post marked sold or pending in its title or text is seen only while it is still among the newest entries; a post that has left the feed keeps the state it had, and a removal is not seen (the feed drops removed posts).',
    )
    expect((await s.get('/api/admin/health')).body.coverageGaps).toEqual({ count: 1, seconds: (to - from) / 1000 })

    const metrics = (await s.get('/metrics')).text
    expect(metrics).toContain('dibs_source_gaps_total{source="reddit",forum="product"} 1')
    expect(metrics).toContain('dibs_source_gaps_total{source="reddit",forum="gd"} 1')
    expect(metrics).toContain(`dibs_source_gap_seconds_total{source="reddit",forum="product"} ${(to - from) / 1000}`)

    // a post the feed never showed: without a key Dibs cannot read it, but its id places it inside the gap
    const missed = burst[3]!
    const r = await s.get(`/api/explain?url=${missed.id}`, 'member')
    expect(r.status).toBe(503)
    const at = (ms: number) => new Date(ms).toISOString().slice(11, 19)
    // a bare id names no subreddit: the window was open for both forums
    expect(r.body.error.message).toStartWith(`Dibs was not reading r/${A} and r/${B} between Jun 1, ${at(from)} (UTC) and Jun 1, ${at(to)} (UTC):`)
    expect(r.body.error.message).toContain('without a Reddit key it cannot read posts by id')
    const link = await s.get(`/api/explain?url=${encodeURIComponent(`https://www.reddit.com/r/${A}/comments/${missed.id}/x/`)}`, 'member')
    expect(link.body.error.message).toStartWith(`Dibs was not reading r/${A} between Jun 1, ${at(from)} (UTC) and Jun 1, ${at(to)} (UTC):`)
    // a post read by the poll is not inside the gap
    const read = await s.get(`/api/explain?url=${burst[49]!.id}`, 'member')
    expect(read.body.post.seen).toStartWith('seen ')
  })

  test('with a key: the explainer reads the missed post by id and says Dibs was not reading its forum then; re-checks use /api/info', async () => {
    const s = await setup({ listingDepth: 30, oauth: true })
    s.publish(5)
    await s.scan()
    const from = s.fake.posts[0]!.created_utc * 1000
    const burst = s.publish(50)
    await s.scan()
    const to = burst[20]!.created_utc * 1000
    s.clock.advance(60_000)
    const r = await s.get(`/api/explain?url=${burst[3]!.id}`, 'member')
    expect(r.status).toBe(200)
    expect(r.body.post.stored).toBe(false)
    const at = (ms: number) => new Date(ms).toISOString().slice(11, 19)
    expect(r.body.post.seen).toStartWith(`Dibs was not reading r/${A} between Jun 1, ${at(from)} (UTC) and Jun 1, ${at(to)} (UTC):`)
    expect((await s.get('/api/admin/scanner')).body.recheck).toStartWith("Sold/removed re-checks read Reddit's /api/info with the key")
  })
})
