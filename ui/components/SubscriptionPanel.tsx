// The subscription page's content, at /dashboard/subscription and in Settings → Subscription
// (issue 13 item 9): the trial-concluding section when it applies, the details box, Manage
// Subscription (always here, as in the spec's Settings tab: without a subscription it answers 'No
// Subscription to Manage'; with billing off it opens the subscription modal, as before) and a way
// to change plan. A live Stripe
// subscription changes plan in the billing portal (Stripe prorates it; a second checkout would
// bill twice); anyone else picks a plan in the subscription modal's checkout. With billing off the
// plan cards say how to get access from the administrator.
import { useSignals } from '@preact/signals-react/runtime'
import { showManageSubscription } from '../../src/access/rules'
import { accessState, me } from '../account'
import { hasLiveSubscription } from '../billing'
import { openModal } from '../modals'
import { config } from '../state'
import { ManageSubscriptionButton } from './ManageSubscriptionButton'
import { PlanCards } from './PlanCards'
import { SubscriptionDetails, useSubscriptionSummary } from './SubscriptionDetails'
import { TrialConcluding, trialConcluding } from './TrialConcluding'

export function SubscriptionPanel({ level = 2 }: { level?: 2 | 3 }) {
  useSignals()
  const summary = useSubscriptionSummary()
  const access = me.value?.access
  if (!access) return null
  const Heading = `h${level}` as const
  const role = access.userRole
  const admin = role === 'admin'
  const trial = role === 'app_trial' || role === 'trial_expired'
  const billing = config.value.billingEnabled
  const manage = showManageSubscription(accessState.value) || summary?.hasCustomer === true
  const liveStripe = hasLiveSubscription(access)
  const paidActive = !trial && !admin && access.hasAccess
  return (
    <div className="subscription-panel">
      <TrialConcluding level={level} />
      <Heading>Your plan</Heading>
      <SubscriptionDetails summary={summary} />
      <div className="subscription-actions">
        {billing ? (
          <ManageSubscriptionButton hasCustomer={manage} className={manage ? undefined : 'outline'} />
        ) : (
          // Billing off, as before billing existed: the subscription modal (role, status, plans).
          <button type="button" className="outline" data-testid="manage-subscription" onClick={() => openModal('subscription')}>
            Manage Subscription
          </button>
        )}
        {billing && !admin && liveStripe ? <ManageSubscriptionButton label="Change Plan" className="secondary" testId="change-plan" /> : null}
        {billing && !admin && !liveStripe && !trialConcluding(access) ? (
          <button
            type="button"
            className={manage ? 'secondary' : undefined}
            data-testid="change-plan"
            onClick={() => openModal('subscription', { upgrade: true })}
          >
            {paidActive ? 'Change Plan' : 'Choose a Plan'}
          </button>
        ) : null}
      </div>
      {liveStripe ? (
        <p className="muted">Plan changes, card updates, invoices and cancellation are in the billing portal. Stripe prorates a plan change.</p>
      ) : null}
      {!billing && admin ? <p className="muted">Administrators have full access without a plan.</p> : null}
      {!billing && paidActive ? <p className="muted">Your plan is managed by the administrator.</p> : null}
      {!billing && !admin && !paidActive && !trialConcluding(access) ? (
        <>
          <Heading>Available Plans</Heading>
          <PlanCards />
        </>
      ) : null}
    </div>
  )
}
