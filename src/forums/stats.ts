// Counts over the stored posts for the admin pages (Trends, the dashboard's health and KPIs). This
// folder owns `posts` (src/db/owners.json): the admin pages ask here instead of querying it.
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
