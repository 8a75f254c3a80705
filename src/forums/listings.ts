// The posts of a listing (a post and its reposts: posts.listing_id, src/forums/reposts.ts), read for the matches of
// reposted listings (src/matches/listing.ts). This folder owns posts (src/db/owners.json); the matches folder reads
// them through these functions and keeps its own SQL to the matches table.
import type { Database } from 'bun:sqlite'
import { chunksOf, placeholders } from '../lib/id-lists'

/** The ids of the posts of listing `listingId` (its first post and the posts that repost it). */
export function listingPostIds(sqlite: Database, listingId: number): number[] {
  return sqlite
    .query<{ id: number }, [number, number]>('SELECT id FROM posts WHERE id = ? OR listing_id = ?')
    .all(listingId, listingId)
    .map((r) => r.id)
}

/** The last price of an earlier post of the listing than `post` (created before it, or at the same time with a lower id), or null. */
export function priceBefore(sqlite: Database, post: { id: number; listingId: number; createdAt: number }): number | null {
  const t = post.createdAt
  const prev = sqlite
    .query<{ price: number }, [number, number, number, number, number]>(
      `SELECT price FROM posts WHERE (id = ? OR listing_id = ?) AND price IS NOT NULL AND (created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .get(post.listingId, post.listingId, t, t, post.id)
  return prev?.price ?? null
}

/** The listing of each post of `postIds` still stored (its listing_id, or its own id for a listing's first post); 400 at a time. */
export function listingsOf(sqlite: Database, postIds: readonly number[]): Map<number, number> {
  const listingOf = new Map<number, number>()
  for (const chunk of chunksOf(postIds, 400)) {
    const q = placeholders(chunk.length)
    for (const r of sqlite
      .query<{ id: number; listing: number }, number[]>(`SELECT id, coalesce(listing_id, id) AS listing FROM posts WHERE id IN (${q})`)
      .all(...chunk))
      listingOf.set(r.id, r.listing)
  }
  return listingOf
}

export type ListingPostRow = { id: number; listing: number; created_at: number; price: number | null }

/** Every post of the listings `listings`, oldest first within a listing, grouped by listing; 400 listings at a time. */
export function postsOfListings(sqlite: Database, listings: readonly number[]): Map<number, ListingPostRow[]> {
  const byListing = new Map<number, ListingPostRow[]>()
  for (const chunk of chunksOf(listings, 400)) {
    const q = placeholders(chunk.length)
    const rows = sqlite
      .query<ListingPostRow, number[]>(
        `SELECT id, coalesce(listing_id, id) AS listing, created_at, price FROM posts WHERE listing_id IN (${q}) OR id IN (${q}) ORDER BY created_at, id`,
      )
      .all(...chunk, ...chunk)
    for (const r of rows) byListing.set(r.listing, [...(byListing.get(r.listing) ?? []), r])
  }
  return byListing
}
