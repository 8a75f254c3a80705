// Coverage gaps (src/scanner/gaps.ts): when a poll may have missed posts, and reading the windows back.
import { afterEach, describe, expect, test } from 'bun:test'
import { gapAround, gapSummary, gapsSince, missedWindow, pruneGaps, recordPollGap, type PollCover } from '../../../src/scanner/gaps'
import { jobList } from '../../../src/services'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

const MIN = 60_000
const T = Date.UTC(2026, 5, 1, 10, 0)

describe('missedWindow: a poll that may have missed posts', () => {
  const cases: [string, PollCover, { fromAt: number; toAt: number } | null][] = [
    [
      'oldest entry newer than the newest stored post: a gap between them',
      { newestStoredAt: T, oldestReadAt: T + 38 * MIN, reachedKnown: false },
      { fromAt: T, toAt: T + 38 * MIN },
    ],
    ['the very first poll (nothing stored): no gap', { newestStoredAt: null, oldestReadAt: T, reachedKnown: false }, null],
    ['catch-up reached a stored post: filled, no gap', { newestStoredAt: T, oldestReadAt: T + 38 * MIN, reachedKnown: true }, null],
    ['oldest entry older than the newest stored (that post was removed): no gap', { newestStoredAt: T, oldestReadAt: T - MIN, reachedKnown: false }, null],
    ['oldest entry at the same second: no gap', { newestStoredAt: T, oldestReadAt: T, reachedKnown: false }, null],
    ['an empty feed: no gap', { newestStoredAt: T, oldestReadAt: null, reachedKnown: false }, null],
  ]
  for (const [name, cover, want] of cases) test(name, () => expect(missedWindow(cover)).toEqual(want))
})

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

function db() {
  deps = makeDeps({}, testClock(T))
  return deps
}
const FORUMS = [
  { forum: 'product', subreddits: 'hardwareswap' },
  { forum: 'gd', subreddits: 'buildapcsales' },
]
const record = async (sqlite: ReturnType<typeof db>, from: number, to: number, at = to) =>
  await recordPollGap(sqlite, { source: 'reddit', forums: FORUMS, newestStoredAt: from, posts: [{ createdAt: new Date(to) }], reachedKnown: false, at })

describe('the gaps recorded', () => {
  test('one window of a multireddit poll is one row per forum, listed back as one window', async () => {
    const sqlite = db()
    expect(await record(sqlite, T, T + 40 * MIN)).toEqual({ fromAt: T, toAt: T + 40 * MIN })
    expect(sqlite.sqlite.query('SELECT forum, subreddits, from_at, to_at FROM source_gaps ORDER BY id').all()).toEqual([
      { forum: 'product', subreddits: 'hardwareswap', from_at: T, to_at: T + 40 * MIN },
      { forum: 'gd', subreddits: 'buildapcsales', from_at: T, to_at: T + 40 * MIN },
    ])
    expect(await gapsSince(sqlite, T)).toEqual([
      {
        source: 'reddit',
        forums: ['product', 'gd'],
        subreddits: ['hardwareswap', 'buildapcsales'],
        fromAt: new Date(T).toISOString(),
        toAt: new Date(T + 40 * MIN).toISOString(),
        seconds: 2400,
        foundAt: new Date(T + 40 * MIN).toISOString(),
      },
    ])
    expect(await gapSummary(sqlite, T)).toEqual({ count: 1, seconds: 2400 })
  })

  test('the summary counts overlapping windows once', async () => {
    const sqlite = db()
    await record(sqlite, T, T + 10 * MIN)
    await record(sqlite, T + 5 * MIN, T + 20 * MIN)
    await record(sqlite, T + 60 * MIN, T + 61 * MIN)
    expect(await gapSummary(sqlite, T)).toEqual({ count: 3, seconds: 21 * 60 })
    expect(await gapSummary(sqlite, T + 30 * MIN)).toEqual({ count: 1, seconds: 60 })
  })

  test('gapAround: a time inside the window, of that subreddit or any; an interval that overlaps it', async () => {
    const sqlite = db()
    await record(sqlite, T, T + 40 * MIN)
    expect(await gapAround(sqlite, 'HardwareSwap', T + 2 * MIN, T + 2 * MIN)).toEqual({ fromAt: T, toAt: T + 40 * MIN, subreddits: 'hardwareswap' })
    expect(await gapAround(sqlite, null, T + 2 * MIN, T + 2 * MIN)).toEqual({ fromAt: T, toAt: T + 40 * MIN, subreddits: 'hardwareswap+buildapcsales' })
    expect(await gapAround(sqlite, 'pics', T + 2 * MIN, T + 2 * MIN)).toBeNull()
    expect(await gapAround(sqlite, null, T, T)).toBeNull() // the newest stored post itself was read
    expect(await gapAround(sqlite, null, T + 40 * MIN, T + 40 * MIN)).toBeNull() // the poll's oldest entry was read
    expect(await gapAround(sqlite, null, T, T + 40 * MIN)).not.toBeNull() // between the two stored posts around the window
    expect(await gapAround(sqlite, null, T + 40 * MIN, T + 50 * MIN)).toBeNull()
  })

  test('the daily prune drops windows that ended over 30 days ago', async () => {
    const sqlite = db()
    await record(sqlite, T - 40 * 24 * 60 * MIN, T - 31 * 24 * 60 * MIN)
    await record(sqlite, T - 2 * 24 * 60 * MIN, T - 24 * 60 * MIN)
    expect(await pruneGaps(sqlite, T)).toBe(2) // the two rows (two forums) of the old window
    expect((await gapSummary(sqlite, 0)).count).toBe(1)
  })

  test('the prune is a job of the job list of its own (coverage-gaps-prune, daily)', async () => {
    const sqlite = db()
    await record(sqlite, T - 40 * 24 * 60 * MIN, T - 31 * 24 * 60 * MIN)
    const job = jobList(deps as never).find((j) => j.name === 'coverage-gaps-prune')
    expect(job?.every).toBe(24 * 60 * 60_000)
    await job!.run(deps!)
    expect((await gapSummary(sqlite, 0)).count).toBe(0)
  })
})
