// The dashboard's numbers from the database (spec §7 admin health every 30 s, KPIs every 5 min);
// the formulas themselves are the pure ./health.ts.
import type { Deps } from '../deps'
import { forumNotice, type WithSource } from '../scanner/source'
import { gapSummary } from '../scanner/gaps'
import { JOB, lastSuccess } from '../jobs/log'
import { ACTIVE_STATUSES, dayBounds, emailQueueColour, kpis, PAID_ROLES, percentile, scanHealth, TRIAL_ROLES, type Kpis } from './health'

type D = Pick<Deps, 'db' | 'sqlite' | 'now'>

const count = (deps: D, sql: string, ...args: (string | number)[]) => (deps.sqlite.query(sql).get(...args) as { n: number }).n
const inList = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ')

export function systemHealth(deps: D & Partial<WithSource> & { config?: Pick<Deps['config'], 'forums' | 'demo'> }) {
  const source = deps.source?.healthReport?.() ?? null
  const now = deps.now()
  const last = lastSuccess(deps, JOB.scan)
  const pending = count(deps, "SELECT count(*) AS n FROM outbox WHERE channel = 'email' AND status = 'pending'")
  return {
    posts: count(deps, 'SELECT count(*) AS n FROM posts'),
    users: count(deps, 'SELECT count(*) AS n FROM user_access'),
    matches: count(deps, 'SELECT count(*) AS n FROM matches'),
    lastScanAt: last?.toISOString() ?? null,
    ...scanHealth(last, now),
    emailQueuePending: pending,
    emailQueueColour: emailQueueColour(pending),
    /** the forum source's trouble in words with the fix (null when ok), as Admin → Logs shows it in full */
    source: source && source.state !== 'ok' ? { state: source.state, reason: source.reason, since: source.since } : null,
    /** a configured forum Reddit closed (the spec's default accessories forum) */
    forumNotice: deps.config ? forumNotice(deps.config) : null,
    /** coverage gaps whose window ended in the last 24 h (src/scanner/gaps.ts): windows and seconds not covered */
    coverageGaps: gapSummary(deps.sqlite, now.getTime() - 24 * 3600_000),
    checkedAt: now.toISOString(),
  }
}

export function kpiStats(deps: D): Kpis & { computedAt: string } {
  const now = deps.now()
  const { todayStart, yesterdayStart, dayAgo } = dayBounds(now)
  return {
    ...kpis({
      matchesToday: count(deps, 'SELECT count(*) AS n FROM matches WHERE created_at >= ?', todayStart),
      matchesYesterday: count(deps, 'SELECT count(*) AS n FROM matches WHERE created_at >= ? AND created_at < ?', yesterdayStart, todayStart),
      usersMatched24h: count(deps, 'SELECT count(DISTINCT user_id) AS n FROM matches WHERE created_at >= ?', dayAgo),
      postsToday: count(deps, 'SELECT count(*) AS n FROM posts WHERE created_at >= ?', todayStart),
      totalUsers: count(deps, 'SELECT count(*) AS n FROM user_access'),
      activeOrTrialing: count(deps, `SELECT count(*) AS n FROM user_access WHERE subscription_status IN (${inList(ACTIVE_STATUSES)})`),
      trialUsers: count(deps, `SELECT count(*) AS n FROM user_access WHERE role IN (${inList(TRIAL_ROLES)})`),
      paidUsers: count(deps, `SELECT count(*) AS n FROM user_access WHERE role IN (${inList(PAID_ROLES)})`),
    }),
    computedAt: now.toISOString(),
  }
}

/**
 * Post → alert latency over the last 24 h: match time minus the post's creation time on Reddit,
 * for live matches (backfill and batch matches were never alerts). Milliseconds.
 */
export function alertLatency(deps: D): { samples: number; p50Ms: number | null; p95Ms: number | null } {
  const since = deps.now().getTime() - 86_400_000
  const rows = deps.sqlite
    .query<{ ms: number }, [number]>(
      "SELECT created_at - post_created_at AS ms FROM matches WHERE source = 'live' AND post_created_at IS NOT NULL AND created_at >= ? ORDER BY id DESC LIMIT 20000",
    )
    .all(since)
  const values = rows.map((r) => Math.max(0, r.ms))
  return { samples: values.length, p50Ms: percentile(values, 50), p95Ms: percentile(values, 95) }
}
