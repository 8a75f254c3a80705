// A subscriber's matches: list (newest first, cursor pages), mark read, archive, mark all read,
// unread counts. Every query is scoped to the user: another user's match id is simply not found.
// Changes are announced on the bus (match.updated, then unread) for the socket hub.
import { highlight } from '../matching/highlight'
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches, type Match } from '../db/schema'
import type { Category } from '../access/categories'
import type { MatchItem, UnreadCounts } from '../contract/events'
import type { Deps } from '../deps'
import type { PriceDrop } from '../forums/price-history'
import { notFound } from '../lib/errors'
import { httpUrl } from '../lib/urls'
import { asPostState } from '../forums/post-state'
import { attachListing } from './listing'
import { foundAuthors } from '../forums/authors'
import { postFactsOf } from '../forums/store'
import { sourceKindsOf } from '../sources/store'
import { sellerTrust } from '../forums/seller'
import { claimDelays, stampClaim, type ClaimAction } from '../metrics/latency'
import { chunksOf } from '../lib/id-lists'

export type MatchRow = {
  id: number
  user_id: number
  post_id: number | null
  category: string
  matched_terms: string
  post_title: string
  post_url: string
  post_author: string
  post_created_at: number | null
  source: string
  created_at: number
  is_new: number
  archived_at: number | null
  link_url?: string | null
  /** posts.state, joined (missing: the post is gone, shown as open) */
  post_state?: string | null
  /** JSON {from, to} when the match alerted as a price drop */
  price_drop?: string | null
  /** posts.location, joined */
  post_location?: string | null
  /** posts.source_name, joined */
  post_source?: string | null
  /** sources.kind of the post's source, joined */
  post_source_kind?: string | null
  /** posts.price and posts.author_flair, joined */
  post_price?: number | null
  post_author_flair?: string | null
  /** reddit_authors.account_created_at / karma of the author, joined (null: not looked up) */
  author_created_at?: number | null
  author_karma?: number | null
}

/**
 * What every match read shows beside the match row: its post (still stored), the post's source and its author's
 * looked-up account (found), each read from its owner by id (src/forums/store.ts postFactsOf, src/sources/store.ts
 * sourceKindsOf, src/forums/authors.ts foundAuthors). A post, source or account not there leaves its fields null.
 */
export async function withPostFacts(deps: OwnerDb, rows: MatchRow[]): Promise<MatchRow[]> {
  if (rows.length === 0) return rows
  const posts = await postFactsOf(
    deps,
    rows.flatMap((r) => (r.post_id === null ? [] : [r.post_id])),
  )
  const kinds = await sourceKindsOf(
    deps,
    [...posts.values()].flatMap((p) => (p.source_id === null ? [] : [p.source_id])),
  )
  const authors = await foundAuthors(
    deps,
    rows.map((r) => r.post_author),
  )
  return rows.map((r) => {
    const p = r.post_id === null ? undefined : posts.get(r.post_id)
    const a = authors.get(r.post_author)
    return {
      ...r,
      link_url: p?.link_url ?? null,
      post_state: p?.state ?? null,
      post_location: p?.location ?? null,
      post_source: p?.source_name ?? null,
      post_source_kind: p === undefined || p.source_id === null ? null : (kinds.get(p.source_id) ?? null),
      post_price: p?.price ?? null,
      post_author_flair: p?.author_flair ?? null,
      author_created_at: a?.accountCreatedAt ?? null,
      author_karma: a?.karma ?? null,
    }
  })
}

/** A match as the builders read it, in the raw row form this folder's reads hand on (times in ms, `is_new` 0/1, JSON as text). */
export function matchRowOf(m: Match): MatchRow {
  return {
    id: m.id,
    user_id: m.userId,
    post_id: m.postId,
    category: m.category,
    matched_terms: JSON.stringify(m.matchedTerms),
    post_title: m.postTitle,
    post_url: m.postUrl,
    post_author: m.postAuthor,
    post_created_at: m.postCreatedAt === null ? null : m.postCreatedAt.getTime(),
    source: m.source,
    created_at: m.matchedAt.getTime(),
    is_new: m.isNew ? 1 : 0,
    archived_at: m.archivedAt === null ? null : m.archivedAt.getTime(),
    price_drop: m.priceDrop === null ? null : JSON.stringify(m.priceDrop),
  }
}

const SOURCE_KINDS = new Set(['reddit', 'feed', 'push'])

export function matchItem(r: MatchRow): MatchItem {
  const terms = JSON.parse(r.matched_terms) as string[]
  return {
    id: r.id,
    postId: r.post_id,
    title: r.post_title,
    url: r.post_url,
    linkUrl: httpUrl(r.link_url),
    author: r.post_author,
    /** match time */
    createdAt: new Date(r.created_at).toISOString(),
    postCreatedAt: r.post_created_at === null ? null : new Date(r.post_created_at).toISOString(),
    matchedTerms: terms,
    isNew: r.is_new === 1,
    category: r.category as Category,
    source: r.source,
    archivedAt: r.archived_at === null ? null : new Date(r.archived_at).toISOString(),
    state: asPostState(r.post_state),
    priceDrop: r.price_drop ? (JSON.parse(r.price_drop) as PriceDrop) : null,
    titleParts: highlight(r.post_title, terms),
    location: r.post_location ?? null,
    sourceName: r.post_source ?? null,
    sourceKind: r.post_source_kind && SOURCE_KINDS.has(r.post_source_kind) ? (r.post_source_kind as 'reddit' | 'feed' | 'push') : null,
    price: r.post_price ?? null,
    seller: sellerTrust(
      r.post_author_flair,
      r.author_created_at === undefined && r.author_karma === undefined
        ? null
        : { accountCreatedAt: r.author_created_at ?? null, karma: r.author_karma ?? null },
      r.post_created_at,
    ),
  }
}

export const DEFAULT_PAGE = 50
export const MAX_PAGE = 200

/** cursor = "<sort time ms>.<id>" of the last item of the previous page */
function parseCursor(cursor: string | undefined): [number, number] | null {
  if (!cursor) return null
  const m = /^(\d+)\.(\d+)$/.exec(cursor)
  return m ? [Number(m[1]), Number(m[2])] : null
}

export async function listMatches(
  deps: OwnerDb & Pick<Deps, 'sqlite'>,
  userId: number,
  opts: { category: Category; archived?: boolean; cursor?: string; limit?: number; q?: string },
): Promise<{ matches: MatchItem[]; nextCursor: string | null }> {
  const db = asAsync(deps.db)
  const limit = Math.max(1, Math.min(MAX_PAGE, opts.limit ?? DEFAULT_PAGE))
  const sortCol = opts.archived ? matches.archivedAt : matches.matchedAt
  const cursor = parseCursor(opts.cursor)
  const where: (SQL | undefined)[] = [
    eq(matches.userId, userId),
    eq(matches.category, opts.category),
    opts.archived ? isNotNull(matches.archivedAt) : isNull(matches.archivedAt),
  ]
  if (cursor) where.push(or(lt(sortCol, new Date(cursor[0])), and(eq(sortCol, new Date(cursor[0])), lt(matches.id, cursor[1]))))
  // Search: every word must appear in the title, the author or a matched term (case-insensitive); the
  // terms' JSON is read as its text (PostgreSQL's jsonb has no lower()).
  for (const word of (opts.q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8)) {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    where.push(
      sql`(lower(${matches.postTitle}) LIKE ${like} ESCAPE '\\' OR lower(${matches.postAuthor}) LIKE ${like} ESCAPE '\\' OR lower(CAST(${matches.matchedTerms} AS TEXT)) LIKE ${like} ESCAPE '\\')`,
    )
  }
  const rows = (
    await db
      .select()
      .from(matches)
      .where(and(...where))
      .orderBy(desc(sortCol), desc(matches.id))
      .limit(limit + 1)
  ).map(matchRowOf)
  const more = rows.length > limit
  const page = await withPostFacts(deps, rows.slice(0, limit))
  const last = page.at(-1)
  const nextCursor = more && last ? `${opts.archived ? last.archived_at : last.created_at}.${last.id}` : null
  const items = page.map(matchItem)
  await attachListing(deps, items)
  const claimed = await claimDelays(
    deps,
    items.map((i) => i.id),
  )
  for (const item of items) item.claimedAfterMs = claimed.get(item.id)?.ms ?? null
  return { matches: items, nextCursor }
}

export async function unreadCounts(deps: OwnerDb, userId: number): Promise<UnreadCounts> {
  const db = asAsync(deps.db)
  const counts: UnreadCounts = { wts: 0, wtb: 0, gd: 0 }
  const rows = await db
    .select({ category: matches.category, n: count() })
    .from(matches)
    .where(and(eq(matches.userId, userId), eq(matches.isNew, true), isNull(matches.archivedAt)))
    .groupBy(matches.category)
  for (const r of rows) if (r.category in counts) counts[r.category as Category] = r.n
  return counts
}

/** Unread counts of many users in one query per 500 (after a scan touched them). */
export async function unreadCountsOf(deps: OwnerDb, userIds: number[]): Promise<Map<number, UnreadCounts>> {
  const db = asAsync(deps.db)
  const out = new Map<number, UnreadCounts>()
  for (const id of userIds) out.set(id, { wts: 0, wtb: 0, gd: 0 })
  for (const ids of chunksOf(userIds)) {
    const rows = await db
      .select({ userId: matches.userId, category: matches.category, n: count() })
      .from(matches)
      .where(and(inArray(matches.userId, ids), eq(matches.isNew, true), isNull(matches.archivedAt)))
      .groupBy(matches.userId, matches.category)
    for (const r of rows) {
      const c = out.get(r.userId)
      if (c && r.category in c) c[r.category as Category] = r.n
    }
  }
  return out
}

export async function emitUnread(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number): Promise<UnreadCounts> {
  const counts = await unreadCounts(deps, userId)
  deps.bus.emit('unread', { userId, counts })
  return counts
}

async function ownMatch(deps: OwnerDb, userId: number, id: number): Promise<Match> {
  const db = asAsync(deps.db)
  const row = (
    await db
      .select()
      .from(matches)
      .where(and(eq(matches.id, id), eq(matches.userId, userId)))
      .limit(1)
  )[0]
  if (row === undefined) throw notFound('Match not found.', 'MATCH_NOT_FOUND')
  return row
}

const mine = (userId: number, id: number) => and(eq(matches.id, id), eq(matches.userId, userId))

export async function markRead(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number, id: number): Promise<{ id: number; isNew: false }> {
  const row = await ownMatch(deps, userId, id)
  if (row.isNew) {
    await asAsync(deps.db).update(matches).set({ isNew: false }).where(mine(userId, id))
    deps.bus.emit('match.updated', { userId, ids: [id], change: 'read' })
    await emitUnread(deps, userId)
  }
  return { id, isNew: false }
}

/** Marks one read match new again (the list's `m` key toggles); an archived match stays as it is. */
export async function markUnread(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number, id: number): Promise<{ id: number; isNew: boolean }> {
  const row = await ownMatch(deps, userId, id)
  if (row.isNew || row.archivedAt !== null) return { id, isNew: row.isNew }
  await asAsync(deps.db).update(matches).set({ isNew: true }).where(mine(userId, id))
  deps.bus.emit('match.updated', { userId, ids: [id], change: 'unread' })
  await emitUnread(deps, userId)
  return { id, isNew: true }
}

export async function archiveMatch(deps: OwnerDb & Pick<Deps, 'bus' | 'now'>, userId: number, id: number): Promise<{ id: number; archivedAt: string }> {
  const row = await ownMatch(deps, userId, id)
  const at = row.archivedAt?.getTime() ?? deps.now().getTime()
  if (row.archivedAt === null) {
    await asAsync(deps.db)
      .update(matches)
      .set({ archivedAt: new Date(at), isNew: false })
      .where(mine(userId, id))
    deps.bus.emit('match.updated', { userId, ids: [id], change: 'archived' })
    if (row.isNew) await emitUnread(deps, userId)
  }
  return { id, archivedAt: new Date(at).toISOString() }
}

/** Takes a match out of the archive: it is back in its category's list (read). */
export async function restoreMatch(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number, id: number): Promise<{ id: number; archivedAt: null }> {
  const row = await ownMatch(deps, userId, id)
  if (row.archivedAt !== null) {
    await asAsync(deps.db).update(matches).set({ archivedAt: null }).where(mine(userId, id))
    deps.bus.emit('match.updated', { userId, ids: [id], change: 'restored' })
  }
  return { id, archivedAt: null }
}

/** Spec RPC mark_all_matches_as_read: returns how many were new. */
export async function markAllRead(deps: OwnerDb & Pick<Deps, 'bus'>, userId: number, category: Category): Promise<{ count: number }> {
  const rows = await asAsync(deps.db)
    .update(matches)
    .set({ isNew: false })
    .where(and(eq(matches.userId, userId), eq(matches.category, category), eq(matches.isNew, true)))
    .returning({ id: matches.id })
  if (rows.length > 0) {
    deps.bus.emit('match.updated', { userId, ids: rows.map((r) => r.id), change: 'read' })
    await emitUnread(deps, userId)
  }
  return { count: rows.length }
}

/** What the claim link of one of the user's matches needs (src/notify/claim.ts ClaimPost), or null when it is not theirs. */
export async function claimFacts(
  deps: OwnerDb & Pick<Deps, 'sqlite'>,
  matchId: number,
  userId: number,
): Promise<{ title: string; url: string; author: string; price: number | null; kind: 'reddit' | 'feed' | 'push' | null } | null> {
  const r = (await asAsync(deps.db).select().from(matches).where(mine(userId, matchId)).limit(1))[0]
  if (r === undefined) return null
  const item = matchItem((await withPostFacts(deps, [matchRowOf(r)]))[0]!)
  return { title: item.title, url: item.url, author: item.author, price: item.price ?? null, kind: item.sourceKind ?? null }
}

/**
 * The match card's Claim / Open (POST /api/matches/:id/acted): the alert's first open or claim, from the app, once
 * (src/metrics/latency.ts stampClaim); the match is read. `recorded` is false for a later click or a match that never alerted.
 */
export async function actedOnMatch(
  deps: OwnerDb & Pick<Deps, 'now' | 'db' | 'sqlite' | 'bus'>,
  userId: number,
  id: number,
  action: ClaimAction,
): Promise<{ id: number; recorded: boolean }> {
  await ownMatch(deps, userId, id)
  const recorded = (await stampClaim(deps, id, userId, deps.now().getTime(), 'app', action)) !== null
  await markRead(deps, userId, id)
  return { id, recorded }
}
