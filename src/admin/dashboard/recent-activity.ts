// Recent Activity on the dashboard: admin actions (the audit log, src/audit), job runs (the job log,
// src/jobs/log.ts) and the scans worth a look (the scan log, src/scanner/scan-history.ts: those that
// stored new posts or failed), newest first. Routine empty scans run every few seconds and would
// drown the rest, so they are left out.
import type { Deps } from '../../deps'
import { JOB, latestJobs } from '../../jobs/log'
import { latestAudit } from '../../audit/log'
import { describeAudit } from '../../audit/describe'
import { notableScans } from '../../scanner/scan-history'

export type ActivityItem = {
  at: string
  kind: 'admin' | 'job' | 'scan'
  /** one line for the list */
  text: string
  status: string
  actor: string | null
}

function describeDetails(details: Record<string, unknown> | null | undefined): string {
  if (!details) return ''
  const parts = Object.entries(details)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`)
  return parts.length ? ` (${parts.join(', ')})` : ''
}

export async function recentActivity(deps: Pick<Deps, 'db' | 'sqlite'>, limit = 15): Promise<ActivityItem[]> {
  const audit: ActivityItem[] = (await latestAudit(deps, limit)).map((r) => ({
    at: r.at.toISOString(),
    kind: 'admin',
    text: describeAudit(r),
    status: r.result,
    actor: r.actor,
  }))
  const jobs = (await latestJobs(deps, { limit, except: JOB.scan })).map((r): ActivityItem => ({
    at: new Date(r.at).toISOString(),
    kind: 'job',
    text: `${r.jobName}${describeDetails(r.details)}`,
    status: r.status,
    actor: null,
  }))
  const scans = (await notableScans(deps, limit)).map((r): ActivityItem => ({
    at: r.createdAt,
    kind: 'scan',
    text:
      r.status === 'success'
        ? `${r.scanType} scan: ${r.postsNew} new posts, ${r.matchesFound} matches`
        : `${r.scanType} scan ${r.status}${r.error ? `: ${r.error}` : ''}`,
    status: r.status,
    actor: null,
  }))
  return [...audit, ...jobs, ...scans].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit)
}
