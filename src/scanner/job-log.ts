// One maintenance_logs row per job run (spec maintenance_logs: job_name, status, duration, details).
import type { Deps } from '../deps'

export function logJob(deps: Pick<Deps, 'sqlite' | 'now'>, jobName: string, status: 'success' | 'failed' | 'skipped', durationMs: number, details: Record<string, unknown>) {
  deps.sqlite
    .query('INSERT INTO maintenance_logs (job_name, status, created_at, duration_ms, details) VALUES (?, ?, ?, ?, ?)')
    .run(jobName, status, deps.now().getTime(), durationMs, JSON.stringify(details))
}
