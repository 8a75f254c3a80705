// Reads of the scan log (scan_metrics, written by ./scan.ts recordScan) and of the next scan's time
// (the `metrics` row 'next_reddit_scrape') for the admin pages. This folder owns scan_metrics and
// metrics (src/db/owners.json): Dashboard, Logs and Tools ask here instead of querying them.
import { and, desc, eq, gt, like, min, ne, or, sql, type SQL } from 'drizzle-orm'
import type { ScanMetric } from '../contract/events'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRow } from '../db/raw'
import { metrics, scanMetrics } from '../db/schema'

/** The last time Reddit answered 429 (ms), from the scan log: a failed scan's error starts with its failure kind. */
export async function lastRateLimitedAt(deps: OwnerDb): Promise<number | null> {
  const [row] = await asAsync(deps.db)
    .select({ at: scanMetrics.createdAt })
    .from(scanMetrics)
    .where(like(scanMetrics.error, 'rate_limited%'))
    .orderBy(desc(scanMetrics.createdAt))
    .limit(1)
  return row?.at.getTime() ?? null
}

const toMetric = (r: typeof scanMetrics.$inferSelect): ScanMetric => ({
  id: r.id,
  createdAt: r.createdAt.toISOString(),
  scanType: r.scanType,
  status: r.status,
  postsFetched: r.postsFetched,
  postsNew: r.postsNew,
  usersProcessed: r.usersProcessed,
  matchesFound: r.matchesFound,
  requests: r.requests,
  durationMs: r.durationMs,
  error: r.error,
})

/** The scans matching `where`, newest first, at most `limit`. */
async function scansWhere(deps: OwnerDb, where: SQL | undefined, limit: number): Promise<ScanMetric[]> {
  const rows = await asAsync(deps.db).select().from(scanMetrics).where(where).orderBy(desc(scanMetrics.createdAt), desc(scanMetrics.id)).limit(limit)
  return rows.map(toMetric)
}

/** The latest scans, newest first, optionally of one status only ('success', 'failed', …). */
export function latestScans(deps: OwnerDb, limit: number, status: string | null = null): Promise<ScanMetric[]> {
  return scansWhere(deps, status === null ? undefined : eq(scanMetrics.status, status), limit)
}

/** Scans that stored new posts or did not succeed, newest first (routine empty scans left out). */
export function notableScans(deps: OwnerDb, limit: number): Promise<ScanMetric[]> {
  return scansWhere(deps, or(gt(scanMetrics.postsNew, 0), ne(scanMetrics.status, 'success')), limit)
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
export async function scanTotalsSince(deps: OwnerDb, sinceMs: number): Promise<ScanTotals> {
  const m = scanMetrics
  const s = await rawRow<{ scans: unknown; ok: unknown; failed: unknown; posts: unknown; matches: unknown; users: unknown; avg: unknown }>(
    asAsync(deps.db),
    sql`SELECT count(*) AS scans, sum(CASE WHEN ${m.status} = 'success' THEN 1 ELSE 0 END) AS ok, sum(CASE WHEN ${m.status} = 'failed' THEN 1 ELSE 0 END) AS failed,
              sum(${m.postsNew}) AS posts, sum(${m.matchesFound}) AS matches, sum(${m.usersProcessed}) AS users, avg(${m.durationMs}) AS avg
       FROM ${m} WHERE ${m.createdAt} >= ${sinceMs}`,
  )
  // PostgreSQL answers count, sum and avg as text (bigint, numeric)
  const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))
  return {
    scans: n(s?.scans),
    successful: n(s?.ok),
    failed: n(s?.failed),
    postsNew: n(s?.posts),
    matchesFound: n(s?.matches),
    usersProcessed: n(s?.users),
    avgDurationMs: s?.avg === null || s?.avg === undefined ? null : Math.round(Number(s.avg)),
  }
}

export type ScanOutcome = { at: number; status: string; error: string | null }

/**
 * The last scan, the last successful one and, when the last one failed, when the failures began
 * (the first failed scan after the last success; ms). Nulls where there is none.
 */
export async function scanStreak(deps: OwnerDb): Promise<{ last: ScanOutcome | null; lastSuccessAt: number | null; failingSince: number | null }> {
  const db = asAsync(deps.db)
  const [last] = await db
    .select({ at: scanMetrics.createdAt, status: scanMetrics.status, error: scanMetrics.error })
    .from(scanMetrics)
    .orderBy(desc(scanMetrics.createdAt), desc(scanMetrics.id))
    .limit(1)
  const [lastOk] = await db
    .select({ at: scanMetrics.createdAt })
    .from(scanMetrics)
    .where(eq(scanMetrics.status, 'success'))
    .orderBy(desc(scanMetrics.createdAt))
    .limit(1)
  let failingSince: number | null = null
  if (last?.status === 'failed') {
    const [row] = await db
      .select({ at: min(scanMetrics.createdAt) })
      .from(scanMetrics)
      .where(and(eq(scanMetrics.status, 'failed'), gt(scanMetrics.createdAt, lastOk?.at ?? new Date(0))))
    failingSince = row?.at?.getTime() ?? null
  }
  return { last: last ? { at: last.at.getTime(), status: last.status, error: last.error } : null, lastSuccessAt: lastOk?.at.getTime() ?? null, failingSince }
}

/** When the next scan is due (ISO, from the 'next_reddit_scrape' metric ./scan.ts writes), or null. */
export async function nextScanAt(deps: OwnerDb): Promise<string | null> {
  const [row] = await asAsync(deps.db).select({ value: metrics.value }).from(metrics).where(eq(metrics.id, 'next_reddit_scrape')).limit(1)
  const at = (row?.value as { at?: unknown } | undefined)?.at
  return row ? ((at as string | undefined) ?? null) : null
}

/**
 * /readyz's proof that the database takes writes: the `metrics` row 'readyz_probe' written. The caller
 * runs it inside a transaction it rolls back (src/health/index.ts), so it never changes anything.
 */
export async function writeReadyzProbe(deps: OwnerDb): Promise<void> {
  await asAsync(deps.db)
    .insert(metrics)
    .values({ id: 'readyz_probe', value: {}, updatedAt: new Date(0) })
    .onConflictDoUpdate({ target: metrics.id, set: { updatedAt: new Date(0) } })
}

/** Records a finished scan in the scan log (scan_metrics) and the next scan's time (the metric 'next_reddit_scrape'); answers the row's id. */
export async function recordScanRow(
  deps: OwnerDb,
  at: number,
  row: Omit<typeof scanMetrics.$inferInsert, 'id' | 'createdAt'>,
  nextAt: string,
): Promise<number> {
  const db = asAsync(deps.db)
  const [made] = await db
    .insert(scanMetrics)
    .values({ ...row, createdAt: new Date(at) })
    .returning({ id: scanMetrics.id })
  await db
    .insert(metrics)
    .values({ id: 'next_reddit_scrape', value: { at: nextAt }, updatedAt: new Date(at) })
    .onConflictDoUpdate({ target: metrics.id, set: { value: { at: nextAt }, updatedAt: new Date(at) } })
  return made!.id
}

/** One scan by its row id, or null (another node's `scan.metric` read back: src/cluster/fanout-load.ts). */
export async function scanById(deps: OwnerDb, id: number): Promise<ScanMetric | null> {
  const [row] = await asAsync(deps.db).select().from(scanMetrics).where(eq(scanMetrics.id, id)).limit(1)
  return row ? toMetric(row) : null
}
