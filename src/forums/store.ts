// Stores forum posts once by Reddit id and reads them back for the feed and the matcher.
// Posts are classified on the way in (classify.ts) and their title's location tag kept (posts.location, read by
// the title grammar: "[USA-TX]" → USA-TX); posts from neither configured forum are dropped.
// INSERT … ON CONFLICT(reddit_id) DO NOTHING RETURNING makes a re-served post a no-op, so the
// caller gets back exactly the rows that are new — those, and only those, are matched.
// A new post that reposts an earlier listing of its author is linked to it (repost-links.ts).
import type { Database } from 'bun:sqlite'
import type { Post } from '../db/schema'
import { isCategory, type Category } from '../access/categories'
import type { FeedItem } from '../contract/events'
import type { Deps } from '../deps'
import { classify, sameSubreddit, type Classification, type ForumNames } from './classify'
import { log } from '../lib/log'
import { linkReposts } from './repost-links'
import type { ForumPost } from './listing'
import { httpUrl } from '../lib/urls'
import { titleLocation } from '../matching/title-grammar'
import { asPostState, detectPostState, detectPrice } from './post-state'

/** The feed and matching look this far back. */
export const LIVE_WINDOW_MS = 7 * 24 * 3600_000

type PostRow = {
  id: number
  reddit_id: string
  forum: string
  subreddit: string
  title: string
  url: string
  link_url: string | null
  content: string
  author: string
  flair: string | null
  author_flair: string | null
  post_type: string | null
  classification: string | null
  created_at: number
  ingested_at: number
  state: string
  state_changed_at: number | null
  price: number | null
  rechecked_at: number | null
  recheck_count: number
  listing_id: number | null
  parse_error: string | null
  location: string | null
  source_id: number | null
  source_name: string | null
}

export type { PostRow }

export function rowToPost(r: PostRow): Post {
  return {
    id: r.id,
    redditId: r.reddit_id,
    forum: r.forum,
    subreddit: r.subreddit,
    title: r.title,
    url: r.url,
    linkUrl: httpUrl(r.link_url),
    content: r.content,
    author: r.author,
    flair: r.flair,
    authorFlair: r.author_flair,
    postType: r.post_type,
    classification: r.classification,
    createdAt: new Date(r.created_at),
    ingestedAt: new Date(r.ingested_at),
    state: r.state,
    stateChangedAt: r.state_changed_at === null ? null : new Date(r.state_changed_at),
    price: r.price,
    recheckedAt: r.rechecked_at === null ? null : new Date(r.rechecked_at),
    recheckCount: r.recheck_count,
    listingId: r.listing_id,
    location: r.location,
    parseError: r.parse_error,
    sourceId: r.source_id,
    sourceName: r.source_name,
  }
}

// A post stored already marked (title [SOLD], flair Pending …) gets its state at store time.
const INSERT = `INSERT INTO posts (reddit_id, forum, subreddit, title, url, link_url, content, author, flair, author_flair, post_type, classification, created_at, ingested_at, state, state_changed_at, price, parse_error, location, source_id, source_name)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(reddit_id) DO NOTHING RETURNING *`

/** Reading a post (classification, state, price, location) threw: it is stored unclassified with the reason, never matched. */
export type Read = { c: Classification; state: string; price: number | null; location: string | null; error: string | null }

/** How a post reads on the way in (its forum, category, state, price, location), or null for neither forum: what is stored, and what 'Fetch now' shows. */
export function readPost(p: ForumPost, forums: ForumNames): Read | null {
  try {
    const c = classify(p, forums)
    if (c === null) return null
    return { c, state: detectPostState(p), price: detectPrice(p.title, p.content), location: titleLocation(p.title), error: null }
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err)
    log.error('post could not be read: stored unparsed', { redditId: p.redditId, error })
    const forum = p.forum ?? (sameSubreddit(p.subreddit, forums.deals) ? 'gd' : 'product')
    return { c: { forum, postType: null, classification: null }, state: 'open', price: null, location: null, error }
  }
}

/** Marks a stored post unparsed (matching it threw): it leaves the feed and is never matched again. */
export function markUnparsed(sqlite: Database, postId: number, error: string): void {
  sqlite.query('UPDATE posts SET parse_error = ?, post_type = NULL WHERE id = ?').run(error.slice(0, 500), postId)
}

/** Stores the posts not seen before (one transaction) and returns those rows, oldest first. */
export function storePosts(deps: Pick<Deps, 'sqlite' | 'config' | 'now'>, posts: ForumPost[]): Post[] {
  if (posts.length === 0) return []
  const forums: ForumNames = deps.config.forums
  const ingestedAt = deps.now().getTime()
  const stmt = deps.sqlite.query<PostRow, (string | number | null)[]>(INSERT)
  const inserted: Post[] = []
  deps.sqlite.transaction(() => {
    for (const p of posts) {
      const read = readPost(p, forums)
      if (read === null) continue
      const { c, state } = read
      const row = stmt.get(
        p.redditId,
        c.forum,
        p.subreddit,
        p.title,
        p.url,
        p.linkUrl === p.url ? null : p.linkUrl,
        p.content,
        p.author,
        p.flair,
        p.authorFlair ?? null,
        c.postType,
        c.classification,
        p.createdAt.getTime(),
        ingestedAt,
        state,
        state === 'open' ? null : ingestedAt,
        read.price,
        read.error,
        read.location,
        p.sourceId ?? null,
        p.sourceName ?? null,
      )
      if (row) inserted.push(rowToPost(row))
    }
    inserted.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
    linkReposts(deps.sqlite, inserted)
  })()
  return inserted
}

/** A cheap "have we stored this Reddit id?" for catch-up paging. */
export function knownPosts(sqlite: Database): (redditId: string) => boolean {
  const stmt = sqlite.query<{ one: number }, [string]>('SELECT 1 AS one FROM posts WHERE reddit_id = ?')
  return (redditId) => stmt.get(redditId) !== null
}

/**
 * The creation times (ms) of the stored posts just before and just after an id Dibs has not stored.
 * Reddit's ids grow with time, so a post it cannot read was made between the two (the explainer).
 */
export function storedAround(sqlite: Database, redditId: string): { before: number | null; after: number | null } {
  const near = (op: '<' | '>', dir: 'DESC' | 'ASC') =>
    sqlite
      .query<{ at: number }, [string, string]>(
        `SELECT created_at AS at FROM posts WHERE reddit_id ${op} ?1 AND length(reddit_id) = length(?2) ORDER BY reddit_id ${dir} LIMIT 1`,
      )
      .get(redditId, redditId)?.at ?? null
  return { before: near('<', 'DESC'), after: near('>', 'ASC') }
}

/** The creation time (ms) of the newest post stored from a source, or null (a feed's coverage gaps). */
export function newestOfSource(sqlite: Database, sourceId: number): number | null {
  return sqlite.query<{ at: number | null }, [number]>('SELECT max(created_at) AS at FROM posts WHERE source_id = ?').get(sourceId)?.at ?? null
}

/**
 * The creation time (ms) of the newest post stored from any of these subreddits (names in lower case),
 * or null (a poll's coverage gaps, src/scanner/gaps.ts). posts_created, walked from the newest, stops
 * at the first post of one of them.
 */
export function newestOfSubreddits(sqlite: Database, lowerSubreddits: string[]): number | null {
  if (lowerSubreddits.length === 0) return null
  const row = sqlite
    .query<{ at: number }, string[]>(
      `SELECT created_at AS at FROM posts WHERE lower(subreddit) IN (${lowerSubreddits.map(() => '?').join(', ')}) ORDER BY created_at DESC LIMIT 1`,
    )
    .get(...lowerSubreddits)
  return row?.at ?? null
}

export function hasAnyPost(sqlite: Database): boolean {
  return sqlite.query('SELECT 1 FROM posts LIMIT 1').get() !== null
}

/** Posts of a category created since `since`, oldest first (batch matching, term backfill). */
export function recentPosts(sqlite: Database, since: Date, category?: Category): Post[] {
  const rows = category
    ? sqlite
        .query<PostRow, [string, number]>('SELECT * FROM posts WHERE post_type = ? AND created_at >= ? ORDER BY created_at, id')
        .all(category, since.getTime())
    : sqlite.query<PostRow, [number]>('SELECT * FROM posts WHERE post_type IS NOT NULL AND created_at >= ? ORDER BY created_at, id').all(since.getTime())
  return rows.map(rowToPost)
}

/** The public shape of a post (live feed, `post.new`). */
export function feedItem(p: Post): FeedItem {
  return {
    id: p.id,
    redditId: p.redditId,
    title: p.title,
    url: p.url,
    linkUrl: p.linkUrl,
    content: p.content,
    author: p.author,
    subreddit: p.subreddit,
    forum: p.forum,
    postType: isCategory(p.postType) ? p.postType : null,
    createdAt: p.createdAt.toISOString(),
    state: asPostState(p.state),
    location: p.location,
    source: p.sourceName,
  }
}
