// The job log (the table is the spec's maintenance_logs: job_name, status, duration, details): one
// row per run of a job, the names of those jobs, the last success of each (admin health, /healthz)
// and the latest runs (Admin → Dashboard's Recent Activity, Logs' scan log, Tools). This folder owns
// maintenance_logs (src/db/owners.json).
import { and, desc, eq } from 'drizzle-orm'
import { maintenanceLogs } from '../db/schema'
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

export type JobRun = { id: number; jobName: string; status: string; at: number; durationMs: number; details: Record<string, unknown> | null }

/**
 * The latest runs in the job log, newest first: optionally of one status only, optionally without
 * one job (the scans, whose own rows repeat the scan log's).
 */
export function latestJobs(deps: Pick<Deps, 'sqlite'>, opts: { limit: number; status?: string | null; except?: JobName }): JobRun[] {
  const status = opts.status ?? null
  return deps.sqlite
    .query<
      { id: number; job_name: string; status: string; created_at: number; duration_ms: number; details: string | null },
      [string | null, string | null, number]
    >(
      `SELECT id, job_name, status, created_at, duration_ms, details FROM maintenance_logs
       WHERE (?1 IS NULL OR job_name != ?1) AND (?2 IS NULL OR status = ?2) ORDER BY created_at DESC, id DESC LIMIT ?3`,
    )
    .all(opts.except ?? null, status, opts.limit)
    .map((r) => ({
      id: r.id,
      jobName: r.job_name,
      status: r.status,
      at: r.created_at,
      durationMs: r.duration_ms,
      details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
    }))
}
