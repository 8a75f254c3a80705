// Links each new post to the listing it reposts (rules in reposts.ts).
// Runs inside storePosts' transaction, oldest post first, so a listing bumped twice within one
// catch-up page links both bumps to the same first post. `posts.listing_id` always names the
// listing's FIRST post (null on that post itself), so a listing is `id = L OR listing_id = L`.
import { and, desc, eq, gte, lt, or, sql } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import type { OwnerDb } from '../db/async-db'
import { posts as postsTable, type Post } from '../db/schema'
import { isSameListing, listingAuthor, REPOST_WINDOW_MS } from './reposts'

/** How many of an author's recent posts are compared with a new one (newest first). */
const CANDIDATES = 50

/** Sets `listingId` on the posts (stored and in the objects). `posts` must be sorted oldest first. */
export async function linkReposts(deps: OwnerDb, posts: Post[]): Promise<void> {
  const db = asAsync(deps.db)
  const t = postsTable
  for (const post of posts) {
    const at = post.createdAt
    const author = listingAuthor(post.author)
    const recent =
      author === null
        ? []
        : await db
            .select({ id: t.id, listingId: t.listingId, title: t.title, author: t.author, createdAt: t.createdAt, postType: t.postType })
            .from(t)
            .where(
              and(
                eq(sql`lower(${t.author})`, author),
                gte(t.createdAt, new Date(at.getTime() - REPOST_WINDOW_MS)),
                or(lt(t.createdAt, at), and(eq(t.createdAt, at), lt(t.id, post.id))),
                eq(t.forum, post.forum),
              ),
            )
            .orderBy(desc(t.createdAt), desc(t.id))
            .limit(CANDIDATES)
    const earlier = recent.find((c) => isSameListing({ author: c.author, title: c.title, createdAt: c.createdAt.getTime(), postType: c.postType }, post))
    post.listingId = earlier ? (earlier.listingId ?? earlier.id) : null
    if (post.listingId !== null) await db.update(t).set({ listingId: post.listingId }).where(eq(t.id, post.id))
  }
}
