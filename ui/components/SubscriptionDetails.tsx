// The subscription details box (spec §2, §4 status text): current plan, status text, the renewal
// or end date and the next amount. It reads AccessInfo and, with billing on, the summary of
// GET /api/billing/subscription (renewal, cancel at period end, next amount).
import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { formatPrice } from '../../src/access/plans'
import { ACTIVE_UNTIL_PERIOD_END, roleBadgeLabel, type AccessInfo } from '../../src/access/rules'
import { me } from '../account'
import { fetchSubscription, type SubscriptionSummary } from '../billing'
import { config } from '../state'

export function formatDay(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? 'Invalid date' : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' })
}

/** The billing summary, refetched whenever the access state changes; null with billing off or when it cannot be read. */
export function useSubscriptionSummary(): SubscriptionSummary | null {
  useSignals()
  const access = me.value?.access
  const billing = config.value.billingEnabled
  const [summary, setSummary] = useState<SubscriptionSummary | null>(null)
  const key = access ? [access.userRole, access.hasAccess, access.subscriptionStatus, access.accessExpiresAt, access.stripeCustomerId].join('|') : ''
  useEffect(() => {
    if (!billing || !access || access.userRole === 'admin') return setSummary(null)
    let live = true
    fetchSubscription()
      .then((s) => live && setSummary(s))
      .catch(() => live && setSummary(null))
    return () => void (live = false)
  }, [billing, key])
  return summary
}

const TRIAL_ROLES = ['app_trial', 'trial_expired']

/** Which date the box shows, and how it is labelled. */
export function dateRow(access: AccessInfo, summary: SubscriptionSummary | null): { label: string; iso: string } | null {
  if (access.userRole === 'admin') return null
  if (TRIAL_ROLES.includes(access.userRole))
    return access.accessExpiresAt ? { label: access.hasAccess ? 'Trial ends' : 'Trial ended', iso: access.accessExpiresAt } : null
  const cancelled = summary?.cancelAtPeriodEnd === true || access.subscriptionStatus === ACTIVE_UNTIL_PERIOD_END
  if (access.hasAccess && cancelled) {
    const iso = summary?.endsAt ?? summary?.renewsAt ?? access.accessExpiresAt
    return iso ? { label: 'Access ends', iso } : null
  }
  if (access.hasAccess && summary?.renewsAt) return { label: 'Renews on', iso: summary.renewsAt }
  const iso = summary?.endsAt ?? access.accessExpiresAt
  if (!iso) return null
  return { label: access.hasAccess ? 'Access until' : 'Ended', iso }
}

export function nextPayment(access: AccessInfo, summary: SubscriptionSummary | null): string | null {
  if (!access.hasAccess || !summary || summary.cancelAtPeriodEnd || typeof summary.nextAmountCents !== 'number') return null
  return formatPrice(summary.nextAmountCents) + (summary.renewsAt ? ` on ${formatDay(summary.renewsAt)}` : '')
}

export function SubscriptionDetails({ summary }: { summary: SubscriptionSummary | null }) {
  useSignals()
  const access = me.value?.access
  if (!access) return null
  const plan = summary?.planName ?? roleBadgeLabel(access.userRole, config.value.productName)
  const status = summary?.statusText ?? access.statusText
  const date = dateRow(access, summary)
  const next = nextPayment(access, summary)
  return (
    <section className="status-box subscription-details" aria-label="Subscription details" data-testid="subscription-details">
      <dl>
        <div>
          <dt>Current plan</dt>
          <dd data-testid="current-plan">{plan}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="status-text">{status}</dd>
        </div>
        {date ? (
          <div>
            <dt>{date.label}</dt>
            <dd data-testid="subscription-date">{formatDay(date.iso)}</dd>
          </div>
        ) : null}
        {next ? (
          <div>
            <dt>Next payment</dt>
            <dd data-testid="next-payment">{next}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  )
}
