// The job log (the table is the spec's maintenance_logs: job_name, status, duration, details): one
// row per run of a job, the names of those jobs, the last success of each (admin health, /healthz)
// and the latest runs (Admin → Dashboard's Recent Activity, Logs' scan log, Tools). This folder owns
// maintenance_logs (src/db/owners.json).
import { and, desc, eq, ne } from 'drizzle-orm'
import { maintenanceLogs } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'

/** Job names as stored in the job log (the spec's names where it has them). */
export const JOB = {
  scan: 'fetch-reddit-posts',
  matchBatch: 'match-batch',
  backfillPostTypes: 'backfill-post-types',
  archivePosts: 'archive-posts',
  backup: 'database-backup',
  recheck: 'recheck-posts',
  feeds: 'fetch-feed-sources',
  telegram: 'telegram-updates',
} as const
export type JobName = (typeof JOB)[keyof typeof JOB]
export type JobStatus = 'success' | 'failed' | 'skipped' | 'paused' | 'waiting' | 'busy'

/** One run of a job; `at` (ms) is when it ran (now by default). */
export async function logJob(
  deps: OwnerDb & Pick<Deps, 'now'>,
  jobName: JobName,
  status: JobStatus,
  durationMs: number,
  details: Record<string, unknown>,
  at = deps.now().getTime(),
): Promise<void> {
  await asAsync(deps.db)
    .insert(maintenanceLogs)
    .values({ jobName, status, executedAt: new Date(at), durationMs, details })
}

/** When the job last succeeded, or null. */
export async function lastSuccess(deps: OwnerDb, jobName: JobName): Promise<Date | null> {
  const [row] = await asAsync(deps.db)
    .select({ at: maintenanceLogs.executedAt })
    .from(maintenanceLogs)
    .where(and(eq(maintenanceLogs.jobName, jobName), eq(maintenanceLogs.status, 'success')))
    .orderBy(desc(maintenanceLogs.executedAt))
    .limit(1)
  return row?.at ?? null
}

export type JobRun = { id: number; jobName: string; status: string; at: number; durationMs: number; details: Record<string, unknown> | null }

/**
 * The latest runs in the job log, newest first: optionally of one status only, optionally without
 * one job (the scans, whose own rows repeat the scan log's).
 */
export async function latestJobs(deps: OwnerDb, opts: { limit: number; status?: string | null; except?: JobName }): Promise<JobRun[]> {
  const m = maintenanceLogs
  const rows = await asAsync(deps.db)
    .select({ id: m.id, jobName: m.jobName, status: m.status, at: m.executedAt, durationMs: m.durationMs, details: m.details })
    .from(m)
    .where(and(opts.except === undefined ? undefined : ne(m.jobName, opts.except), opts.status == null ? undefined : eq(m.status, opts.status)))
    .orderBy(desc(m.executedAt), desc(m.id))
    .limit(opts.limit)
  return rows.map((r) => ({ ...r, at: r.at.getTime(), details: (r.details as Record<string, unknown> | null) ?? null }))
}
