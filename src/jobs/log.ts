// The job log (spec maintenance_logs: job_name, status, duration, details): one row per run of a
// maintenance job, the names of those jobs, and the last success of each (admin health, /healthz).
import { and, desc, eq } from 'drizzle-orm'
import { maintenanceLogs } from '../db/schema'
import type { Deps } from '../deps'

/** Job names as stored in maintenance_logs (the spec's names where it has them). */
export const JOB = {
  scan: 'fetch-reddit-posts',
  matchBatch: 'match-batch',
  backfillPostTypes: 'backfill-post-types',
  archivePosts: 'archive-posts',
  backup: 'database-backup',
  recheck: 'recheck-posts',
} as const
export type JobName = (typeof JOB)[keyof typeof JOB]
export type JobStatus = 'success' | 'failed' | 'skipped' | 'paused' | 'waiting' | 'busy'

export function logJob(
  deps: Pick<Deps, 'sqlite' | 'now'>,
  jobName: JobName,
  status: JobStatus,
  durationMs: number,
  details: Record<string, unknown>,
  at = deps.now().getTime(),
) {
  deps.sqlite
    .query('INSERT INTO maintenance_logs (job_name, status, created_at, duration_ms, details) VALUES (?, ?, ?, ?, ?)')
    .run(jobName, status, at, durationMs, JSON.stringify(details))
}

/** When the job last succeeded, or null. */
export function lastSuccess(deps: Pick<Deps, 'db'>, jobName: JobName): Date | null {
  const row = deps.db
    .select({ at: maintenanceLogs.executedAt })
    .from(maintenanceLogs)
    .where(and(eq(maintenanceLogs.jobName, jobName), eq(maintenanceLogs.status, 'success')))
    .orderBy(desc(maintenanceLogs.executedAt))
    .limit(1)
    .get()
  return row?.at ?? null
}
