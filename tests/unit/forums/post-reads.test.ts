// The reads of `posts` other folders ask src/forums for (issue 29 §1, one owner per table): the forum
// activity of src/scanner/forum-activity.ts, the scrape-time counters of /metrics, a poll's coverage
// gap start (src/scanner/gaps.ts) and the restore point's newest post (src/db/restore.ts).
import { afterEach, expect, test } from 'bun:test'
import { latestPostTimes, maxPostId, newestPostAt, postsAfterId, subredditsByNewestPost } from '../../../src/forums/stats'
import { newestOfSubreddits } from '../../../src/forums/store'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

/** Posts as [subreddit, forum, created_at]; ids in that order. */
function withPosts(rows: [string, string, number][]): TestDeps {
  deps = makeDeps()
  const insert = deps.sqlite.query(
    "INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at, ingested_at) VALUES (?, ?, ?, '[USA-CA] [H] GPU [W] Cash', 'https://www.reddit.com/x', ?, ?)",
  )
  rows.forEach(([sub, forum, at], i) => insert.run(`p${i}`, forum, sub, at, at))
  return deps
}

test('with no post: no newest time, id 0, no subreddit, nothing after', async () => {
  const d = withPosts([])
  expect(await newestPostAt(d)).toBeNull()
  expect(maxPostId(d)).toBe(0)
  expect(await subredditsByNewestPost(d)).toEqual([])
  expect(await postsAfterId(d, 0)).toEqual([])
  expect(await newestOfSubreddits(d, ['hardwareswap'])).toBeNull()
})

test('subreddits: one spelling per name whatever its case, the one with the newest post first', async () => {
  const d = withPosts([
    ['hardwareswap', 'product', 100],
    ['HardwareSwap', 'product', 300],
    ['buildapcsales', 'gd', 200],
  ])
  const subs = await subredditsByNewestPost(d)
  expect(subs).toHaveLength(2)
  expect(subs[0]!.toLowerCase()).toBe('hardwareswap')
  expect(subs[1]).toBe('buildapcsales')
  expect(await newestPostAt(d)).toBe(300)
})

test("a subreddit's latest post times: its name in any case, newest first, at most `limit`", async () => {
  const d = withPosts([
    ['hardwareswap', 'product', 100],
    ['HardwareSwap', 'product', 300],
    ['hardwareswap', 'product', 200],
    ['buildapcsales', 'gd', 400],
  ])
  expect(await latestPostTimes(d, 'HARDWARESWAP', 2)).toEqual([300, 200])
  expect(await latestPostTimes(d, 'hardwareswap', 20)).toEqual([300, 200, 100])
  expect(await latestPostTimes(d, 'nosuchforum', 20)).toEqual([])
})

test('posts after an id, per forum: how many and the highest id', async () => {
  const d = withPosts([
    ['hardwareswap', 'product', 100],
    ['hardwareswap', 'product', 200],
    ['buildapcsales', 'gd', 300],
    ['hardwareswap', 'product', 400],
  ])
  expect(maxPostId(d)).toBe(4)
  const after = (await postsAfterId(d, 1)).sort((a, b) => a.forum.localeCompare(b.forum))
  expect(after).toEqual([
    { forum: 'gd', n: 1, top: 3 },
    { forum: 'product', n: 2, top: 4 },
  ])
  expect(await postsAfterId(d, 4)).toEqual([])
})

test('the newest post of some subreddits: names given in lower case match any case; none given is null', async () => {
  const d = withPosts([
    ['HardwareSwap', 'product', 100],
    ['buildapcsales', 'gd', 500],
    ['hardwareswap', 'product', 200],
  ])
  expect(await newestOfSubreddits(d, ['hardwareswap'])).toBe(200)
  expect(await newestOfSubreddits(d, ['hardwareswap', 'buildapcsales'])).toBe(500)
  expect(await newestOfSubreddits(d, [])).toBeNull()
})
