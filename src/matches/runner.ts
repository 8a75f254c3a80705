// Match runner: stored posts → candidate terms (the TermIndex) → matches in ONE synchronous SQLite
// transaction → bus events after the commit.
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
import { restorePointAt } from '../settings/restore-point'
import type { Post } from '../db/schema'
import type { Deps } from '../deps'
import { applyMatchDefaults } from './defaults'
import { attachListing, dropAt, listingMatchOf, moveToRepost } from './listing'
import { oweAlerts } from './owed'
import type { WithMatcher } from './matcher'
import { matchItem, unreadCountsOf, type MatchRow } from './service'
import { insertAlertRows, type Stamps } from '../metrics/latency'
import { markUnparsed } from '../forums/store'
import { authorAbout } from '../forums/authors'
import { blockedSellerSet } from '../forums/blocked-sellers'
import { normalizeAuthor } from '../matching/prepare'
import { log } from '../lib/log'
import type { TermRef } from '../matching/term-index'
import { sourceKindsOf } from '../sources/store'
import { existingTermIds } from '../terms/store'

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
export function findHits(deps: Pick<Deps, 'sqlite'> & WithMatcher, posts: Post[], opts: { observe?: boolean } = {}): Hit[] {
  const { matcher } = deps
  matcher.sync()
  const hits: Hit[] = []
  // Sellers the admin never alerts on (src/forums/blocked-sellers.ts): their posts meet no term.
  const blocked = blockedSellerSet(deps.sqlite)
  for (const post of posts) {
    if (!isCategory(post.postType)) continue
    if (blocked.size > 0 && blocked.has(normalizeAuthor(post.author))) continue
    let refs: TermRef[]
    try {
      const prepared = matcher.prepare(post)
      if (opts.observe) matcher.index.observe(prepared)
      refs = matcher.match(prepared, post.postType)
    } catch (err) {
      // One post must never stop the scan: it is marked unparsed (admins see it on the Logs page), the rest go on.
      const error = err instanceof Error ? err.message : String(err)
      log.error('post could not be matched: marked unparsed', { redditId: post.redditId, error })
      markUnparsed(deps.sqlite, post.id, error)
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
 * admin tool) would break the match_terms foreign key: drop them from the hits and the index.
 */
function dropDeletedTerms(deps: Pick<Deps, 'sqlite'> & WithMatcher, hits: Hit[]): Hit[] {
  if (hits.length === 0) return hits
  const ids = [...new Set(hits.flatMap((h) => h.terms.map((t) => t.id)))]
  const existing = existingTermIds(deps.sqlite, ids)
  if (existing.size === ids.length) return hits
  deps.matcher.forgetMissing(existing, ids)
  return hits.map((h) => ({ ...h, terms: h.terms.filter((t) => existing.has(t.id)) })).filter((h) => h.terms.length > 0)
}

/** Access of the users (among ids) who are not banned; ADMIN_EMAILS count as admins. */
function accessOf(deps: Pick<Deps, 'db' | 'config'>, ids: number[]): Map<number, AccessState> {
  const out = new Map<number, AccessState>()
  for (const { user, access } of usersWithAccess(deps, ids)) if (user.bannedAt === null) out.set(user.id, access)
  return out
}

const INSERT_MATCH = `INSERT INTO matches (user_id, post_id, category, matched_terms, post_title, post_url, post_author, post_created_at, source, created_at, is_new, price_drop)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, post_id) DO NOTHING`

/** Stores hits in one transaction; returns what was created (events are the caller's, after commit). */
export function recordMatches(deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config'>, hits: Hit[], source: MatchSource, stamps?: Stamps): RecordResult {
  const result: RecordResult = { created: [], updated: 0, users: new Set(), removed: [] }
  hits = applyMatchDefaults(deps.sqlite, hits)
  if (hits.length === 0) return result
  const now = deps.now()
  let access: Map<number, AccessState> | null = null
  if (source !== 'backfill') access = accessOf(deps, [...new Set(hits.map((h) => h.userId))])
  const restoredUpTo = source === 'live' ? restorePointAt(deps.sqlite) : null

  const insert = deps.sqlite.query<never, (string | number | null)[]>(INSERT_MATCH)
  const existing = deps.sqlite.query<{ id: number; matched_terms: string }, [number, number]>(
    'SELECT id, matched_terms FROM matches WHERE user_id = ? AND post_id = ?',
  )
  const setTerms = deps.sqlite.query('UPDATE matches SET matched_terms = ? WHERE id = ?')
  const link = deps.sqlite.query('INSERT OR IGNORE INTO match_terms (match_id, term_id) VALUES (?, ?)')

  // a repost's price drop depends on the post alone: read once, whatever the number of users it reaches
  const drops = new Map<number, PriceDrop | null>()
  // the source kind (claim links) and the author's looked-up account (seller trust) of the alerts' items
  const kinds = new Map<number, string>()
  const sourceKind = (id: number) => {
    if (!kinds.has(id)) kinds.set(id, sourceKindsOf(deps.sqlite, [id]).get(id) ?? '')
    return kinds.get(id) || null
  }
  const aboutOf = (author: string) => {
    const a = authorAbout(deps.sqlite, author)
    return a ? { author_created_at: a.accountCreatedAt, author_karma: a.karma } : {}
  }
  deps.sqlite.transaction(() => {
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
      const termsJson = JSON.stringify(texts)
      // Rule 7: the user's match on an earlier post of this listing
      const known = listingMatchOf(deps.sqlite, userId, post)
      let drop: PriceDrop | null = null
      if (known !== null && known.post_id !== post.id) {
        if ((known.post_created_at ?? 0) > postTime) continue // a newer post of the listing is matched already
        const merged = [...new Set([...(JSON.parse(known.matched_terms) as string[]), ...texts])]
        if (!drops.has(post.id)) drops.set(post.id, dropAt(deps.sqlite, post))
        drop = drops.get(post.id) ?? null
        if (drop === null) {
          moveToRepost(deps.sqlite, known.id, post, merged)
          const pending = result.created.find((c) => c.item.id === known.id)
          if (pending)
            Object.assign(pending.item, { postId: post.id, title: post.title, url: post.url, author: post.author, postCreatedAt: post.createdAt.toISOString() })
          for (const t of hit.terms) link.run(known.id, t.id)
          result.updated++
          continue
        }
        deps.sqlite.query('DELETE FROM matches WHERE id = ?').run(known.id)
        const i = result.created.findIndex((c) => c.item.id === known.id)
        if (i >= 0) result.created.splice(i, 1)
        else result.removed.push({ userId, id: known.id })
      }
      const dropJson = drop === null ? null : JSON.stringify(drop)
      const res = insert.run(userId, post.id, category, termsJson, post.title, post.url, post.author, postTime, source, now.getTime(), isNew ? 1 : 0, dropJson)
      let matchId: number
      if (res.changes === 1) {
        matchId = Number(res.lastInsertRowid)
        const row: MatchRow = {
          id: matchId,
          user_id: userId,
          post_id: post.id,
          category,
          matched_terms: termsJson,
          post_title: post.title,
          post_url: post.url,
          post_author: post.author,
          post_created_at: postTime,
          source,
          created_at: now.getTime(),
          is_new: isNew ? 1 : 0,
          archived_at: null,
          link_url: post.linkUrl,
          post_state: post.state,
          price_drop: dropJson,
          post_location: post.location,
          post_source: post.sourceName,
          post_source_kind: post.sourceId === null ? null : sourceKind(post.sourceId),
          post_price: post.price,
          post_author_flair: post.authorFlair,
          ...aboutOf(post.author),
        }
        result.created.push({ item: matchItem(row), userId, notify })
        result.users.add(userId)
      } else {
        const old = existing.get(userId, post.id)
        if (old === null) continue
        matchId = old.id
        const before = JSON.parse(old.matched_terms) as string[]
        const merged = [...new Set([...before, ...texts])]
        if (merged.length !== before.length) {
          setTerms.run(JSON.stringify(merged), matchId)
          result.updated++
        }
      }
      for (const t of hit.terms) link.run(matchId, t.id)
    }
    attachListing(
      deps.sqlite,
      result.created.map((c) => c.item),
    )
    // Alert latency rows (src/metrics/latency.ts) in the same transaction: one prepared insert per alert.
    if (stamps) insertAlertRows(deps.sqlite, result.created, stamps, now.getTime())
    // The alerts these matches owe, settled by the dispatcher's transaction that queues them (owed.ts).
    oweAlerts(
      deps.sqlite,
      result.created.filter((c) => c.notify).map((c) => c.item.id),
      now.getTime(),
    )
  })()
  return result
}

/** After the commit: 'removed' for matches a price drop replaced, match.new per created match, then one unread per touched user. */
export function announceMatches(deps: Pick<Deps, 'sqlite' | 'bus'>, result: RecordResult): void {
  for (const r of result.removed) deps.bus.emit('match.updated', { userId: r.userId, ids: [r.id], change: 'removed' })
  for (const c of result.created) deps.bus.emit('match.new', { userId: c.userId, match: c.item, notify: c.notify })
  if (result.users.size === 0) return
  const counts = unreadCountsOf(deps.sqlite, [...result.users])
  for (const userId of result.users) deps.bus.emit('unread', { userId, counts: counts.get(userId)! })
}

/** New posts from a scan (live) or a batch run → stored matches + events. Returns matches created. */
export function matchPosts(deps: Deps & WithMatcher, posts: Post[], source: 'live' | 'batch', stamps?: Stamps): RecordResult {
  const result = recordMatches(deps, findHits(deps, posts, { observe: source === 'live' }), source, stamps)
  announceMatches(deps, result)
  return result
}
