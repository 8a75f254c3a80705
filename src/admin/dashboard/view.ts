// Admin → Dashboard, the view model: System Health (spec §7 admin health, every 30 s) and the KPIs
// (every 5 min), each number counted by the capability that owns its table; the formulas themselves
// are the pure ./formulas.ts. System Resources is ./resources.ts, Recent Activity ./recent-activity.ts.
import { countAccess } from '../../access/accounts'
import type { Deps } from '../../deps'
import { countPosts } from '../../forums/stats'
import { percentile } from '../../lib/percentile'
import { countMatchedUsers, countMatches, liveMatchDelays } from '../../matches/stats'
import { outboxCounts } from '../../outbox/queue'
import { forumNotice, type WithSource } from '../../scanner/source'
import { gapSummary } from '../../scanner/gaps'
import { JOB, lastSuccess } from '../../jobs/log'
import { ACTIVE_STATUSES, dayBounds, emailQueueColour, kpis, PAID_ROLES, scanHealth, TRIAL_ROLES, type Kpis } from './formulas'

type D = Pick<Deps, 'db' | 'sqlite' | 'now'>

export async function systemHealth(deps: D & Partial<WithSource> & { config?: Pick<Deps['config'], 'forums' | 'demo'> }) {
  const source = deps.source?.healthReport?.() ?? null
  const now = deps.now()
  const last = await lastSuccess(deps, JOB.scan)
  const pending = (await outboxCounts(deps, 'email')).pending
  return {
    posts: await countPosts(deps),
    users: await countAccess(deps),
    matches: await countMatches(deps),
    lastScanAt: last?.toISOString() ?? null,
    ...scanHealth(last, now),
    emailQueuePending: pending,
    emailQueueColour: emailQueueColour(pending),
    /** the forum source's trouble in words with the fix (null when ok), as Admin → Logs shows it in full */
    source: source && source.state !== 'ok' ? { state: source.state, reason: source.reason, since: source.since } : null,
    /** a configured forum Reddit closed (the spec's default accessories forum) */
    forumNotice: deps.config ? await forumNotice({ ...deps, config: deps.config }) : null,
    /** coverage gaps whose window ended in the last 24 h (src/scanner/gaps.ts): windows and seconds not covered */
    coverageGaps: await gapSummary(deps, now.getTime() - 24 * 3600_000),
    checkedAt: now.toISOString(),
  }
}

export async function kpiStats(deps: D): Promise<Kpis & { computedAt: string }> {
  const now = deps.now()
  const { todayStart, yesterdayStart, dayAgo } = dayBounds(now)
  return {
    ...kpis({
      matchesToday: await countMatches(deps, todayStart),
      matchesYesterday: await countMatches(deps, yesterdayStart, todayStart),
      usersMatched24h: await countMatchedUsers(deps, dayAgo),
      postsToday: await countPosts(deps, todayStart),
      totalUsers: await countAccess(deps),
      activeOrTrialing: await countAccess(deps, { statuses: ACTIVE_STATUSES }),
      trialUsers: await countAccess(deps, { roles: TRIAL_ROLES }),
      paidUsers: await countAccess(deps, { roles: PAID_ROLES }),
    }),
    computedAt: now.toISOString(),
  }
}

/**
 * Post → alert latency over the last 24 h: match time minus the post's creation time on Reddit,
 * for live matches (backfill and batch matches were never alerts). Milliseconds.
 */
export async function alertLatency(deps: D): Promise<{ samples: number; p50Ms: number | null; p95Ms: number | null }> {
  const since = deps.now().getTime() - 86_400_000
  const values = (await liveMatchDelays(deps, since, 20000)).map((r) => Math.max(0, r.ms))
  return { samples: values.length, p50Ms: percentile(values, 50), p95Ms: percentile(values, 95) }
}
