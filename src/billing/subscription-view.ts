// GET /api/billing/subscription: what the subscription page shows, read from the database alone
// (no Stripe call): plan, status and its spec text, the renewal or end date, the next amount.
import type { Config } from '../config'
import { isPlanId, planById, type PlanId } from '../access/plans'
import { hasActiveAccess, statusText, ACTIVE_UNTIL_PERIOD_END, GIFTED_STATUS, type AccessState } from '../access/rules'
import { periodEndOf } from './mapping'

export type SubscriptionView = {
  billingEnabled: boolean
  plan: PlanId | null
  planName: string | null
  /** user_access.subscription_status */
  status: string | null
  statusText: string
  renewsAt: string | null
  endsAt: string | null
  cancelAtPeriodEnd: boolean
  nextAmountCents: number | null
  hasCustomer: boolean
}

const RENEWING = ['active', 'trialing', 'past_due']

export function subscriptionView(config: Pick<Config, 'billingEnabled' | 'productName'>, state: AccessState, now: Date): SubscriptionView {
  const plan = isPlanId(state.role) ? state.role : null
  const active = hasActiveAccess(state, now)
  const renews = plan !== null && active && RENEWING.includes(state.subscriptionStatus ?? '') && state.accessExpiresAt !== null
  const end = periodEndOf(state.subscriptionStatus, state.accessExpiresAt)
  return {
    billingEnabled: config.billingEnabled,
    plan,
    planName: plan === null ? null : planById(plan, config.productName).name,
    status: state.subscriptionStatus,
    statusText: statusText(state, now),
    renewsAt: renews && end !== null ? end.toISOString() : null,
    endsAt: !renews && state.accessExpiresAt !== null && (active || state.subscriptionStatus === GIFTED_STATUS) ? state.accessExpiresAt.toISOString() : null,
    cancelAtPeriodEnd: state.subscriptionStatus === ACTIVE_UNTIL_PERIOD_END,
    nextAmountCents: renews && plan !== null ? planById(plan, config.productName).priceCents : null,
    hasCustomer: typeof state.stripeCustomerId === 'string' && state.stripeCustomerId !== '',
  }
}
