// Admin → Logs, the view model: the scan log (every scan from src/scanner/scan-history.ts and every
// other job from the job log, src/jobs/log.ts) and the coverage gaps (src/scanner/gaps.ts). The
// scanner's state is ./scanner-status.ts, the runtime scan settings ./scan-settings.ts.
import type { Deps } from '../../deps'
import { JOB, latestJobs } from '../../jobs/log'
import { gapsSince, gapSummary } from '../../scanner/gaps'
import { latestScans } from '../../scanner/scan-history'

export type ScanLogEntry = { at: string; source: 'scan' | 'job'; job: string; status: string; durationMs: number; summary: string; error: string | null }

/**
 * The scan log: every scan (the scan log) and every other job (the job log; a scan's own job-log
 * row would repeat its scan-log row), newest first, optionally one status only ('success',
 * 'failed', 'skipped', …).
 */
export async function scanLog(deps: Pick<Deps, 'db' | 'sqlite'>, opts: { status?: string; limit?: number } = {}): Promise<ScanLogEntry[]> {
  const limit = opts.limit ?? 200
  const status = opts.status ?? null
  const scans = (await latestScans(deps, limit, status)).map((r): ScanLogEntry => ({
    at: r.createdAt,
    source: 'scan',
    job: `${JOB.scan} (${r.scanType})`,
    status: r.status,
    durationMs: r.durationMs,
    summary: `${r.postsFetched} fetched, ${r.postsNew} new, ${r.matchesFound} matches for ${r.usersProcessed} users, ${r.requests} ${r.requests === 1 ? 'request' : 'requests'}`,
    error: r.error,
  }))
  const jobs = (await latestJobs(deps, { limit, status, except: JOB.scan })).map((r): ScanLogEntry => {
    const { error, ...rest } = r.details ?? {}
    return {
      at: new Date(r.at).toISOString(),
      source: 'job',
      job: r.jobName,
      status: r.status,
      durationMs: r.durationMs,
      summary: Object.entries(rest)
        .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
        .join(', '),
      error: typeof error === 'string' ? error : null,
    }
  })
  return [...scans, ...jobs].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit)
}

/** Coverage gaps of the last 24 h or 7 d: the windows (newest first) and their total. */
export const GAP_WINDOWS = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 } as const
export async function coverageGaps(deps: Pick<Deps, 'db' | 'now'>, window: keyof typeof GAP_WINDOWS) {
  const since = deps.now().getTime() - GAP_WINDOWS[window]
  return { window, since: new Date(since).toISOString(), ...(await gapSummary(deps, since)), gaps: await gapsSince(deps, since) }
}
