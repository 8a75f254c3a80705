// Recent Activity on the dashboard: admin actions (audit_log), maintenance jobs (maintenance_logs)
// and the scans worth a look (scan_metrics: those that stored new posts or failed), newest first.
// Routine empty scans run every few seconds and would drown the rest, so they are left out.
import type { Deps } from '../deps'
import { JOB } from '../jobs/log'
import { latestAudit } from '../audit/log'
import { describeAudit } from '../audit/describe'

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

export function recentActivity(deps: Pick<Deps, 'db' | 'sqlite'>, limit = 15): ActivityItem[] {
  const audit: ActivityItem[] = latestAudit(deps, limit).map((r) => ({
    at: r.at.toISOString(),
    kind: 'admin',
    text: describeAudit(r),
    status: r.result,
    actor: r.actor,
  }))
  const jobs = deps.sqlite
    .query<{ at: number; job: string; status: string; details: string | null }, [string, number]>(
      'SELECT created_at AS at, job_name AS job, status, details FROM maintenance_logs WHERE job_name != ? ORDER BY created_at DESC LIMIT ?',
    )
    .all(JOB.scan, limit)
    .map((r): ActivityItem => ({
      at: new Date(r.at).toISOString(),
      kind: 'job',
      text: `${r.job}${describeDetails(r.details ? JSON.parse(r.details) : null)}`,
      status: r.status,
      actor: null,
    }))
  const scans = deps.sqlite
    .query<{ at: number; type: string; status: string; n: number; m: number; error: string | null }, [number]>(
      `SELECT created_at AS at, scan_type AS type, status, posts_new AS n, matches_found AS m, error FROM scan_metrics
       WHERE posts_new > 0 OR status != 'success' ORDER BY created_at DESC LIMIT ?`,
    )
    .all(limit)
    .map((r): ActivityItem => ({
      at: new Date(r.at).toISOString(),
      kind: 'scan',
      text: r.status === 'success' ? `${r.type} scan: ${r.n} new posts, ${r.m} matches` : `${r.type} scan ${r.status}${r.error ? `: ${r.error}` : ''}`,
      status: r.status,
      actor: null,
    }))
  return [...audit, ...jobs, ...scans].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit)
}
