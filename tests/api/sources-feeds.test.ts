// The feed poller (issue 25 §2, src/scanner/feeds.ts `tick`) on a test clock against the forum feeds fake
// (tests/fakes/forum-feeds.ts): a due feed is read and its new items stored with their source and matched; a host
// is asked at most once per politeness interval, shared by every source on it; later polls are conditional (304:
// nothing new, health ok); a blocked feed is 'failing' with the reason in words and backs off; a 429's Retry-After
// rests the host; a disabled source is never read.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { addSource, editSource } from '../../src/scanner/source-admin'
import { getSource } from '../../src/sources/store'
import { sourceView } from '../../src/sources/view'
import { addTerm } from '../../src/terms/service'
import { DEPTH, startForumFeeds, type ForumFeeds } from '../fakes/forum-feeds'
import { createUserWithSession, makeDeps, testClock, type TestDeps } from '../helpers'

let deps: TestDeps
let clock: ReturnType<typeof testClock>
let forums: ForumFeeds

beforeEach(async () => {
  clock = testClock()
  deps = makeDeps({ ALLOW_PRIVATE_SOURCES: '1' }, clock)
  forums = await startForumFeeds({ now: () => clock.now().getTime() })
})
afterEach(async () => {
  deps.close()
  await forums.stop()
})

const INTERVAL = 60_000
const feed = async (path: keyof ForumFeeds['paths'], over: Record<string, unknown> = {}) =>
  (await addSource(deps, { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths[path], ...over })).source.id
const health = async (id: number) => sourceView(deps, (await getSource(deps, id))!).health
const postsOf = (id: number) =>
  deps.sqlite
    .query<{ title: string; source_id: number; source_name: string; forum: string; post_type: string | null }, [number]>(
      'SELECT title, source_id, source_name, forum, post_type FROM posts WHERE source_id = ? ORDER BY created_at',
    )
    .all(id)
const summary = (outcomes: { status: string; new: number }[]) => outcomes.map((o) => [o.status, o.new])

test('a due feed is read: its items stored with the source and matched; within the interval nothing is sent; then a conditional request gets 304', async () => {
  const user = await createUserWithSession(deps, { role: 'product+gd' })
  await addTerm(deps, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'aimpoint')
  const id = await feed('xenforo', { name: 'Optics board' })
  expect((await health(id)).state).toBe('new')

  expect(summary(await deps.feeds.tick())).toEqual([['ok', 3]])
  expect(postsOf(id).map((p) => [p.title, p.source_id, p.source_name, p.forum, p.post_type])).toEqual([
    ['WTS: Aimpoint T2 with LaRue LT660 mount - $650 shipped', id, 'Optics board', 'product', 'wts'],
    ['WTB: Geissele Super 42 trigger, flat bow', id, 'Optics board', 'product', 'wtb'],
    ['WTS/WTT: Trijicon RMR RM06 Type 2 - $400', id, 'Optics board', 'product', 'wts'],
  ])
  expect(deps.sqlite.query<{ post_title: string }, []>('SELECT post_title FROM matches').all()).toEqual([
    { post_title: 'WTS: Aimpoint T2 with LaRue LT660 mount - $650 shipped' },
  ])
  expect(await health(id)).toMatchObject({ state: 'ok', lastPosts: 3, failures: 0, lastError: null })

  clock.advance(INTERVAL - 1000)
  expect(await deps.feeds.tick()).toEqual([])
  expect(forums.requests).toHaveLength(1)

  clock.advance(1000)
  expect(summary(await deps.feeds.tick())).toEqual([['not_modified', 0]])
  expect(forums.requests).toHaveLength(2)
  const conditional = forums.requests[1]!.headers
  expect(conditional['if-none-match']).toMatch(/^".+"$/)
  expect(conditional['if-modified-since']).toBeDefined()
  expect(await health(id)).toMatchObject({ state: 'ok', lastPosts: 0, failures: 0 })

  forums.publish('xenforo', { title: 'WTS: Aimpoint Micro T2 - $600' })
  clock.advance(INTERVAL)
  expect(summary(await deps.feeds.tick())).toEqual([['ok', 1]])
  expect(postsOf(id)).toHaveLength(4)
  expect(deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM matches').get()!.n).toBe(2)
})

test('a blocked feed (a 403 page) is failing with the reason in words and backs off; it recovers when the block ends', async () => {
  const id = await feed('phpbb')
  forums.block()
  const [failed] = await deps.feeds.tick()
  expect(failed).toMatchObject({ status: 'failed', new: 0 })
  expect(failed!.error).toContain('403 with a web page')
  const h = await health(id)
  expect(h).toMatchObject({ state: 'failing', failures: 1 })
  expect(h.summary).toBe(
    'Failing (1 in a row): The forum answered 403 with a web page: its bot protection blocks this server. Ask its admins to allow feed readers',
  )
  expect(postsOf(id)).toEqual([])

  // one failure: twice the interval before the next try
  clock.advance(INTERVAL)
  expect(await deps.feeds.tick()).toEqual([])
  clock.advance(INTERVAL)
  expect(summary(await deps.feeds.tick())).toEqual([['failed', 0]])
  expect((await health(id)).failures).toBe(2)
  // two failures: four intervals
  clock.advance(3 * INTERVAL)
  expect(await deps.feeds.tick()).toEqual([])
  forums.block(false)
  clock.advance(INTERVAL)
  expect(summary(await deps.feeds.tick())).toEqual([['ok', 2]])
  expect(await health(id)).toMatchObject({ state: 'ok', failures: 0, lastError: null })
  expect(forums.requests).toHaveLength(3)
})

test("a 429's Retry-After rests the host that long, longer than the interval", async () => {
  const id = await feed('vbulletin')
  forums.rateLimit('600')
  expect(summary(await deps.feeds.tick())).toEqual([['failed', 0]])
  expect((await health(id)).lastError).toBe('The forum says too many requests (429); it asks to wait 600 s')
  forums.rateLimit(null)
  for (let i = 0; i < 9; i++) {
    clock.advance(INTERVAL)
    expect(await deps.feeds.tick()).toEqual([])
  }
  expect(forums.requests).toHaveLength(1)
  clock.advance(INTERVAL)
  expect(summary(await deps.feeds.tick())).toEqual([['ok', 2]])
})

test('a disabled source is never read; enabled again it is', async () => {
  const id = await feed('discourseRss', { enabled: false })
  expect((await health(id)).state).toBe('disabled')
  expect(await deps.feeds.tick()).toEqual([])
  clock.advance(10 * INTERVAL)
  expect(await deps.feeds.tick()).toEqual([])
  expect(forums.requests).toEqual([])
  await editSource(deps, id, { enabled: true })
  expect(summary(await deps.feeds.tick())).toEqual([['ok', 2]])
})

describe('two sources on one host share its politeness', () => {
  test('one request per interval to the host, and each source gets its turn', async () => {
    const a = await feed('xenforo', { name: 'Optics' })
    const b = await feed('phpbb', { name: 'Classifieds' })
    const c = await feed('jsonfeed', { forum: 'deals', name: 'Deals' })
    for (let i = 0; i < 6; i++) {
      const before = forums.requests.length
      await deps.feeds.tick()
      expect(forums.requests.length - before).toBeLessThanOrEqual(1)
      clock.advance(INTERVAL)
    }
    expect(forums.requests).toHaveLength(6)
    // every source was read (in the first three intervals), none starved by the one before it
    for (const id of [a, b, c]) expect([id, (await health(id)).state]).toEqual([id, 'ok'])
    expect(postsOf(a)).toHaveLength(3)
    expect(postsOf(b)).toHaveLength(2)
    expect(postsOf(c).map((p) => [p.forum, p.post_type])).toEqual([
      ['gd', 'gd'],
      ['gd', 'gd'],
    ])
  })
  test('a politeness interval set by the admin applies to the next tick', async () => {
    await feed('xenforo')
    await deps.feeds.setPolitenessSeconds(15)
    await deps.feeds.tick()
    clock.advance(15_000)
    expect(summary(await deps.feeds.tick())).toEqual([['not_modified', 0]])
    expect(await deps.feeds.setPolitenessSeconds(5)).toBe(15)
  })
})

test('more posts than the feed holds between two polls: a coverage gap for that source, with its window; a poll that reaches a stored item records none', async () => {
  const id = await feed('phpbb', { name: 'Classic board' })
  expect(summary(await deps.feeds.tick())).toEqual([['ok', 2]])
  const gaps = () =>
    deps.sqlite.query<{ source: string; forum: string; subreddits: string; from_at: number; to_at: number }, []>('SELECT * FROM source_gaps ORDER BY id').all()
  // a few new posts: the next poll still shows a stored one, so nothing was missed
  for (let i = 0; i < 3; i++) forums.publish('phpbb', { title: `WTS: item ${i} - $${10 + i}`, createdAt: clock.now().getTime() + i * 1000 })
  clock.advance(INTERVAL)
  expect(summary(await deps.feeds.tick())).toEqual([['ok', 3]])
  expect(gaps()).toEqual([])
  // then more than the feed's 15 between two polls: the oldest shown is newer than the newest stored
  const newestStored = deps.sqlite.query<{ at: number }, [number]>('SELECT max(created_at) AS at FROM posts WHERE source_id = ?').get(id)!.at
  clock.advance(INTERVAL)
  for (let i = 0; i < DEPTH.phpbb + 5; i++)
    forums.publish('phpbb', { title: `WTS: burst ${i} - $${20 + i}`, createdAt: clock.now().getTime() - (30 - i) * 1000 })
  expect(summary(await deps.feeds.tick())).toEqual([['ok', DEPTH.phpbb]])
  const [gap] = gaps()
  expect(gaps()).toHaveLength(1)
  expect(gap).toMatchObject({ source: `feed:${id}`, forum: 'product', subreddits: 'Classic board', from_at: newestStored })
  expect(gap!.to_at).toBe(Math.min(...forums.posts.phpbb.slice(0, DEPTH.phpbb).map((p) => Math.floor(p.createdAt / 1000) * 1000)))
})
