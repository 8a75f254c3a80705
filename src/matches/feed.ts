// The matches a user's feed carries (src/feeds/): newest first by match time, archived ones included
// (a feed entry a reader already holds does not vanish because it was archived in the app), with the
// post's excerpt, price and source joined. Scoped to the user like every query of this folder.
import type { Category } from '../access/categories'
import type { Deps } from '../deps'
import { postFactsOf } from '../forums/store'
import { httpUrl } from '../lib/urls'

export const FEED_SIZE = 50
const EXCERPT_CHARS = 600

export type FeedMatch = {
  id: number
  category: Category
  title: string
  url: string
  /** the deals post's outbound link, when it has one */
  linkUrl: string | null
  author: string
  matchedAt: Date
  postedAt: Date | null
  matchedTerms: string[]
  /** listing price in dollars, when the post names one */
  price: number | null
  /** where the post came from (posts.source_name, else its subreddit) */
  sourceName: string | null
  excerpt: string
}

type Row = {
  id: number
  category: string
  post_title: string
  post_url: string
  post_author: string
  created_at: number
  post_created_at: number | null
  matched_terms: string
  post_id: number | null
}

export function excerptOf(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** The user's newest matches (of one category, or all), at most `limit`. */
export async function feedMatches(deps: Pick<Deps, 'sqlite' | 'db'>, userId: number, category: Category | null, limit = FEED_SIZE): Promise<FeedMatch[]> {
  const where = category === null ? 'm.user_id = ?' : 'm.user_id = ? AND m.category = ?'
  const params: (string | number)[] = category === null ? [userId] : [userId, category]
  const rows = deps.sqlite
    .query<Row, (string | number)[]>(
      `SELECT m.id, m.category, m.post_title, m.post_url, m.post_author, m.created_at, m.post_created_at, m.matched_terms, m.post_id
       FROM matches m
       WHERE ${where} ORDER BY m.created_at DESC, m.id DESC LIMIT ${Math.max(1, Math.min(200, limit))}`,
    )
    .all(...params)
  // the post's link, price, source and text, read from its owner (src/forums/store.ts); a post gone leaves them empty
  const posts = await postFactsOf(
    deps,
    rows.flatMap((r) => (r.post_id === null ? [] : [r.post_id])),
  )
  return rows.map((r) => {
    const p = r.post_id === null ? undefined : posts.get(r.post_id)
    const url = httpUrl(r.post_url) ?? ''
    const link = httpUrl(p?.link_url ?? null)
    return {
      id: r.id,
      category: r.category as Category,
      title: r.post_title,
      url,
      linkUrl: link !== null && link !== url ? link : null,
      author: r.post_author,
      matchedAt: new Date(r.created_at),
      postedAt: r.post_created_at === null ? null : new Date(r.post_created_at),
      matchedTerms: JSON.parse(r.matched_terms) as string[],
      price: p?.price ?? null,
      sourceName: p?.source_name ?? (p?.subreddit ? `r/${p.subreddit}` : null),
      excerpt: excerptOf(p?.content ?? ''),
    }
  })
}
