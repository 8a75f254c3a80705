// Counts over the stored matches for the admin pages (Trends, the dashboard, Users). This folder
// owns `matches` and `match_terms` (src/db/owners.json): the admin pages ask here.
import { and, count, countDistinct, desc, eq, gte, isNotNull, lt, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRows } from '../db/raw'
import { matches } from '../db/schema'

const DAY_MS = 86_400_000

/** Matches made since `sinceMs`, per UTC day (ms since the epoch / DAY_MS, floored) and category. */
export async function matchesPerDay(deps: OwnerDb, sinceMs: number): Promise<{ day: number; key: string; n: number }[]> {
  const db = asAsync(deps.db)
  // an integer over an integer is integer division on both engines
  const rows = await rawRows<{ day: number; key: string; n: number }>(
    db,
    sql`SELECT CAST(${matches.matchedAt} / ${DAY_MS} AS INTEGER) AS day, ${matches.category} AS key, count(*) AS n FROM ${matches} WHERE ${matches.matchedAt} >= ${sinceMs} GROUP BY day, key`,
  )
  return rows.map((r) => ({ day: Number(r.day), key: r.key, n: Number(r.n) }))
}

/**
 * Post → alert delay of live matches made since `sinceMs`: the match's time (its alert was queued then)
 * minus the post's time on Reddit, in ms (negative when the clocks disagree). Backfill and batch
 * matches were made long after their post on purpose and are left out. With `newest`, only that
 * many, newest first.
 */
export async function liveMatchDelays(deps: OwnerDb, sinceMs: number, newest?: number): Promise<{ at: number; ms: number }[]> {
  const db = asAsync(deps.db)
  const q = db
    .select({ at: matches.matchedAt, postAt: matches.postCreatedAt })
    .from(matches)
    .where(and(eq(matches.source, 'live'), isNotNull(matches.postCreatedAt), gte(matches.matchedAt, new Date(sinceMs))))
  const rows = newest === undefined ? await q : await q.orderBy(desc(matches.id)).limit(newest)
  return rows.map((r) => ({ at: r.at.getTime(), ms: r.at.getTime() - r.postAt!.getTime() }))
}

/** Matches made in [fromMs, toMs) (toMs open: up to now). */
export async function countMatches(deps: OwnerDb, fromMs?: number, toMs?: number): Promise<number> {
  const db = asAsync(deps.db)
  const where =
    fromMs === undefined ? undefined : and(gte(matches.matchedAt, new Date(fromMs)), toMs === undefined ? undefined : lt(matches.matchedAt, new Date(toMs)))
  return (await db.select({ n: count() }).from(matches).where(where))[0]?.n ?? 0
}

/** Accounts with at least one match made since `sinceMs`. */
export async function countMatchedUsers(deps: OwnerDb, sinceMs: number): Promise<number> {
  const db = asAsync(deps.db)
  return (
    await db
      .select({ n: countDistinct(matches.userId) })
      .from(matches)
      .where(gte(matches.matchedAt, new Date(sinceMs)))
  )[0]!.n
}

export type MatchCounts = { total: number; unread: number; archived: number }

/** One account's matches per category (wts, wtb, gd always present): all, unread (new, not archived), archived. */
export async function matchCountsOfUser(deps: OwnerDb, userId: number): Promise<Record<string, MatchCounts>> {
  const db = asAsync(deps.db)
  const rows = await rawRows<{ category: string; total: number; unread: number | null; archived: number | null }>(
    db,
    sql`SELECT ${matches.category} AS category, count(*) AS total,
         sum(CASE WHEN ${matches.isNew} = ${true} AND ${matches.archivedAt} IS NULL THEN 1 ELSE 0 END) AS unread,
         sum(CASE WHEN ${matches.archivedAt} IS NOT NULL THEN 1 ELSE 0 END) AS archived
       FROM ${matches} WHERE ${matches.userId} = ${userId} GROUP BY ${matches.category}`,
  )
  const counts: Record<string, MatchCounts> = {}
  for (const c of ['wts', 'wtb', 'gd']) counts[c] = { total: 0, unread: 0, archived: 0 }
  for (const m of rows) counts[m.category] = { total: Number(m.total), unread: Number(m.unread ?? 0), archived: Number(m.archived ?? 0) }
  return counts
}
