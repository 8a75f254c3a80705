import { describe, expect, test } from 'bun:test'
import { DEMO_CORPUS } from '../../../src/demo/corpus.ts'
import { createDemoSource } from '../../../src/demo/source.ts'
import { classify } from '../../../src/forums/classify.ts'

const forums = { accessories: 'GunAccessoriesForSale', deals: 'gundeals' }
const T0 = Date.UTC(2025, 10, 20, 12)

function source(seed = 1) {
  const c = { t: T0 }
  const src = createDemoSource({ ...forums, seed, now: () => c.t })
  return { src, c }
}

describe('demo corpus', () => {
  test('has at least 300 posts across sell, buy, trade and deals', () => {
    expect(DEMO_CORPUS.length).toBeGreaterThanOrEqual(300)
    const kinds = { wts: 0, wtb: 0, none: 0, gd: 0 }
    for (const p of DEMO_CORPUS) {
      const c = classify({ title: p.title, flair: p.flair, subreddit: p.forum === 'deals' ? forums.deals : forums.accessories }, forums)!
      kinds[c.forum === 'gd' ? 'gd' : (c.classification ?? 'none')]++
    }
    expect(kinds.wts).toBeGreaterThan(100)
    expect(kinds.wtb).toBeGreaterThan(40)
    expect(kinds.none).toBeGreaterThan(5) // [WTT]
    expect(kinds.gd).toBeGreaterThan(90)
  })
  test('titles are varied and every deal links to a shop', () => {
    expect(new Set(DEMO_CORPUS.map((p) => p.title)).size).toBeGreaterThan(280)
    for (const p of DEMO_CORPUS.filter((p) => p.forum === 'deals')) expect(p.linkUrl).toStartWith('https://')
  })
})

describe('demo source', () => {
  test('starts with a backlog from the last hours, newest first', async () => {
    const { src } = source()
    const { posts, after } = await src.fetchNew()
    expect(posts).toHaveLength(40)
    expect(after).toBeNull()
    const times = posts.map((p) => p.createdAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(times.at(-1)!).toBeGreaterThan(T0 - 7 * 3600_000)
    expect(times[0]!).toBeLessThan(T0)
    expect(new Set(posts.map((p) => p.subreddit))).toEqual(new Set(['GunAccessoriesForSale', 'gundeals']))
  })

  test('releases about one post every 4 seconds', async () => {
    const { src, c } = source()
    c.t += 60_000
    expect(src.count()).toBeGreaterThanOrEqual(54)
    expect(src.count()).toBeLessThanOrEqual(56)
    const { posts } = await src.fetchNew({ limit: 1 })
    expect(posts[0]!.createdAt.getTime()).toBeLessThanOrEqual(c.t)
  })

  test('fetchSince returns only what arrived since the newest known post, oldest first', async () => {
    const { src, c } = source()
    const seen = new Set((await src.fetchNew()).posts.map((p) => p.redditId))
    c.t += 40_000
    const { posts, reachedKnown } = await src.fetchSince((id) => seen.has(id))
    expect(reachedKnown).toBe(true)
    expect(posts.length).toBeGreaterThanOrEqual(9)
    expect(posts.length).toBeLessThanOrEqual(11)
    for (const p of posts) expect(seen.has(p.redditId)).toBe(false)
    const times = posts.map((p) => p.createdAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  test('pages with after like Reddit', async () => {
    const { src, c } = source()
    c.t += 3600_000 // ~900 more posts
    const first = await src.fetchNew({ limit: 100 })
    const second = await src.fetchNew({ after: first.after!, limit: 100 })
    expect(second.posts[0]!.createdAt.getTime()).toBeLessThanOrEqual(first.posts.at(-1)!.createdAt.getTime())
    expect(new Set([...first.posts, ...second.posts].map((p) => p.redditId)).size).toBe(200)
  })

  test('the same seed replays the same stream; another seed does not', async () => {
    const a = (await source(7).src.fetchNew()).posts.map((p) => [p.redditId, p.title])
    const b = (await source(7).src.fetchNew()).posts.map((p) => [p.redditId, p.title])
    const other = (await source(8).src.fetchNew()).posts.map((p) => p.title)
    expect(a).toEqual(b)
    expect(other).not.toEqual(a.map((x) => x[1]))
  })
})

describe('demo author flairs', () => {
  test('most accessories authors show confirmed trades, each author always the same, deals authors none', () => {
    const acc = DEMO_CORPUS.filter((p) => p.forum === 'accessories')
    const shown = acc.filter((p) => p.authorFlair !== null)
    expect(shown.length / acc.length).toBeGreaterThan(0.5)
    expect(shown.length).toBeLessThan(acc.length)
    for (const p of shown) expect(p.authorFlair).toMatch(/^Trades: \d+$/)
    const byAuthor = new Map<string, string | null>()
    for (const p of acc) {
      if (byAuthor.has(p.author)) expect(p.authorFlair).toBe(byAuthor.get(p.author)!)
      byAuthor.set(p.author, p.authorFlair)
    }
    expect(DEMO_CORPUS.filter((p) => p.forum === 'deals').every((p) => p.authorFlair === null)).toBe(true)
  })
  test('the source hands the flair on with each post', async () => {
    const { src } = source()
    const { posts } = await src.fetchNew()
    expect(posts.some((p) => p.authorFlair?.startsWith('Trades: '))).toBe(true)
  })
})

describe('demo lifecycle (the re-check in the demo)', () => {
  test('within minutes some live posts become SOLD, Removed or Pending, as /api/info would show them', async () => {
    const { detectPostState } = await import('../../../src/forums/post-state.ts')
    const { src, c } = source()
    c.t = T0 + 10 * 60_000 // 150 live posts published
    const ids = Array.from({ length: 100 }, (_, i) => src.postAt(40 + i).redditId)
    const fresh = await src.fetchInfo(ids.slice(0, 1))
    expect(fresh).toHaveLength(1)
    c.t = T0 + 30 * 60_000
    const later = await src.fetchInfo(ids)
    expect(later).toHaveLength(100)
    const states = later.map((p) => detectPostState(p))
    for (const s of ['sold', 'removed', 'pending', 'open'] as const) expect(states.filter((x) => x === s).length).toBeGreaterThan(3)
    // the newest posts (under 2 minutes old) are all still open
    const newest = Array.from({ length: 20 }, (_, i) => src.postAt(src.count() - 1 - i).redditId)
    expect(new Set((await src.fetchInfo(newest)).map((p) => detectPostState(p)))).toEqual(new Set(['open']))
  })
})
