// Per watched forum, the last post seen and a flag when it looks dead (src/scanner/forum-activity.ts):
// a forum with no post is flagged only when the other forums' posts span hours — a first poll's
// handful is no evidence (Admin → Logs flagged r/gundeals after a single post elsewhere).
import { afterEach, expect, test } from 'bun:test'
import { forumActivity, QUIET_MIN_MS } from '../../../src/scanner/forum-activity'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

const T = Date.UTC(2026, 5, 1, 12, 0)
let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

function withPosts(subreddit: string, times: number[]) {
  deps = makeDeps({ ACCESSORIES_SUBREDDIT: 'hardwareswap', DEALS_SUBREDDIT: 'buildapcsales' }, testClock(T))
  const insert = deps.sqlite.query(
    "INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at, ingested_at) VALUES (?, 'product', ?, '[USA-CA] [H] GPU [W] Cash', 'https://www.reddit.com/x', ?, ?)",
  )
  times.forEach((at, i) => insert.run(`p${i}`, subreddit, at, at))
  return forumActivity(deps)
}
const flagOf = (rows: Awaited<ReturnType<typeof forumActivity>>, sub: string) => rows.find((r) => r.subreddit === sub)!.flag

test('one post in the other forum: the silent one is not flagged yet', async () => {
  expect(flagOf(await withPosts('hardwareswap', [T - 60_000]), 'buildapcsales')).toBeNull()
})

test('posts in the other forum over less than QUIET_MIN_MS: still no evidence', async () => {
  const times = Array.from({ length: 30 }, (_, i) => T - i * 60_000)
  expect(flagOf(await withPosts('hardwareswap', times), 'buildapcsales')).toBeNull()
})

test('posts in the other forum over more than QUIET_MIN_MS and none here: flagged with what to check', async () => {
  const times = Array.from({ length: 30 }, (_, i) => T - i * ((QUIET_MIN_MS + 3_600_000) / 29))
  expect(flagOf(await withPosts('hardwareswap', times), 'buildapcsales')).toStartWith('no post seen while the other forums get posts')
  expect(flagOf(await forumActivity(deps!), 'hardwareswap')).toBeNull()
})
