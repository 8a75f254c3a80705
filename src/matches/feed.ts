// The matches a user's feed carries (src/feeds/): newest first by match time, archived ones included
// (a feed entry a reader already holds does not vanish because it was archived in the app), with the
// post's excerpt, price and source joined. Scoped to the user like every query of this folder.
import { and, desc, eq } from 'drizzle-orm'
import type { Category } from '../access/categories'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches } from '../db/schema'
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

export function excerptOf(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** The user's newest matches (of one category, or all), at most `limit`. */
export async function feedMatches(deps: OwnerDb & Pick<Deps, 'sqlite'>, userId: number, category: Category | null, limit = FEED_SIZE): Promise<FeedMatch[]> {
  const db = asAsync(deps.db)
  const rows = await db
    .select({
      id: matches.id,
      category: matches.category,
      postTitle: matches.postTitle,
      postUrl: matches.postUrl,
      postAuthor: matches.postAuthor,
      matchedAt: matches.matchedAt,
      postCreatedAt: matches.postCreatedAt,
      matchedTerms: matches.matchedTerms,
      postId: matches.postId,
    })
    .from(matches)
    .where(and(eq(matches.userId, userId), category === null ? undefined : eq(matches.category, category)))
    .orderBy(desc(matches.matchedAt), desc(matches.id))
    .limit(Math.max(1, Math.min(200, limit)))
  // the post's link, price, source and text, read from its owner (src/forums/store.ts); a post gone leaves them empty
  const posts = await postFactsOf(
    deps,
    rows.flatMap((r) => (r.postId === null ? [] : [r.postId])),
  )
  return rows.map((r) => {
    const p = r.postId === null ? undefined : posts.get(r.postId)
    const url = httpUrl(r.postUrl) ?? ''
    const link = httpUrl(p?.link_url ?? null)
    return {
      id: r.id,
      category: r.category as Category,
      title: r.postTitle,
      url,
      linkUrl: link !== null && link !== url ? link : null,
      author: r.postAuthor,
      matchedAt: r.matchedAt,
      postedAt: r.postCreatedAt,
      matchedTerms: r.matchedTerms,
      price: p?.price ?? null,
      sourceName: p?.source_name ?? (p?.subreddit ? `r/${p.subreddit}` : null),
      excerpt: excerptOf(p?.content ?? ''),
    }
  })
}
