// Links each new post to the listing it reposts (rules in reposts.ts).
// Runs inside storePosts' transaction, oldest post first, so a listing bumped twice within one
// catch-up page links both bumps to the same first post. `posts.listing_id` always names the
// listing's FIRST post (null on that post itself), so a listing is `id = L OR listing_id = L`.
import type { Database } from 'bun:sqlite'
import type { Post } from '../db/schema'
import { isSameListing, listingAuthor, REPOST_WINDOW_MS } from './reposts'

type Candidate = { id: number; listing_id: number | null; title: string; author: string; created_at: number; post_type: string | null }

/** How many of an author's recent posts are compared with a new one (newest first). */
const CANDIDATES = 50

/** Sets `listingId` on the posts (stored and in the objects). `posts` must be sorted oldest first. */
export function linkReposts(sqlite: Database, posts: Post[]): void {
  const recent = sqlite.query<Candidate, [string, number, number, number, number, string]>(
    `SELECT id, listing_id, title, author, created_at, post_type FROM posts
     WHERE lower(author) = ? AND created_at >= ? AND (created_at < ? OR (created_at = ? AND id < ?)) AND forum = ?
     ORDER BY created_at DESC, id DESC LIMIT ${CANDIDATES}`,
  )
  const save = sqlite.query<never, [number, number]>('UPDATE posts SET listing_id = ? WHERE id = ?')
  for (const post of posts) {
    const t = post.createdAt.getTime()
    const author = listingAuthor(post.author)
    const earlier = author === null ? undefined : recent.all(author, t - REPOST_WINDOW_MS, t, t, post.id, post.forum).find((c) => isSameListing(row(c), post))
    post.listingId = earlier ? (earlier.listing_id ?? earlier.id) : null
    if (post.listingId !== null) save.run(post.listingId, post.id)
  }
}

const row = (c: Candidate) => ({ author: c.author, title: c.title, createdAt: c.created_at, postType: c.post_type })
