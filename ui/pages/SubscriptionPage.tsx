// /dashboard/subscription: the subscriber's plan, status, renewal and Manage Subscription (issue 13).
import { AppShell } from '../components/AppShell'

export function SubscriptionPage() {
  return (
    <AppShell>
      <h1>Subscription</h1>
    </AppShell>
  )
}
