// Counts over the stored matches for the admin pages (Trends, the dashboard, Users). This folder
// owns `matches` and `match_terms` (src/db/owners.json): the admin pages ask here.
import type { Deps } from '../deps'

const DAY_MS = 86_400_000

/** Matches made since `sinceMs`, per UTC day (ms since the epoch / DAY_MS, floored) and category. */
export function matchesPerDay(deps: Pick<Deps, 'sqlite'>, sinceMs: number): { day: number; key: string; n: number }[] {
  return deps.sqlite
    .query<{ day: number; key: string; n: number }, [number, number]>(
      'SELECT CAST(created_at / ?1 AS INTEGER) AS day, category AS key, count(*) AS n FROM matches WHERE created_at >= ?2 GROUP BY day, key',
    )
    .all(DAY_MS, sinceMs)
}

/**
 * Post → alert delay of live matches made since `sinceMs`: the match's time (its alert was queued then)
 * minus the post's time on Reddit, in ms (negative when the clocks disagree). Backfill and batch
 * matches were made long after their post on purpose and are left out. With `newest`, only that
 * many, newest first.
 */
export function liveMatchDelays(deps: Pick<Deps, 'sqlite'>, sinceMs: number, newest?: number): { at: number; ms: number }[] {
  const select =
    "SELECT created_at AS at, created_at - post_created_at AS ms FROM matches WHERE source = 'live' AND post_created_at IS NOT NULL AND created_at >= ?"
  if (newest === undefined) return deps.sqlite.query<{ at: number; ms: number }, [number]>(select).all(sinceMs)
  return deps.sqlite.query<{ at: number; ms: number }, [number, number]>(`${select} ORDER BY id DESC LIMIT ?`).all(sinceMs, newest)
}

/** Matches made in [fromMs, toMs) (toMs open: up to now). */
export function countMatches(deps: Pick<Deps, 'sqlite'>, fromMs?: number, toMs?: number): number {
  if (fromMs === undefined) return deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM matches').get()!.n
  if (toMs === undefined) return deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM matches WHERE created_at >= ?').get(fromMs)!.n
  return deps.sqlite.query<{ n: number }, [number, number]>('SELECT count(*) AS n FROM matches WHERE created_at >= ? AND created_at < ?').get(fromMs, toMs)!.n
}

/** Accounts with at least one match made since `sinceMs`. */
export function countMatchedUsers(deps: Pick<Deps, 'sqlite'>, sinceMs: number): number {
  return deps.sqlite.query<{ n: number }, [number]>('SELECT count(DISTINCT user_id) AS n FROM matches WHERE created_at >= ?').get(sinceMs)!.n
}

export type MatchCounts = { total: number; unread: number; archived: number }

/** One account's matches per category (wts, wtb, gd always present): all, unread (new, not archived), archived. */
export function matchCountsOfUser(deps: Pick<Deps, 'sqlite'>, userId: number): Record<string, MatchCounts> {
  const rows = deps.sqlite
    .query<{ category: string; total: number; unread: number | null; archived: number | null }, [number]>(
      `SELECT category, count(*) AS total,
         sum(CASE WHEN is_new = 1 AND archived_at IS NULL THEN 1 ELSE 0 END) AS unread,
         sum(CASE WHEN archived_at IS NOT NULL THEN 1 ELSE 0 END) AS archived
       FROM matches WHERE user_id = ? GROUP BY category`,
    )
    .all(userId)
  const counts: Record<string, MatchCounts> = {}
  for (const c of ['wts', 'wtb', 'gd']) counts[c] = { total: 0, unread: 0, archived: 0 }
  for (const m of rows) counts[m.category] = { total: m.total, unread: m.unread ?? 0, archived: m.archived ?? 0 }
  return counts
}
