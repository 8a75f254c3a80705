// The posts of a listing (a post and its reposts: posts.listing_id, src/forums/reposts.ts), read for the matches of
// reposted listings (src/matches/listing.ts). This folder owns posts (src/db/owners.json); the matches folder reads
// them through these functions and keeps its own SQL to the matches table.
import { and, asc, desc, eq, inArray, isNotNull, lt, or } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { posts } from '../db/schema'
import { chunksOf } from '../lib/id-lists'

/** The ids of the posts of listing `listingId` (its first post and the posts that repost it). */
export async function listingPostIds(deps: OwnerDb, listingId: number): Promise<number[]> {
  const rows = await asAsync(deps.db)
    .select({ id: posts.id })
    .from(posts)
    .where(or(eq(posts.id, listingId), eq(posts.listingId, listingId)))
  return rows.map((r) => r.id)
}

/** The last price of an earlier post of the listing than `post` (created before it, or at the same time with a lower id), or null. */
export async function priceBefore(deps: OwnerDb, post: { id: number; listingId: number; createdAt: number }): Promise<number | null> {
  const t = new Date(post.createdAt)
  const [prev] = await asAsync(deps.db)
    .select({ price: posts.price })
    .from(posts)
    .where(
      and(
        or(eq(posts.id, post.listingId), eq(posts.listingId, post.listingId)),
        isNotNull(posts.price),
        or(lt(posts.createdAt, t), and(eq(posts.createdAt, t), lt(posts.id, post.id))),
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(1)
  return prev?.price ?? null
}

/** The listing of each post of `postIds` still stored (its listing_id, or its own id for a listing's first post); 400 at a time. */
export async function listingsOf(deps: OwnerDb, postIds: readonly number[]): Promise<Map<number, number>> {
  const db = asAsync(deps.db)
  const listingOf = new Map<number, number>()
  for (const chunk of chunksOf(postIds, 400))
    for (const r of await db.select({ id: posts.id, listingId: posts.listingId }).from(posts).where(inArray(posts.id, chunk)))
      listingOf.set(r.id, r.listingId ?? r.id)
  return listingOf
}

export type ListingPostRow = { id: number; listing: number; created_at: number; price: number | null }

/** Every post of the listings `listings`, oldest first within a listing, grouped by listing; 400 listings at a time. */
export async function postsOfListings(deps: OwnerDb, listings: readonly number[]): Promise<Map<number, ListingPostRow[]>> {
  const db = asAsync(deps.db)
  const byListing = new Map<number, ListingPostRow[]>()
  for (const chunk of chunksOf(listings, 400)) {
    const rows = await db
      .select({ id: posts.id, listingId: posts.listingId, createdAt: posts.createdAt, price: posts.price })
      .from(posts)
      .where(or(inArray(posts.listingId, chunk), inArray(posts.id, chunk)))
      .orderBy(asc(posts.createdAt), asc(posts.id))
    for (const r of rows) {
      const row: ListingPostRow = { id: r.id, listing: r.listingId ?? r.id, created_at: r.createdAt.getTime(), price: r.price }
      byListing.set(row.listing, [...(byListing.get(row.listing) ?? []), row])
    }
  }
  return byListing
}
