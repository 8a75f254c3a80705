// Stripe subscription → the user's access (pure; table-tested in tests/unit/billing/mapping.test.ts).
// The webhook and the reconcile job re-read the subscription from Stripe and call these, so the
// result depends only on Stripe's current state, never on which event arrived or in what order.
//
//   active / trialing          → the plan's role, access to the period end + RENEWAL_GRACE (the
//                                renewal's webhook has three days to arrive; nobody loses access
//                                because of an outage on our side or Stripe's)
//   cancel at period end       → 'active_until_period_end', access exactly to the period end
//   past_due                   → access to the end of the last paid period (the current period's
//                                start: a failed renewal has already opened the next one) +
//                                PAST_DUE_GRACE, while Stripe retries the card
//   canceled / unpaid / ended  → the role stays, the status blocks: no access (overlay
//                                'inactive_subscription')
//   incomplete                 → no change (a checkout whose first payment has not gone through)
// Then the merge with what the user holds now (`decide`): admins are never touched; a Stripe state
// that grants access always wins (a paying user over an older gift or the app trial); one that
// grants none never takes away a live gift (an admin's deliberate grant). It does end an app trial:
// once a user has subscribed, Stripe speaks for them — otherwise a stream delivered in reverse order
// (the cancellation first) would leave the trial running where a clean delivery ends it.
import { hasActiveAccess, GIFTED_STATUS, ACTIVE_UNTIL_PERIOD_END, type AccessState, type Role } from '../access/rules'
import type { PlanId } from '../access/plans'

const DAY_MS = 24 * 60 * 60 * 1000
export const PAST_DUE_GRACE_MS = 3 * DAY_MS
export const RENEWAL_GRACE_MS = 3 * DAY_MS

/** What the mapping needs from a Stripe subscription. */
export type SubscriptionFacts = {
  id: string
  status: string
  cancelAtPeriodEnd: boolean
  /** items.data[0].current_period_end (on the item at API version 2026-10-28.endive) */
  periodEnd: Date | null
  /** items.data[0].current_period_start: where the last paid period ended when a renewal failed */
  periodStart: Date | null
  endedAt: Date | null
  /** from the item's price lookup key; null for a price that is not one of ours */
  plan: PlanId | null
  created: number
}

export type DerivedAccess = { role: Role; subscriptionStatus: string; accessExpiresAt: Date | null }

const LIVE = ['active', 'trialing', 'past_due']
const ENDED = ['canceled', 'unpaid', 'incomplete_expired', 'paused']

const plus = (d: Date | null, ms: number) => (d === null ? null : new Date(d.getTime() + ms))

export function accessFromSubscription(s: SubscriptionFacts, now: Date): DerivedAccess | null {
  if (s.plan === null) return null
  const role: Role = s.plan
  if (s.status === 'active' || s.status === 'trialing') {
    if (s.cancelAtPeriodEnd) return { role, subscriptionStatus: ACTIVE_UNTIL_PERIOD_END, accessExpiresAt: s.periodEnd }
    return { role, subscriptionStatus: s.status, accessExpiresAt: plus(s.periodEnd, RENEWAL_GRACE_MS) }
  }
  if (s.status === 'past_due') return { role, subscriptionStatus: 'past_due', accessExpiresAt: plus(s.periodStart ?? s.periodEnd, PAST_DUE_GRACE_MS) }
  if (ENDED.includes(s.status)) return { role, subscriptionStatus: s.status, accessExpiresAt: s.endedAt ?? s.periodEnd ?? now }
  return null
}

/** The current period's end, back from a stored access_expires_at (the billing page's renewal date). */
export function periodEndOf(status: string | null, accessExpiresAt: Date | null): Date | null {
  if (accessExpiresAt === null) return null
  if (status === 'active' || status === 'trialing') return plus(accessExpiresAt, -RENEWAL_GRACE_MS)
  if (status === 'past_due') return plus(accessExpiresAt, -PAST_DUE_GRACE_MS)
  return accessExpiresAt
}

/** The subscription that speaks for a customer: the newest live one, else the newest of all. */
export function pickSubscription<T extends Pick<SubscriptionFacts, 'status' | 'created'>>(subs: T[]): T | null {
  const newest = (list: T[]) => [...list].sort((a, b) => b.created - a.created)[0] ?? null
  return newest(subs.filter((s) => LIVE.includes(s.status))) ?? newest(subs)
}

const same = (a: AccessState, b: DerivedAccess) =>
  a.role === b.role && a.subscriptionStatus === b.subscriptionStatus && (a.accessExpiresAt?.getTime() ?? null) === (b.accessExpiresAt?.getTime() ?? null)

/** What to write, or null to leave the user as they are. */
export function decide(current: AccessState, derived: DerivedAccess | null, now: Date): DerivedAccess | null {
  if (derived === null || current.role === 'admin') return null
  if (same(current, derived)) return null
  const grants = hasActiveAccess({ ...derived, stripeCustomerId: null }, now)
  if (!grants && hasActiveAccess(current, now) && current.subscriptionStatus === GIFTED_STATUS) return null
  return derived
}

/** The admin activity log's verb for a change. */
export function changeAction(before: AccessState, after: DerivedAccess): string {
  const wasPaid =
    before.role !== after.role &&
    ['product', 'gd', 'product+gd'].includes(before.role) &&
    LIVE.concat(ACTIVE_UNTIL_PERIOD_END).includes(before.subscriptionStatus ?? '')
  if (wasPaid && LIVE.includes(after.subscriptionStatus)) return 'billing.plan_changed'
  switch (after.subscriptionStatus) {
    case ACTIVE_UNTIL_PERIOD_END:
      return 'billing.cancel_at_period_end'
    case 'past_due':
      return 'billing.payment_failed'
    case 'active':
    case 'trialing':
      return 'billing.subscription_active'
    default:
      return 'billing.subscription_ended'
  }
}
