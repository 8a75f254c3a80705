// Match runner: stored posts → candidate terms (the TermIndex) → matches in ONE transaction (multi-row
// statements: one insert of matches and one of their term links per 500) → bus events after the commit.
//
// Rules, in order:
//   1. A post only meets terms of its own category (wts / wtb / gd); unclassified posts meet none.
//   2. Live and batch runs skip users who cannot use the category now (lapsed plan, banned):
//      nothing is stored for them. Backfill (a term just added through the API) was checked there.
//   3. One match per (user, post): the terms that matched are all recorded (matched_terms JSON and
//      one match_terms row each). A second run over the same post only adds terms it lacked.
//   4. A match alerts (`is_new`, `match.new` with notify: true) only when it is live and the post
//      was created after at least one of its terms existed. Older posts — the term was saved
//      later — are stored as already read and never notified. Backfill never alerts.
//   5. After a restored backup, a post created up to the restore point (src/db/restore.ts) was
//      already seen, and alerted, by the database the backup replaced: it is matched, but does
//      not notify again.
//   6. Each user's matching defaults (defaults.ts: skip SOLD/PENDING posts, always-excluded words)
//      drop hits before anything is stored — live, batch and backfill alike.
//   7. One match per user and LISTING (listing.ts): a repost of a listing the user has a match on
//      moves that match (a bump: no alert) or, when its title price is lower, replaces it with a
//      match that alerts as 'Price drop: $450 → $400' under rules 4–5.
import { canUseCategory, type AccessState } from '../access/rules'
import { usersWithAccess } from '../access/state'
import { isCategory, type Category } from '../access/categories'
import type { MatchItem } from '../contract/events'
import type { PriceDrop } from '../forums/price-history'
import { restoredUpTo as restoredUpToAt } from '../settings/restore-point'
import type { Post } from '../db/schema'
import type { Deps } from '../deps'
import { applyMatchDefaults } from './defaults'
import { attachListing, dropAt, listingMatchOf, moveToRepost } from './listing'
import { oweAlerts } from './owed'
import type { WithMatcher } from './matcher'
import { matchItem, unreadCountsOf, type MatchRow } from './service'
import { insertAlertRows, type Stamps } from '../metrics/latency'
import { markUnparsed } from '../forums/store'
import { authorsAbout } from '../forums/authors'
import { blockedSellerSet } from '../forums/blocked-sellers'
import { normalizeAuthor } from '../matching/prepare'
import { log } from '../lib/log'
import type { TermRef } from '../matching/term-index'
import { sourceKindsOf } from '../sources/store'
import { and, eq, inArray } from 'drizzle-orm'
import type { AsyncDb, OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches, matchTerms } from '../db/schema'
import { existingTermIds } from '../terms/store'
import { insertMany } from '../db/bulk'

export type MatchSource = 'live' | 'backfill' | 'batch'
export type HitTerm = { id: number; text: string; createdAt: number }
export type Hit = { userId: number; post: Post; terms: HitTerm[] }
export type RecordResult = {
  created: { item: MatchItem; userId: number; notify: boolean }[]
  updated: number
  users: Set<number>
  /** matches replaced by a price drop's match (rule 7), announced as 'removed' */
  removed: { userId: number; id: number }[]
}

/** Finds the hits of new posts through the process's term index. */
export async function findHits(deps: Pick<Deps, 'sqlite' | 'db'> & WithMatcher, posts: Post[], opts: { observe?: boolean } = {}): Promise<Hit[]> {
  const { matcher } = deps
  await matcher.sync()
  const hits: Hit[] = []
  // Sellers the admin never alerts on (src/forums/blocked-sellers.ts): their posts meet no term.
  const blocked = await blockedSellerSet(deps)
  // the authors' looked-up accounts (age>= / karma>= terms): one read for the batch
  const abouts = await authorsAbout(
    deps,
    posts.filter((p) => isCategory(p.postType)).map((p) => p.author),
  )
  for (const post of posts) {
    if (!isCategory(post.postType)) continue
    if (blocked.size > 0 && blocked.has(normalizeAuthor(post.author))) continue
    let refs: TermRef[]
    try {
      const prepared = matcher.prepare(post, abouts.get(post.author.toLowerCase()) ?? null)
      if (opts.observe) matcher.index.observe(prepared)
      refs = matcher.match(prepared, post.postType)
    } catch (err) {
      // One post must never stop the scan: it is marked unparsed (admins see it on the Logs page), the rest go on.
      const error = err instanceof Error ? err.message : String(err)
      log.error('post could not be matched: marked unparsed', { redditId: post.redditId, error })
      await markUnparsed(deps, post.id, error)
      continue
    }
    if (refs.length === 0) continue
    const byUser = new Map<number, HitTerm[]>()
    for (const r of refs) {
      const list = byUser.get(r.userId) ?? []
      list.push({ id: r.termId, text: r.text, createdAt: matcher.termCreatedAt(r.termId) })
      byUser.set(r.userId, list)
    }
    for (const [userId, terms] of byUser) hits.push({ userId, post, terms })
  }
  return dropDeletedTerms(deps, hits)
}

/**
 * Terms deleted in this process without the terms service (a user deleting their account, an
 * admin tool): the index forgets them. recordMatches checks again inside its transaction (A1).
 */
async function dropDeletedTerms(deps: OwnerDb & WithMatcher, hits: Hit[]): Promise<Hit[]> {
  if (hits.length === 0) return hits
  const ids = [...new Set(hits.flatMap((h) => h.terms.map((t) => t.id)))]
  const existing = await existingTermIds(deps, ids)
  if (existing.size === ids.length) return hits
  deps.matcher.forgetMissing(existing, ids)
  return withTerms(hits, existing)
}

/** The hits with only the terms among `existing`; a hit left with none goes. */
function withTerms(hits: Hit[], existing: Set<number>): Hit[] {
  return hits.map((h) => ({ ...h, terms: h.terms.filter((t) => existing.has(t.id)) })).filter((h) => h.terms.length > 0)
}

/** Access of the users (among ids) who are not banned; ADMIN_EMAILS count as admins. */
async function accessOf(deps: OwnerDb & Pick<Deps, 'config'>, ids: number[]): Promise<Map<number, AccessState>> {
  const out = new Map<number, AccessState>()
  for (const { user, access } of await usersWithAccess(deps, ids)) if (user.bannedAt === null) out.set(user.id, access)
  return out
}

type MatchInsert = typeof matches.$inferInsert
/** A hit's match row waiting for the batch's one insert, and what becomes of it. */
type Pending = { hit: Hit; row: MatchInsert; texts: string[]; notify: boolean; isNew: boolean }

/**
 * Stores hits in one transaction; returns what was created (events are the caller's, after commit).
 * The terms and the users' access are read inside it (A1 of docs/atomicity-audit.md): a term or
 * account deleted since the hits were found drops those hits only, never the batch.
 */
export async function recordMatches(
  deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'>,
  hits: Hit[],
  source: MatchSource,
  stamps?: Stamps,
): Promise<RecordResult> {
  const result: RecordResult = { created: [], updated: 0, users: new Set(), removed: [] }
  hits = await applyMatchDefaults(deps, hits)
  if (hits.length === 0) return result
  const now = deps.now()
  const restoredUpTo = source === 'live' ? await restoredUpToAt(deps) : null

  // a repost's price drop depends on the post alone: read once, whatever the number of users it reaches
  const drops = new Map<number, PriceDrop | null>()
  // the source kind (claim links) and the author's looked-up account (seller trust) of the alerts' items
  const kinds = await sourceKindsOf(
    deps,
    hits.flatMap((h) => (h.post.sourceId === null ? [] : [h.post.sourceId])),
  )
  const sourceKind = (id: number) => kinds.get(id) || null
  const abouts = await authorsAbout(
    deps,
    hits.map((h) => h.post.author),
  )
  const aboutOf = (author: string) => {
    const a = abouts.get(author.toLowerCase())
    return a ? { author_created_at: a.accountCreatedAt, author_karma: a.karma } : {}
  }
  const created = (p: Pending, matchId: number) => {
    const { post, userId } = p.hit
    const row: MatchRow = {
      id: matchId,
      user_id: userId,
      post_id: post.id,
      category: p.row.category,
      matched_terms: JSON.stringify(p.texts),
      post_title: post.title,
      post_url: post.url,
      post_author: post.author,
      post_created_at: post.createdAt.getTime(),
      source,
      created_at: now.getTime(),
      is_new: p.isNew ? 1 : 0,
      archived_at: null,
      link_url: post.linkUrl,
      post_state: post.state,
      price_drop: p.row.priceDrop ? JSON.stringify(p.row.priceDrop) : null,
      post_location: post.location,
      post_source: post.sourceName,
      post_source_kind: post.sourceId === null ? null : sourceKind(post.sourceId),
      post_price: post.price,
      post_author_flair: post.authorFlair,
      ...aboutOf(post.author),
    }
    result.created.push({ item: matchItem(row), userId, notify: p.notify })
    result.users.add(userId)
  }

  await asAsync(deps.db).transaction(async (tx) => {
    const db = { db: tx }
    const termIds = [...new Set(hits.flatMap((h) => h.terms.map((t) => t.id)))]
    const existing = await existingTermIds(db, termIds)
    if (existing.size !== termIds.length) hits = withTerms(hits, existing)
    const access = source === 'backfill' ? null : await accessOf({ db: tx, config: deps.config }, [...new Set(hits.map((h) => h.userId))])

    // Matches of posts that repost no listing wait here and are stored together (one insert per
    // 500, one insert of their term links); a repost's hit is decided alone (rule 7), after them.
    let pending: Pending[] = []
    const flush = async () => {
      if (pending.length === 0) return
      const batch = pending
      pending = []
      const ids = new Map<string, number>()
      for (const r of await insertMany(
        tx,
        matches,
        batch.map((p) => p.row),
        { onConflictDoNothing: [matches.userId, matches.postId], returning: { id: matches.id, userId: matches.userId, postId: matches.postId } },
      ))
        ids.set(`${r.userId}.${r.postId}`, r.id)
      const links: { matchId: number; termId: number }[] = []
      const merges: Pending[] = []
      for (const p of batch) {
        const key = `${p.hit.userId}.${p.hit.post.id}`
        const id = ids.get(key)
        ids.delete(key) // a second hit on the same (user, post) merges into the first
        if (id === undefined) merges.push(p)
        else {
          created(p, id)
          for (const t of p.hit.terms) links.push({ matchId: id, termId: t.id })
        }
      }
      // Matches already there (one per user and post): they gain the terms they lacked.
      const stored = new Map((await storedMatches(tx, merges)).map((m) => [`${m.userId}.${m.postId}`, m]))
      for (const p of merges) {
        const m = stored.get(`${p.hit.userId}.${p.hit.post.id}`)
        if (m === undefined) continue
        const merged = [...new Set([...m.matchedTerms, ...p.texts])]
        if (merged.length !== m.matchedTerms.length) {
          await tx.update(matches).set({ matchedTerms: merged }).where(eq(matches.id, m.id))
          m.matchedTerms = merged
          result.updated++
        }
        for (const t of p.hit.terms) links.push({ matchId: m.id, termId: t.id })
      }
      await linkTerms(tx, links)
    }

    for (const hit of hits) {
      const { post, userId } = hit
      const category = post.postType as Category
      if (access !== null) {
        const state = access.get(userId)
        if (!state || !canUseCategory(state, category, now)) continue
      }
      const postTime = post.createdAt.getTime()
      const fresh = hit.terms.some((t) => t.createdAt <= postTime)
      const notify = source === 'live' && fresh && (restoredUpTo === null || postTime > restoredUpTo)
      const isNew = source !== 'backfill' && fresh
      const texts = [...new Set(hit.terms.map((t) => t.text))]
      const row: MatchInsert = {
        userId,
        postId: post.id,
        category,
        matchedTerms: texts,
        postTitle: post.title,
        postUrl: post.url,
        postAuthor: post.author,
        postCreatedAt: post.createdAt,
        source,
        matchedAt: now,
        isNew,
        priceDrop: null,
      }
      if (post.listingId === null) {
        pending.push({ hit, row, texts, notify, isNew })
        continue
      }
      await flush()
      // Rule 7: the user's match on an earlier post of this listing
      const known = await listingMatchOf(db, userId, post)
      if (known !== null && known.postId !== post.id) {
        if ((known.postCreatedAt?.getTime() ?? 0) > postTime) continue // a newer post of the listing is matched already
        const merged = [...new Set([...known.matchedTerms, ...texts])]
        if (!drops.has(post.id)) drops.set(post.id, await dropAt(db, post))
        const drop = drops.get(post.id) ?? null
        if (drop === null) {
          await moveToRepost(db, known, post, merged)
          const made = result.created.find((c) => c.item.id === known.id)
          if (made)
            Object.assign(made.item, { postId: post.id, title: post.title, url: post.url, author: post.author, postCreatedAt: post.createdAt.toISOString() })
          await linkTerms(
            tx,
            hit.terms.map((t) => ({ matchId: known.id, termId: t.id })),
          )
          result.updated++
          continue
        }
        await tx.delete(matches).where(eq(matches.id, known.id))
        const i = result.created.findIndex((c) => c.item.id === known.id)
        if (i >= 0) result.created.splice(i, 1)
        else result.removed.push({ userId, id: known.id })
        row.priceDrop = drop
      }
      pending.push({ hit, row, texts, notify, isNew })
      await flush()
    }
    await flush()
    await attachListing(
      db,
      result.created.map((c) => c.item),
    )
    // Alert latency rows (src/metrics/latency.ts) in the same transaction: one multi-row insert.
    if (stamps) await insertAlertRows({ db: tx }, result.created, stamps, now.getTime())
    // The alerts these matches owe, settled by the dispatcher's transaction that queues them (owed.ts).
    await oweAlerts(
      db,
      result.created.filter((c) => c.notify).map((c) => c.item.id),
      now.getTime(),
    )
  })
  return result
}

/** The stored matches of these hits' (user, post) pairs. */
async function storedMatches(tx: AsyncDb, of: Pending[]) {
  if (of.length === 0) return []
  const users = [...new Set(of.map((p) => p.hit.userId))]
  const posts = [...new Set(of.map((p) => p.hit.post.id))]
  const wanted = new Set(of.map((p) => `${p.hit.userId}.${p.hit.post.id}`))
  const rows = await tx
    .select({ id: matches.id, userId: matches.userId, postId: matches.postId, matchedTerms: matches.matchedTerms })
    .from(matches)
    .where(and(inArray(matches.userId, users), inArray(matches.postId, posts)))
  return rows.filter((r) => wanted.has(`${r.userId}.${r.postId}`))
}

/** match_terms rows; a link already there is left as it is. */
async function linkTerms(tx: AsyncDb, links: { matchId: number; termId: number }[]): Promise<void> {
  await insertMany(tx, matchTerms, links, { onConflictDoNothing: true })
}

/** After the commit: 'removed' for matches a price drop replaced, match.new per created match, then one unread per touched user. */
export async function announceMatches(deps: Pick<Deps, 'db' | 'bus'>, result: RecordResult): Promise<void> {
  for (const r of result.removed) deps.bus.emit('match.updated', { userId: r.userId, ids: [r.id], change: 'removed' })
  for (const c of result.created) deps.bus.emit('match.new', { userId: c.userId, match: c.item, notify: c.notify })
  if (result.users.size === 0) return
  const counts = await unreadCountsOf(deps, [...result.users])
  for (const userId of result.users) deps.bus.emit('unread', { userId, counts: counts.get(userId)! })
}

/** New posts from a scan (live) or a batch run → stored matches + events. Returns matches created. */
export async function matchPosts(deps: Deps & WithMatcher, posts: Post[], source: 'live' | 'batch', stamps?: Stamps): Promise<RecordResult> {
  const result = await recordMatches(deps, await findHits(deps, posts, { observe: source === 'live' }), source, stamps)
  await announceMatches(deps, result)
  return result
}
