// Reads of the scan log (scan_metrics, written by ./scan.ts recordScan) and of the next scan's time
// (the `metrics` row 'next_reddit_scrape') for the admin pages. This folder owns scan_metrics and
// metrics (src/db/owners.json): Dashboard, Logs and Tools ask here instead of querying them.
import type { ScanMetric } from '../contract/events'
import type { Deps } from '../deps'

type D = Pick<Deps, 'sqlite'>

/** The last time Reddit answered 429 (ms), from the scan log: a failed scan's error starts with its failure kind. */
export function lastRateLimitedAt(deps: D): number | null {
  const row = deps.sqlite
    .query<{ at: number }, []>("SELECT created_at AS at FROM scan_metrics WHERE error LIKE 'rate_limited%' ORDER BY created_at DESC LIMIT 1")
    .get()
  return row?.at ?? null
}

type MetricRow = {
  id: number
  created_at: number
  scan_type: string
  status: string
  posts_fetched: number
  posts_new: number
  users_processed: number
  matches_found: number
  requests: number
  duration_ms: number
  error: string | null
}

const toMetric = (r: MetricRow): ScanMetric => ({
  id: r.id,
  createdAt: new Date(r.created_at).toISOString(),
  scanType: r.scan_type,
  status: r.status,
  postsFetched: r.posts_fetched,
  postsNew: r.posts_new,
  usersProcessed: r.users_processed,
  matchesFound: r.matches_found,
  requests: r.requests,
  durationMs: r.duration_ms,
  error: r.error,
})

/** The latest scans, newest first, optionally of one status only ('success', 'failed', …). */
export function latestScans(deps: D, limit: number, status: string | null = null): ScanMetric[] {
  return deps.sqlite
    .query<MetricRow, [string | null, string | null, number]>(
      'SELECT * FROM scan_metrics WHERE (? IS NULL OR status = ?) ORDER BY created_at DESC, id DESC LIMIT ?',
    )
    .all(status, status, limit)
    .map(toMetric)
}

/** Scans that stored new posts or did not succeed, newest first (routine empty scans left out). */
export function notableScans(deps: D, limit: number): ScanMetric[] {
  return deps.sqlite
    .query<MetricRow, [number]>("SELECT * FROM scan_metrics WHERE posts_new > 0 OR status != 'success' ORDER BY created_at DESC LIMIT ?")
    .all(limit)
    .map(toMetric)
}

export type ScanTotals = {
  scans: number
  successful: number
  failed: number
  postsNew: number
  matchesFound: number
  usersProcessed: number
  avgDurationMs: number | null
}

/** The scans since `sinceMs` in figures: how many, successful and failed, posts, matches and users, mean duration (ms, rounded). */
export function scanTotalsSince(deps: D, sinceMs: number): ScanTotals {
  const s = deps.sqlite
    .query<
      { scans: number; ok: number | null; failed: number | null; posts: number | null; matches: number | null; users: number | null; avg: number | null },
      [number]
    >(
      `SELECT count(*) AS scans, sum(status = 'success') AS ok, sum(status = 'failed') AS failed, sum(posts_new) AS posts,
              sum(matches_found) AS matches, sum(users_processed) AS users, avg(duration_ms) AS avg
       FROM scan_metrics WHERE created_at >= ?`,
    )
    .get(sinceMs)!
  return {
    scans: s.scans,
    successful: s.ok ?? 0,
    failed: s.failed ?? 0,
    postsNew: s.posts ?? 0,
    matchesFound: s.matches ?? 0,
    usersProcessed: s.users ?? 0,
    avgDurationMs: s.avg === null ? null : Math.round(s.avg),
  }
}

export type ScanOutcome = { at: number; status: string; error: string | null }

/**
 * The last scan, the last successful one and, when the last one failed, when the failures began
 * (the first failed scan after the last success; ms). Nulls where there is none.
 */
export function scanStreak(deps: D): { last: ScanOutcome | null; lastSuccessAt: number | null; failingSince: number | null } {
  const last = deps.sqlite.query<ScanOutcome, []>('SELECT created_at AS at, status, error FROM scan_metrics ORDER BY created_at DESC, id DESC LIMIT 1').get()
  const lastOk = deps.sqlite
    .query<{ at: number }, []>("SELECT created_at AS at FROM scan_metrics WHERE status = 'success' ORDER BY created_at DESC LIMIT 1")
    .get()
  let failingSince: number | null = null
  if (last?.status === 'failed')
    failingSince = deps.sqlite
      .query<{ at: number }, [number]>("SELECT min(created_at) AS at FROM scan_metrics WHERE status = 'failed' AND created_at > ?")
      .get(lastOk?.at ?? 0)!.at
  return { last: last ?? null, lastSuccessAt: lastOk?.at ?? null, failingSince }
}

/** When the next scan is due (ISO, from the 'next_reddit_scrape' metric ./scan.ts writes), or null. */
export function nextScanAt(deps: D): string | null {
  const row = deps.sqlite.query<{ value: string }, []>("SELECT value FROM metrics WHERE id = 'next_reddit_scrape'").get()
  return row ? ((JSON.parse(row.value) as { at?: string }).at ?? null) : null
}

/**
 * /readyz's proof that the database takes writes: the `metrics` row 'readyz_probe' written. The caller
 * runs it inside a transaction it rolls back (src/health/index.ts), so it never changes anything.
 */
export function writeReadyzProbe(deps: D): void {
  deps.sqlite.run("INSERT INTO metrics (id, value, updated_at) VALUES ('readyz_probe', '{}', 0) ON CONFLICT(id) DO UPDATE SET updated_at = 0")
}
