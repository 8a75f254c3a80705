// Offline demo forum (DEMO=1): replays the sample corpus as if Reddit were live, behind the
// same fetchNew/fetchSince surface as RedditClient, so the scanner cannot tell them apart.
//
// The stream is a pure function of the clock: post k of a seeded shuffle of the corpus is
// "published" at a fixed time. The first `backlog` posts are spread over the hours before the
// source was created; after that one post arrives every intervalMs (±25% jitter, never out of
// order). The corpus repeats with fresh ids when exhausted. Same seed + same clock → same posts.
//
// Lifecycle (the re-check, src/forums/recheck.ts): some posts change after they appear, so the
// demo shows the SOLD / Removed / Pending badges. Per stream position, from its own seeded draw:
// about 1 in 8 is removed by automod 2 minutes after publishing, 1 in 6 is marked SOLD after 4
// minutes (title tag and flair), 1 in 10 goes PENDING after 3 minutes; the rest stay open.
// fetchInfo answers like /api/info: the posts asked for, as they are at `now`.
import { DEMO_CORPUS, prng, type DemoPost } from './corpus.ts'
import type { PostSnapshot } from '../forums/info.ts'
import type { FetchNewResult, FetchSinceResult, ForumPost, ForumSource, IsKnown } from '../forums/listing.ts'
import { RateBudget } from '../forums/rate-budget.ts'

export type DemoSourceOptions = {
  accessories: string
  deals: string
  /** ms between live posts; default 4000 */
  intervalMs?: number
  now?: () => number
  seed?: number
  /** posts already present at start; default 40 */
  backlog?: number
  /** how far back the backlog reaches; default 6 h */
  backlogMs?: number
  corpus?: readonly DemoPost[]
  /** RECHECK_BUDGET_SHARE for the demo budget's side share (default 0.2) */
  recheckShare?: number
}

export type DemoSource = ForumSource & {
  readonly mode: 'demo'
  readonly budget: RateBudget
  readonly startedAt: number
  /** how many posts exist at `now` */
  count(now?: number): number
  /** post k of the stream (0 = oldest backlog post) */
  postAt(k: number): ForumPost
  /** what /api/info would answer for these ids now */
  fetchInfo(redditIds: string[]): Promise<PostSnapshot[]>
}

/** What happens to a demo post after it appears: the change and its delay from publishing. */
export function demoLifecycle(seed: number, k: number): { change: 'removed' | 'sold' | 'pending'; afterMs: number } | null {
  const r = prng(seed * 104_729 + k * 31 + 7)()
  if (r < 0.125) return { change: 'removed', afterMs: 2 * 60_000 }
  if (r < 0.29) return { change: 'sold', afterMs: 4 * 60_000 }
  if (r < 0.39) return { change: 'pending', afterMs: 3 * 60_000 }
  return null
}

const DEPTH = 1000

export function createDemoSource(opts: DemoSourceOptions): DemoSource {
  const now = opts.now ?? Date.now
  const interval = opts.intervalMs ?? 4000
  const backlog = opts.backlog ?? 40
  const backlogMs = opts.backlogMs ?? 6 * 3600_000
  const seed = opts.seed ?? 1
  const corpus = opts.corpus ?? DEMO_CORPUS
  if (corpus.length === 0) throw new Error('demo corpus is empty')
  const startedAt = now()

  const rnd = prng(seed)
  const order = corpus.map((_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1))
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  // jitter per stream position, from its own seeded sequence (stable whatever is read first)
  const jitter = (k: number) => (prng(seed * 7919 + k)() - 0.5) * 0.5 // [-0.25, 0.25)

  const publishedAt = (k: number): number => {
    if (k < backlog) {
      const step = backlogMs / backlog
      return Math.round(startedAt - backlogMs + k * step + jitter(k) * step)
    }
    return Math.round(startedAt + (k - backlog + 1 + jitter(k)) * interval)
  }

  const count = (t: number = now()): number => {
    if (t < startedAt) return backlog
    let n = backlog + Math.floor((t - startedAt) / interval)
    while (publishedAt(n) <= t) n++
    while (n > backlog && publishedAt(n - 1) > t) n--
    return n
  }

  const idBase = 36 ** 6 * 20 + (seed % 1000) * 1_000_000
  const postAt = (k: number): ForumPost => {
    const src = corpus[order[k % corpus.length]!]!
    const redditId = (idBase + k).toString(36)
    const subreddit = src.forum === 'deals' ? opts.deals : opts.accessories
    const slug = src.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .slice(0, 48)
    const url = `https://www.reddit.com/r/${subreddit}/comments/${redditId}/${slug}/`
    return {
      redditId,
      name: `t3_${redditId}`,
      title: src.title,
      url,
      linkUrl: src.linkUrl ?? url,
      content: src.content,
      author: src.author,
      subreddit,
      flair: src.flair,
      authorFlair: src.authorFlair,
      createdAt: new Date(Math.floor(publishedAt(k) / 1000) * 1000),
    }
  }

  // newest-first view limited to Reddit's listing depth
  const newest = (t: number) => {
    const n = count(t)
    const floor = Math.max(0, n - DEPTH)
    return { n, floor }
  }

  async function fetchNew(o: { after?: string; limit?: number } = {}): Promise<FetchNewResult> {
    const { n, floor } = newest(now())
    const limit = Math.max(1, Math.min(100, o.limit ?? 100))
    let start = n - 1
    if (o.after) {
      const k = parseInt(o.after.replace(/^t3_/, ''), 36) - idBase
      start = Number.isFinite(k) && k >= floor && k < n ? k - 1 : floor - 1 // unknown cursor → empty page
    }
    const posts: ForumPost[] = []
    for (let k = start; k >= floor && posts.length < limit; k--) posts.push(postAt(k))
    const last = posts.at(-1)
    const more = last !== undefined && parseInt(last.redditId, 36) - idBase > floor
    return { posts, after: more ? last!.name : null }
  }

  /** Post k as Reddit shows it at time t (after its lifecycle change, if due). */
  const snapshotAt = (k: number, t: number): PostSnapshot => {
    const p = postAt(k)
    const base: PostSnapshot = { redditId: p.redditId, title: p.title, content: p.content, flair: p.flair, author: p.author, removedByCategory: null, post: p }
    const life = demoLifecycle(seed, k)
    if (!life || t < publishedAt(k) + life.afterMs) return base
    if (life.change === 'removed') return { ...base, content: '[removed]', removedByCategory: 'automod_filtered' }
    if (life.change === 'sold') return { ...base, title: `[SOLD] ${p.title}`, flair: 'SOLD' }
    return { ...base, content: `PENDING\n\n${p.content}` }
  }

  // no remote limit: scan about twice per arrival so the demo feels live
  const budget = new RateBudget({ capPerMinute: 600, intervalSeconds: Math.max(1, Math.round(interval / 2000)), sideShare: opts.recheckShare })

  async function fetchInfo(redditIds: string[]): Promise<PostSnapshot[]> {
    const t = now()
    budget.noteSideRequest(t)
    const n = count(t)
    const out: PostSnapshot[] = []
    for (const id of redditIds) {
      const k = parseInt(id, 36) - idBase
      if (Number.isFinite(k) && k >= 0 && k < n) out.push(snapshotAt(k, t))
    }
    return out
  }

  async function fetchSince(isKnown: IsKnown, o: { maxPages?: number } = {}): Promise<FetchSinceResult> {
    const maxPages = o.maxPages ?? 11
    const fresh: ForumPost[] = []
    let after: string | undefined
    let pages = 0
    while (pages < maxPages) {
      const page = await fetchNew({ after })
      pages++
      for (const post of page.posts) {
        if (await isKnown(post.redditId)) return { posts: fresh.reverse(), pages, reachedKnown: true }
        fresh.push(post)
      }
      if (page.after === null) break
      after = page.after
    }
    return { posts: fresh.reverse(), pages, reachedKnown: false }
  }

  return {
    mode: 'demo',
    budget,
    startedAt,
    count,
    postAt,
    fetchNew,
    fetchSince,
    fetchInfo,
  }
}
