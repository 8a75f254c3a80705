// 'Manage Subscription' (spec §2, §4, §8): opens the billing portal in a new tab. Shown only to a
// user with a payment-customer id (the caller checks showManageSubscription).
import { useState } from 'react'
import { openBillingPortal } from '../billing'

export function ManageSubscriptionButton({
  className,
  label = 'Manage Subscription',
  testId = 'manage-subscription',
}: {
  className?: string
  label?: string
  testId?: string
}) {
  const [busy, setBusy] = useState(false)
  const open = async () => {
    setBusy(true)
    try {
      await openBillingPortal()
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" className={className} aria-busy={busy || undefined} disabled={busy} onClick={() => void open()} data-testid={testId}>
      {label}
    </button>
  )
}
