// Admin → Tools, the view model: the scan metrics panel (the latest scans and the last 24 h in
// figures, from src/scanner/scan-history.ts) and the job log (src/jobs/log.ts), newest first.
import type { Deps } from '../../deps'
import { latestJobs } from '../../jobs/log'
import { latestScans, scanTotalsSince } from '../../scanner/scan-history'

const DAY_MS = 24 * 3_600_000

/** The latest 100 scans and the last 24 h in figures (spec §7 scan_metrics, §9). */
export async function scanMetrics(deps: Pick<Deps, 'db' | 'now'>) {
  return { rows: await latestScans(deps, 100), stats24h: await scanTotalsSince(deps, deps.now().getTime() - DAY_MS) }
}

/** The job log's latest runs (GET /api/admin/maintenance-logs: the spec's table name stays in the path). */
export async function jobLog(deps: Pick<Deps, 'db'>, limit = 10) {
  return (await latestJobs(deps, { limit })).map((r) => ({
    id: r.id,
    jobName: r.jobName,
    status: r.status,
    executedAt: new Date(r.at).toISOString(),
    durationMs: r.durationMs,
    details: r.details,
  }))
}
