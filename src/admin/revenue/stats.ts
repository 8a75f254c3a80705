// Revenue and trial statistics, pure: the admin Revenue page (./view.ts) feeds it the
// current user_access rows and the access_history log, and a clock.
//
// Definitions (also in docs/admin.md):
//   paying     a plan role (product, gd, product+gd) backed by a Stripe subscription whose status
//              is active, active_until_period_end or past_due and whose period has not ended.
//              In access_history "Stripe-backed" is source 'stripe' (the row holds no subscription id).
//   MRR        Σ plan price over the paying accounts (monthly plans only).
//   trial      an episode starts at a history row with role app_trial whose previous row for the
//              user was not app_trial (a re-grant or extension continues the episode). It ends at
//              the user's next row with another role: converted when that row is paying, else
//              expired (at that row or the trial's expiry, whichever came first). With no later
//              row it is expired once its expiry has passed, otherwise still running.
//   churn      the end of a paying stretch: the next row is not paying, or the period
//              (accessExpiresAt) ran out first. Rate = churned in the window / paying at its start.
import { isPlanId, plans, type PlanId } from '../../access/plans'

const DAY_MS = 24 * 60 * 60 * 1000
const WEEK_MS = 7 * DAY_MS
export const PAYING_STATUSES: readonly string[] = ['active', 'active_until_period_end', 'past_due']

/** A user_access row as the page reads it (role 'admin' from ADMIN_EMAILS is applied by the caller). */
export type AccountRow = {
  userId: number
  role: string
  subscriptionStatus: string | null
  accessExpiresAt: Date | null
  stripeSubscriptionId: string | null
  grantedBy: string | null
}

export type HistoryRow = { userId: number; at: Date; role: string; subscriptionStatus: string | null; accessExpiresAt: Date | null; source: string }

export type AccountKind = 'admin' | 'paying' | 'lapsed_paid' | 'gifted' | 'gifted_expired' | 'default_plan' | 'manual' | 'trial' | 'trial_expired' | 'none'

const notEnded = (expires: Date | null, now: Date) => expires === null || expires.getTime() > now.getTime()

/**
 * Which bucket an account is in now. `defaultPlan`: the plan confirmed users get while billing is
 * off (DEFAULT_PLAN), recognised as a plan role, status active, no Stripe subscription, granted by nobody.
 */
export function classifyAccount(a: AccountRow, now: Date, defaultPlan: PlanId | null): AccountKind {
  if (a.role === 'admin') return 'admin'
  if (a.role === 'app_trial') return notEnded(a.accessExpiresAt, now) ? 'trial' : 'trial_expired'
  if (a.role === 'trial_expired') return 'trial_expired'
  if (!isPlanId(a.role)) return 'none'
  if (a.subscriptionStatus === 'gifted') return notEnded(a.accessExpiresAt, now) ? 'gifted' : 'gifted_expired'
  if (a.stripeSubscriptionId !== null)
    return a.subscriptionStatus !== null && PAYING_STATUSES.includes(a.subscriptionStatus) && notEnded(a.accessExpiresAt, now) ? 'paying' : 'lapsed_paid'
  if (a.role === defaultPlan && a.grantedBy === null && a.subscriptionStatus === 'active') return 'default_plan'
  return notEnded(a.accessExpiresAt, now) ? 'manual' : 'none'
}

export type PlanLine = { plan: PlanId; name: string; priceCents: number; subscribers: number; mrrCents: number }

/** Subscribers and MRR per plan, and the total. */
export function mrr(accounts: AccountRow[], now: Date, productLabel?: string): { mrrCents: number; plans: PlanLine[] } {
  const lines = plans(productLabel).map((p): PlanLine => ({ plan: p.id, name: p.name, priceCents: p.priceCents, subscribers: 0, mrrCents: 0 }))
  for (const a of accounts) {
    if (classifyAccount(a, now, null) !== 'paying') continue
    const line = lines.find((l) => l.plan === a.role)!
    line.subscribers++
    line.mrrCents += line.priceCents
  }
  return { mrrCents: lines.reduce((s, l) => s + l.mrrCents, 0), plans: lines }
}

export function countKinds(accounts: AccountRow[], now: Date, defaultPlan: PlanId | null): Record<AccountKind, number> {
  const counts: Record<AccountKind, number> = {
    admin: 0,
    paying: 0,
    lapsed_paid: 0,
    gifted: 0,
    gifted_expired: 0,
    default_plan: 0,
    manual: 0,
    trial: 0,
    trial_expired: 0,
    none: 0,
  }
  for (const a of accounts) counts[classifyAccount(a, now, defaultPlan)]++
  return counts
}

/** A history row that is paying at `t` (its own time or later). */
export function payingAt(r: HistoryRow, t: Date): boolean {
  return (
    r.source === 'stripe' &&
    isPlanId(r.role) &&
    r.subscriptionStatus !== null &&
    PAYING_STATUSES.includes(r.subscriptionStatus) &&
    notEnded(r.accessExpiresAt, t)
  )
}

function byUser(history: HistoryRow[]): HistoryRow[][] {
  const map = new Map<number, HistoryRow[]>()
  for (const r of history) {
    const list = map.get(r.userId) ?? []
    list.push(r)
    map.set(r.userId, list)
  }
  return [...map.values()].map((rows) => rows.sort((a, b) => a.at.getTime() - b.at.getTime()))
}

export type TrialOutcome = { userId: number; startedAt: Date; outcome: 'converted' | 'expired' | 'running'; endedAt: Date | null }

export function trialEpisodes(history: HistoryRow[], now: Date): TrialOutcome[] {
  const out: TrialOutcome[] = []
  for (const rows of byUser(history)) {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!
      if (r.role !== 'app_trial' || (i > 0 && rows[i - 1]!.role === 'app_trial')) continue
      let j = i
      while (j + 1 < rows.length && rows[j + 1]!.role === 'app_trial') j++
      const expires = rows[j]!.accessExpiresAt
      const next = rows[j + 1]
      if (next !== undefined && payingAt(next, next.at)) out.push({ userId: r.userId, startedAt: r.at, outcome: 'converted', endedAt: next.at })
      else if (next !== undefined) {
        const end = expires !== null && expires.getTime() < next.at.getTime() ? expires : next.at
        out.push({ userId: r.userId, startedAt: r.at, outcome: 'expired', endedAt: end })
      } else if (expires !== null && expires.getTime() <= now.getTime()) out.push({ userId: r.userId, startedAt: r.at, outcome: 'expired', endedAt: expires })
      else out.push({ userId: r.userId, startedAt: r.at, outcome: 'running', endedAt: null })
    }
  }
  return out
}

/** Times at which a paying stretch ended (up to `now`), one per churned stretch. */
export function churnEvents(history: HistoryRow[], now: Date): { userId: number; at: Date }[] {
  const out: { userId: number; at: Date }[] = []
  for (const rows of byUser(history)) {
    rows.forEach((r, i) => {
      if (!payingAt(r, r.at)) return
      const next = rows[i + 1]
      const expiry = r.accessExpiresAt
      // The stretch of this row ends at its period's end or at the next row, whichever is first.
      if (next !== undefined && (expiry === null || next.at.getTime() <= expiry.getTime())) {
        if (!payingAt(next, next.at)) out.push({ userId: r.userId, at: next.at })
        return
      }
      if (expiry !== null && expiry.getTime() <= now.getTime()) out.push({ userId: r.userId, at: expiry })
    })
  }
  return out
}

/** Accounts paying at time t, replaying each user's history up to t. */
export function payingCountAt(history: HistoryRow[], t: Date): number {
  let n = 0
  for (const rows of byUser(history)) {
    const last = rows.filter((r) => r.at.getTime() <= t.getTime()).at(-1)
    if (last !== undefined && payingAt(last, t)) n++
  }
  return n
}

/** Monday 00:00 UTC of the week holding t. */
export function weekStart(t: Date): Date {
  const day = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()))
  const dow = (day.getUTCDay() + 6) % 7 // Monday 0
  return new Date(day.getTime() - dow * DAY_MS)
}

export type WeekLine = { weekStart: string; trialsStarted: number; trialsConverted: number; trialsExpired: number; churned: number }

/** The last `weeks` weeks (oldest first, the current week last): trials started / converted / expired and churn. */
export function weeklyStats(history: HistoryRow[], now: Date, weeks = 12): WeekLine[] {
  const first = weekStart(now).getTime() - (weeks - 1) * WEEK_MS
  const lines: WeekLine[] = Array.from({ length: weeks }, (_, i) => ({
    weekStart: new Date(first + i * WEEK_MS).toISOString().slice(0, 10),
    trialsStarted: 0,
    trialsConverted: 0,
    trialsExpired: 0,
    churned: 0,
  }))
  const at = (t: Date) => {
    const i = Math.floor((t.getTime() - first) / WEEK_MS)
    return i >= 0 && i < weeks ? lines[i] : undefined
  }
  for (const e of trialEpisodes(history, now)) {
    const started = at(e.startedAt)
    if (started) started.trialsStarted++
    if (e.endedAt === null) continue
    const ended = at(e.endedAt)
    if (ended && e.outcome === 'converted') ended.trialsConverted++
    if (ended && e.outcome === 'expired') ended.trialsExpired++
  }
  for (const c of churnEvents(history, now)) {
    const line = at(c.at)
    if (line) line.churned++
  }
  return lines
}

export type Churn = { windowDays: number; churned: number; payingAtStart: number; rate: number | null }

/** Churn over the last `days` days: stretches that ended in the window / accounts paying at its start (null: none were). */
export function churn(history: HistoryRow[], now: Date, days = 30): Churn {
  const start = new Date(now.getTime() - days * DAY_MS)
  const churned = churnEvents(history, now).filter((c) => c.at.getTime() > start.getTime() && c.at.getTime() <= now.getTime()).length
  const payingAtStart = payingCountAt(history, start)
  return { windowDays: days, churned, payingAtStart, rate: payingAtStart === 0 ? null : churned / payingAtStart }
}
