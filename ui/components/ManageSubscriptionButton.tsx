// 'Manage Subscription' (spec §2, §4, §8): opens the billing portal in a new tab. The modal shows
// it only with a payment-customer id (showManageSubscription); the subscription page always does,
// and without a subscription the server's 'No Subscription to Manage' is the answer.
import { useState } from 'react'
import { openBillingPortal } from '../billing'

export function ManageSubscriptionButton({
  className,
  label = 'Manage Subscription',
  testId = 'manage-subscription',
  hasCustomer,
  ariaLabel,
}: {
  className?: string
  label?: string
  testId?: string
  /** false: no new tab is opened before the server has answered. */
  hasCustomer?: boolean
  ariaLabel?: string
}) {
  const [busy, setBusy] = useState(false)
  const open = async () => {
    setBusy(true)
    try {
      await openBillingPortal({ hasCustomer })
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      className={className}
      aria-label={ariaLabel}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={() => void open()}
      data-testid={testId}
    >
      {label}
    </button>
  )
}
