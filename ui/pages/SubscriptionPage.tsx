// /dashboard/subscription: the subscriber's plan, status, renewal, Manage Subscription and change
// plan (issue 13); the trial emails link here, so it also carries the 'trial is concluding' section.
import { AppShell } from '../components/AppShell'
import { SubscriptionPanel } from '../components/SubscriptionPanel'

export function SubscriptionPage() {
  return (
    <AppShell>
      <h1>Subscription</h1>
      <SubscriptionPanel />
    </AppShell>
  )
}
