// Counts over the stored posts for the admin pages (Trends, the dashboard's health and KPIs, the Logs
// page's unreadable posts). This folder owns `posts` (src/db/owners.json): the admin pages ask here
// instead of querying it.
import { and, count, desc, eq, gt, gte, isNotNull, max, min, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRows } from '../db/raw'
import { posts } from '../db/schema'
import type { Deps } from '../deps'

const DAY_MS = 86_400_000

/** Posts stored since `sinceMs`, per UTC day (ms since the epoch / DAY_MS, floored) and forum. */
export async function postsPerDay(deps: OwnerDb, sinceMs: number): Promise<{ day: number; key: string; n: number }[]> {
  const day = sql`CAST(${posts.createdAt} / ${DAY_MS} AS INTEGER)`
  const rows = await rawRows<{ day: unknown; key: string; n: unknown }>(
    asAsync(deps.db),
    sql`SELECT ${day} AS day, ${posts.forum} AS key, count(*) AS n FROM ${posts} WHERE ${posts.createdAt} >= ${sinceMs} GROUP BY ${day}, ${posts.forum}`,
  )
  // PostgreSQL answers count(*) as text (bigint)
  return rows.map((r) => ({ day: Number(r.day), key: r.key, n: Number(r.n) }))
}

/** Posts stored, all or those created since `sinceMs`. */
export async function countPosts(deps: OwnerDb, sinceMs?: number): Promise<number> {
  const [row] = await asAsync(deps.db)
    .select({ n: count() })
    .from(posts)
    .where(sinceMs === undefined ? undefined : gte(posts.createdAt, new Date(sinceMs)))
  return row?.n ?? 0
}

/** The oldest stored post's creation time (ms), or null with none: Archive deletes older posts. */
export async function oldestPostAt(deps: OwnerDb): Promise<number | null> {
  const [row] = await asAsync(deps.db)
    .select({ at: min(posts.createdAt) })
    .from(posts)
  return row?.at?.getTime() ?? null
}

export type UnparsedPost = { redditId: string; title: string; error: string; at: string }

/** Posts stored since `sinceMs` that could not be read (stored unparsed, never matched): how many, and the newest `limit`. */
export async function unparsedPostsSince(deps: OwnerDb, sinceMs: number, limit = 5): Promise<{ count: number; recent: UnparsedPost[] }> {
  const db = asAsync(deps.db)
  const unparsed = and(isNotNull(posts.parseError), gte(posts.ingestedAt, new Date(sinceMs)))
  const [total] = await db.select({ n: count() }).from(posts).where(unparsed)
  const recent = await db
    .select({ redditId: posts.redditId, title: posts.title, error: posts.parseError, at: posts.ingestedAt })
    .from(posts)
    .where(unparsed)
    .orderBy(desc(posts.ingestedAt), desc(posts.id))
    .limit(limit)
  return {
    count: total?.n ?? 0,
    recent: recent.map((r) => ({ redditId: r.redditId, title: r.title, error: r.error ?? '', at: r.at.toISOString() })),
  }
}

// Reads for the scanner's forum activity (src/scanner/forum-activity.ts: Admin → Logs, /readyz, `dibs
// doctor`), the scrape-time counters of /metrics (src/metrics/registry.ts) and the restore point
// (src/db/restore.ts, given this by its callers: src/db imports no other folder).

/** The newest stored post's creation time (ms), or null with none. */
export async function newestPostAt(deps: OwnerDb): Promise<number | null> {
  const [row] = await asAsync(deps.db)
    .select({ at: max(posts.createdAt) })
    .from(posts)
  return row?.at?.getTime() ?? null
}

/**
 * Every subreddit posts were stored from (one spelling per name, case aside: the spelling of its newest post), the
 * one with the newest post first. Read per exact spelling (a handful of rows) and merged here, the same on both engines.
 */
export async function subredditsByNewestPost(deps: OwnerDb): Promise<string[]> {
  const rows = await asAsync(deps.db)
    .select({ subreddit: posts.subreddit, at: max(posts.createdAt) })
    .from(posts)
    .groupBy(posts.subreddit)
  const newest = new Map<string, { subreddit: string; at: number }>()
  for (const r of rows) {
    const at = r.at?.getTime() ?? 0
    const key = r.subreddit.toLowerCase()
    if ((newest.get(key)?.at ?? -Infinity) < at) newest.set(key, { subreddit: r.subreddit, at })
  }
  return [...newest.values()].sort((a, b) => b.at - a.at).map((r) => r.subreddit)
}

/** The creation times (ms) of a subreddit's newest `limit` posts (its name in any case), newest first. */
export async function latestPostTimes(deps: OwnerDb, subreddit: string, limit: number): Promise<number[]> {
  const rows = await asAsync(deps.db)
    .select({ at: posts.createdAt })
    .from(posts)
    .where(eq(sql`lower(${posts.subreddit})`, sql`lower(${subreddit})`))
    .orderBy(desc(posts.createdAt))
    .limit(limit)
  return rows.map((r) => r.at.getTime())
}

/** The highest post id stored, 0 with none: posts stored later have higher ids. */
export function maxPostId(deps: Pick<Deps, 'sqlite'>): number {
  return deps.sqlite.query<{ id: number | null }, []>('SELECT max(id) AS id FROM posts').get()?.id ?? 0
}

/** Posts stored after post `afterId`, per forum: how many and the highest id. */
export async function postsAfterId(deps: OwnerDb, afterId: number): Promise<{ forum: string; n: number; top: number }[]> {
  const rows = await asAsync(deps.db)
    .select({ forum: posts.forum, n: count(), top: max(posts.id) })
    .from(posts)
    .where(gt(posts.id, afterId))
    .groupBy(posts.forum)
  return rows.map((r) => ({ forum: r.forum, n: r.n, top: r.top ?? afterId }))
}
