// Matches of reposted listings (src/forums/reposts.ts): one match per user and LISTING, not per post.
//
// When a hit's post reposts a listing the user already has a match on (the match's post is an
// earlier post of the same listing):
//   - a bump (same or higher price, or none): the match moves to the new post (title, link, post
//     time, terms) and keeps its place, read state and archive state — no alert;
//   - a price drop (the post's title price is below the listing's last price): the old match is
//     replaced by a match on the new post, which alerts like a new match (`match.new` with the
//     same notify rules, on the channels of the terms that matched) and is back in the list even
//     if the old one was archived; its MatchItem carries `priceDrop`, so email and push say
//     'Price drop: $450 → $400'. The old id is announced as `match.updated` 'removed'.
// A user without a match on the listing gets the repost as a normal new match (it is new to them).
// Only a match that replaced the user's earlier match carries `priceDrop` (stored as
// matches.price_drop); a user new to the listing gets a normal alert. The cards' listing data (repost
// dates, price history) is read from the posts of the listing up to the match's post (`attachListing`).
import { and, desc, eq, inArray } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches, type Post } from '../db/schema'
import type { MatchItem } from '../contract/events'
import { priceHistory, type PriceDrop } from '../forums/price-history'
import { listingPostIds, listingsOf, postsOfListings, priceBefore } from '../forums/listings'

export type ListingMatch = { id: number; postId: number | null; postCreatedAt: Date | null; matchedTerms: string[]; priceDrop: PriceDrop | null }

/** The user's newest match on the listing of `post` (null when the post is no repost or the user has none). */
export async function listingMatchOf(deps: OwnerDb, userId: number, post: Post): Promise<ListingMatch | null> {
  if (post.listingId === null) return null
  // the listing's few posts drive the lookup (matches_user_post), not all the user's matches
  const postIds = await listingPostIds(deps, post.listingId)
  if (postIds.length === 0) return null
  const db = asAsync(deps.db)
  const rows = await db
    .select({ id: matches.id, postId: matches.postId, postCreatedAt: matches.postCreatedAt, matchedTerms: matches.matchedTerms, priceDrop: matches.priceDrop })
    .from(matches)
    .where(and(eq(matches.userId, userId), inArray(matches.postId, postIds)))
    .orderBy(desc(matches.postCreatedAt), desc(matches.id))
    .limit(1)
  return rows[0] ?? null
}

/** The drop `post` makes on its listing: its price below the last price of an earlier post of the listing. */
export async function dropAt(deps: OwnerDb, post: Post): Promise<PriceDrop | null> {
  if (post.listingId === null || post.price === null) return null
  const prev = await priceBefore(deps, { id: post.id, listingId: post.listingId, createdAt: post.createdAt.getTime() })
  return prev !== null && post.price < prev ? { from: prev, to: post.price } : null
}

/**
 * Moves a match to a bump of its listing (no alert): the card shows the newest post. A drop the
 * match alerted for stays while the bump asks that price (or names none).
 */
export async function moveToRepost(deps: OwnerDb, match: ListingMatch, post: Post, terms: string[]): Promise<void> {
  const keepDrop = post.price === null || match.priceDrop?.to === post.price
  await asAsync(deps.db)
    .update(matches)
    .set({
      postId: post.id,
      postTitle: post.title,
      postUrl: post.url,
      postAuthor: post.author,
      postCreatedAt: post.createdAt,
      matchedTerms: terms,
      priceDrop: keepDrop ? match.priceDrop : null,
    })
    .where(eq(matches.id, match.id))
}

/** Sets `repost` and `priceHistory` on match items from the posts of their listings (two queries). */
export async function attachListing(deps: OwnerDb, items: MatchItem[]): Promise<void> {
  const ids = [...new Set(items.map((m) => m.postId).filter((id): id is number => id !== null))]
  for (const m of items) Object.assign(m, { repost: null, priceHistory: [] })
  if (ids.length === 0) return
  const listingOf = await listingsOf(deps, ids)
  const byListing = await postsOfListings(deps, [...new Set(listingOf.values())])
  for (const m of items) {
    const posts = m.postId === null ? undefined : byListing.get(listingOf.get(m.postId) ?? -1)
    const upTo = posts?.findIndex((p) => p.id === m.postId) ?? -1
    if (!posts || upTo < 1) continue // the listing's first post: no repost (yet) as far as this card goes
    const shown = posts.slice(0, upTo + 1).map((p) => ({ price: p.price, at: new Date(p.created_at).toISOString() }))
    m.repost = { firstSeenAt: shown[0]!.at, postedAt: shown.map((p) => p.at) }
    m.priceHistory = priceHistory(shown)
  }
}
