// Stores forum posts once by Reddit id and reads them back for the feed and the matcher.
// Posts are classified on the way in (classify.ts) and their title's location tag kept (posts.location, read by
// the title grammar: "[USA-TX]" → USA-TX); posts from neither configured forum are dropped.
// INSERT … ON CONFLICT(reddit_id) DO NOTHING RETURNING makes a re-served post a no-op, so the
// caller gets back exactly the rows that are new — those, and only those, are matched.
// A new post that reposts an earlier listing of its author is linked to it (repost-links.ts).
import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, lt, lte, max, ne, or, sql, type SQLWrapper } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import type { OwnerDb } from '../db/async-db'
import { posts, type Post } from '../db/schema'
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
import { chunksOf } from '../lib/id-lists'
import { rawRow, rawRows } from '../db/raw'
import { insertMany } from '../db/bulk'

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

/** A post as the builders read it, its outbound link checked as rowToPost checks it. */
const asPost = (p: Post): Post => ({ ...p, linkUrl: httpUrl(p.linkUrl) })

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
export async function markUnparsed(deps: OwnerDb, postId: number, error: string): Promise<void> {
  await asAsync(deps.db)
    .update(posts)
    .set({ parseError: error.slice(0, 500), postType: null })
    .where(eq(posts.id, postId))
}

/**
 * Stores the posts not seen before and returns those rows, oldest first: one transaction per batch, each slice of
 * 500 rows one multi-row INSERT … ON CONFLICT (reddit_id) DO NOTHING RETURNING, then the repost links.
 */
export async function storePosts(deps: OwnerDb & Pick<Deps, 'config' | 'now'>, list: ForumPost[]): Promise<Post[]> {
  if (list.length === 0) return []
  const forums: ForumNames = deps.config.forums
  const ingestedAt = deps.now()
  const rows: (typeof posts.$inferInsert)[] = []
  // a Reddit id twice in one batch: the first is stored (as the row-by-row insert did)
  const seen = new Set<string>()
  for (const p of list) {
    if (seen.has(p.redditId)) continue
    const read = readPost(p, forums)
    if (read === null) continue
    seen.add(p.redditId)
    const { c, state } = read
    // A post stored already marked (title [SOLD], flair Pending …) gets its state at store time.
    rows.push({
      redditId: p.redditId,
      forum: c.forum,
      subreddit: p.subreddit,
      title: p.title,
      url: p.url,
      linkUrl: p.linkUrl === p.url ? null : p.linkUrl,
      content: p.content,
      author: p.author,
      flair: p.flair,
      authorFlair: p.authorFlair ?? null,
      postType: c.postType,
      classification: c.classification,
      createdAt: p.createdAt,
      ingestedAt,
      state,
      stateChangedAt: state === 'open' ? null : ingestedAt,
      price: read.price,
      parseError: read.error,
      location: read.location,
      sourceId: p.sourceId ?? null,
      sourceName: p.sourceName ?? null,
    })
  }
  if (rows.length === 0) return []
  return asAsync(deps.db).transaction(async (tx) => {
    const inserted: Post[] = []
    for (const row of await insertMany(tx, posts, rows, { onConflictDoNothing: [posts.redditId], returning: getTableColumns(posts) }))
      inserted.push(asPost(row))
    inserted.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
    await linkReposts({ db: tx }, inserted)
    return inserted
  })
}

/** A cheap "have we stored this Reddit id?" for catch-up paging. */
export function knownPosts(deps: OwnerDb): (redditId: string) => Promise<boolean> {
  const db = asAsync(deps.db)
  return async (redditId) => (await db.select({ id: posts.id }).from(posts).where(eq(posts.redditId, redditId)).limit(1)).length > 0
}

/**
 * The creation times (ms) of the stored posts just before and just after an id Dibs has not stored.
 * Reddit's ids grow with time, so a post it cannot read was made between the two (the explainer).
 */
export async function storedAround(deps: OwnerDb, redditId: string): Promise<{ before: number | null; after: number | null }> {
  const db = asAsync(deps.db)
  const sameLength = sql`length(${posts.redditId}) = ${redditId.length}`
  const near = async (after: boolean) => {
    const [row] = await db
      .select({ at: posts.createdAt })
      .from(posts)
      .where(and(after ? gt(posts.redditId, redditId) : lt(posts.redditId, redditId), sameLength))
      .orderBy(after ? asc(posts.redditId) : desc(posts.redditId))
      .limit(1)
    return row?.at.getTime() ?? null
  }
  return { before: await near(false), after: await near(true) }
}

/** The creation time (ms) of the newest post stored from a source, or null (a feed's coverage gaps). */
export async function newestOfSource(deps: OwnerDb, sourceId: number): Promise<number | null> {
  const [row] = await asAsync(deps.db)
    .select({ at: max(posts.createdAt) })
    .from(posts)
    .where(eq(posts.sourceId, sourceId))
  return row?.at?.getTime() ?? null
}

/**
 * The creation time (ms) of the newest post stored from any of these subreddits (names in lower case),
 * or null (a poll's coverage gaps, src/scanner/gaps.ts). posts_created, walked from the newest, stops
 * at the first post of one of them.
 */
export async function newestOfSubreddits(deps: OwnerDb, lowerSubreddits: string[]): Promise<number | null> {
  if (lowerSubreddits.length === 0) return null
  const [row] = await asAsync(deps.db)
    .select({ at: posts.createdAt })
    .from(posts)
    .where(inArray(sql`lower(${posts.subreddit})`, lowerSubreddits))
    .orderBy(desc(posts.createdAt))
    .limit(1)
  return row?.at.getTime() ?? null
}

export async function hasAnyPost(deps: OwnerDb): Promise<boolean> {
  return (await asAsync(deps.db).select({ id: posts.id }).from(posts).limit(1)).length > 0
}

/** Posts of a category created since `since`, oldest first (batch matching, term backfill). */
export async function recentPosts(deps: OwnerDb, since: Date, category?: Category): Promise<Post[]> {
  const typed = category ? sql`${posts.postType} = ${category}` : sql`${posts.postType} IS NOT NULL`
  const rows = await rawRows<PostRow>(
    asAsync(deps.db),
    sql`SELECT * FROM ${posts} WHERE ${typed} AND ${posts.createdAt} >= ${since.getTime()} ORDER BY ${posts.createdAt}, ${posts.id}`,
  )
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

// — Reads of posts for src/matches/ (issue 29 §1: the posts' SQL stays here; the matches folder reads through these) —

/** How many posts a page of recentPostTexts reads (the term index's rarity warm-up holds one page at a time). */
const TEXT_PAGE = 500

/**
 * The text of the newest classified posts created since `since`, at most `limit`, newest first, read a page at a
 * time (keyset on created time and id: no thousands of post bodies held at once) — the term index's token rarity
 * at load (src/matches/matcher.ts).
 */
export async function* recentPostTexts(
  deps: OwnerDb,
  since: number,
  limit: number,
): AsyncGenerator<{ title: string; content: string; author: string | null; flair: string | null }> {
  const db = asAsync(deps.db)
  let after: { at: Date; id: number } | null = null
  let left = limit
  while (left > 0) {
    const rows = await db
      .select({ id: posts.id, at: posts.createdAt, title: posts.title, content: posts.content, author: posts.author, flair: posts.flair })
      .from(posts)
      .where(
        and(
          isNotNull(posts.postType),
          gte(posts.createdAt, new Date(since)),
          after === null ? undefined : lte(posts.createdAt, after.at),
          after === null ? undefined : or(lt(posts.createdAt, after.at), lt(posts.id, after.id)),
        ),
      )
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(Math.min(TEXT_PAGE, left))
    for (const r of rows) yield { title: r.title, content: r.content, author: r.author, flair: r.flair }
    const last = rows.at(-1)
    if (last === undefined || rows.length < Math.min(TEXT_PAGE, left)) return
    left -= rows.length
    after = { at: last.at, id: last.id }
  }
}

/** What a match card and a feed entry show of a match's post, beyond what the match row copied. */
export type PostFacts = {
  link_url: string | null
  state: string
  location: string | null
  source_id: number | null
  source_name: string | null
  price: number | null
  author_flair: string | null
  subreddit: string
  content: string
}

/** The facts of the posts `ids` (those still stored), by id; read 500 at a time. */
export async function postFactsOf(deps: OwnerDb, ids: readonly number[]): Promise<Map<number, PostFacts>> {
  const db = asAsync(deps.db)
  const out = new Map<number, PostFacts>()
  const unique = [...new Set(ids)]
  for (const chunk of chunksOf(unique))
    for (const r of await db
      .select({
        id: posts.id,
        link_url: posts.linkUrl,
        state: posts.state,
        location: posts.location,
        source_id: posts.sourceId,
        source_name: posts.sourceName,
        price: posts.price,
        author_flair: posts.authorFlair,
        subreddit: posts.subreddit,
        content: posts.content,
      })
      .from(posts)
      .where(inArray(posts.id, chunk))) {
      const { id, ...facts } = r
      out.set(id, facts)
    }
  return out
}

// ── Reads of the alert path (src/notify/, src/explain/: issue 29 §1, one owner per table) ──

/** A stored post by its Reddit id (the explainer), or null. */
export async function postByRedditId(deps: OwnerDb, redditId: string): Promise<Post | null> {
  const row = await rawRow<PostRow>(asAsync(deps.db), sql`SELECT * FROM ${posts} WHERE ${posts.redditId} = ${redditId}`)
  return row ? rowToPost(row) : null
}

/**
 * The newest stored post whose link (url or link_url) is `bare` with or without one trailing slash:
 * how the explainer finds a forum feed's or a pushed post, which Dibs cannot read by id.
 */
export async function postByLink(deps: OwnerDb, bare: string): Promise<Post | null> {
  const row = await rawRow<PostRow>(
    asAsync(deps.db),
    sql`SELECT * FROM ${posts} WHERE ${posts.url} IN (${bare}, ${`${bare}/`}) OR ${posts.linkUrl} IN (${bare}, ${`${bare}/`}) ORDER BY ${posts.id} DESC LIMIT 1`,
  )
  return row ? rowToPost(row) : null
}

/** The listing price stored with a post (posts.price: its title's item price, or a price edit in the body); null when none or no such post. */
export async function postPrice(deps: OwnerDb, postId: number): Promise<number | null> {
  const [row] = await asAsync(deps.db).select({ price: posts.price }).from(posts).where(eq(posts.id, postId)).limit(1)
  return row?.price ?? null
}

/** A post's stored listing state (open | pending | sold | removed), or null when there is no such post. */
export async function postStateOf(deps: OwnerDb, postId: number): Promise<string | null> {
  const [row] = await asAsync(deps.db).select({ state: posts.state }).from(posts).where(eq(posts.id, postId)).limit(1)
  return row?.state ?? null
}

/** The Reddit ids of stored posts by post id (ids with no post are absent). */
export async function redditIdsOf(deps: OwnerDb, postIds: readonly number[]): Promise<Map<number, string>> {
  const db = asAsync(deps.db)
  const out = new Map<number, string>()
  for (const chunk of chunksOf([...new Set(postIds)]))
    for (const p of await db.select({ id: posts.id, redditId: posts.redditId }).from(posts).where(inArray(posts.id, chunk))) out.set(p.id, p.redditId)
  return out
}

/**
 * A subquery for EXISTS / NOT EXISTS: the post `postId` (a column or expression of the outer query) when it is no
 * longer open (pending sale, sold or removed: the re-check, src/scanner/recheck.ts). The digest leaves those out.
 */
export function postNotOpen(deps: Pick<Deps, 'db'>, postId: SQLWrapper) {
  return asAsync(deps.db)
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, postId), ne(posts.state, 'open')))
}

/** One stored post by id, or null (another node's `post.new` read back: src/cluster/fanout-load.ts). */
export async function postById(deps: OwnerDb, id: number): Promise<Post | null> {
  const [row] = await asAsync(deps.db).select().from(posts).where(eq(posts.id, id)).limit(1)
  return row ? asPost(row) : null
}
