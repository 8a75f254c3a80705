// Counts over the stored posts for the admin pages (Trends, the dashboard's health and KPIs, the Logs
// page's unreadable posts). This folder owns `posts` (src/db/owners.json): the admin pages ask here
// instead of querying it.
import type { Deps } from '../deps'

const DAY_MS = 86_400_000

/** Posts stored since `sinceMs`, per UTC day (ms since the epoch / DAY_MS, floored) and forum. */
export function postsPerDay(deps: Pick<Deps, 'sqlite'>, sinceMs: number): { day: number; key: string; n: number }[] {
  return deps.sqlite
    .query<{ day: number; key: string; n: number }, [number, number]>(
      'SELECT CAST(created_at / ?1 AS INTEGER) AS day, forum AS key, count(*) AS n FROM posts WHERE created_at >= ?2 GROUP BY day, key',
    )
    .all(DAY_MS, sinceMs)
}

/** Posts stored, all or those created since `sinceMs`. */
export function countPosts(deps: Pick<Deps, 'sqlite'>, sinceMs?: number): number {
  if (sinceMs === undefined) return deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM posts').get()!.n
  return deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM posts WHERE created_at >= ?').get(sinceMs)!.n
}

/** The oldest stored post's creation time (ms), or null with none: Archive deletes older posts. */
export function oldestPostAt(deps: Pick<Deps, 'sqlite'>): number | null {
  return deps.sqlite.query<{ at: number | null }, []>('SELECT min(created_at) AS at FROM posts').get()?.at ?? null
}

export type UnparsedPost = { redditId: string; title: string; error: string; at: string }

/** Posts stored since `sinceMs` that could not be read (stored unparsed, never matched): how many, and the newest `limit`. */
export function unparsedPostsSince(deps: Pick<Deps, 'sqlite'>, sinceMs: number, limit = 5): { count: number; recent: UnparsedPost[] } {
  const count = deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM posts WHERE parse_error IS NOT NULL AND ingested_at >= ?').get(sinceMs)!.n
  const recent = deps.sqlite
    .query<{ reddit_id: string; title: string; parse_error: string; ingested_at: number }, [number, number]>(
      'SELECT reddit_id, title, parse_error, ingested_at FROM posts WHERE parse_error IS NOT NULL AND ingested_at >= ? ORDER BY ingested_at DESC, id DESC LIMIT ?',
    )
    .all(sinceMs, limit)
  return {
    count,
    recent: recent.map((r) => ({ redditId: r.reddit_id, title: r.title, error: r.parse_error, at: new Date(r.ingested_at).toISOString() })),
  }
}

// Reads for the scanner's forum activity (src/scanner/forum-activity.ts: Admin → Logs, /readyz, `dibs
// doctor`), the scrape-time counters of /metrics (src/metrics/registry.ts) and the restore point
// (src/db/restore.ts, given this by its callers: src/db imports no other folder).

/** The newest stored post's creation time (ms), or null with none. */
export function newestPostAt(deps: Pick<Deps, 'sqlite'>): number | null {
  return deps.sqlite.query<{ at: number | null }, []>('SELECT max(created_at) AS at FROM posts').get()?.at ?? null
}

/** Every subreddit posts were stored from (one spelling per name, case aside), the one with the newest post first. */
export function subredditsByNewestPost(deps: Pick<Deps, 'sqlite'>): string[] {
  return deps.sqlite
    .query<{ subreddit: string }, []>('SELECT subreddit FROM posts GROUP BY lower(subreddit) ORDER BY max(created_at) DESC')
    .all()
    .map((r) => r.subreddit)
}

/** The creation times (ms) of a subreddit's newest `limit` posts (its name in any case), newest first. */
export function latestPostTimes(deps: Pick<Deps, 'sqlite'>, subreddit: string, limit: number): number[] {
  return deps.sqlite
    .query<{ at: number }, [string, number]>('SELECT created_at AS at FROM posts WHERE lower(subreddit) = lower(?) ORDER BY created_at DESC LIMIT ?')
    .all(subreddit, limit)
    .map((r) => r.at)
}

/** The highest post id stored, 0 with none: posts stored later have higher ids. */
export function maxPostId(deps: Pick<Deps, 'sqlite'>): number {
  return deps.sqlite.query<{ id: number | null }, []>('SELECT max(id) AS id FROM posts').get()?.id ?? 0
}

/** Posts stored after post `afterId`, per forum: how many and the highest id. */
export function postsAfterId(deps: Pick<Deps, 'sqlite'>, afterId: number): { forum: string; n: number; top: number }[] {
  return deps.sqlite
    .query<{ forum: string; n: number; top: number }, [number]>('SELECT forum, count(*) AS n, max(id) AS top FROM posts WHERE id > ? GROUP BY forum')
    .all(afterId)
}
