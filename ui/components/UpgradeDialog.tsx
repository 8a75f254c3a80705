// The subscription modal opened by Upgrade, the trial badge, 'Choose a Plan' and the Subscription
// menu item (spec §2, §4): title by context, a close button only when dismissible, the role badge,
// the trial status box, the subscription details, 'Manage Subscription' (only with a
// payment-customer id; the billing portal in a new tab) and 'Available Plans' (by the plan-list
// rule) whose cards open the embedded checkout here. A completed payment closes it after 2 s. A
// plan Stripe already bills switches in the billing portal instead (a second checkout would bill twice).
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { isPlanId, planById } from '../../src/access/plans'
import { roleBadgeLabel, showManageSubscription, showPlanList, subscriptionModalTitle } from '../../src/access/rules'
import { TrialStatusBox, trialEnding } from './TrialStatus'
import { accessState, me } from '../account'
import { upgradeIntent } from '../modals'
import { config } from '../state'
import { Modal } from './Modal'
import { ManageSubscriptionButton } from './ManageSubscriptionButton'
import { PlanChooser } from './PlanChooser'
import { PlanCards } from './PlanCards'
import { hasLiveSubscription } from '../billing'
import { SubscriptionDetails, useSubscriptionSummary } from './SubscriptionDetails'

/** `onClose` absent: not dismissible (no close button, Escape does nothing). */
export function UpgradeDialog({ onClose }: { onClose?: () => void }) {
  useSignals()
  const access = me.value?.access
  const product = config.value.productName
  const summary = useSubscriptionSummary()
  const [checkoutOpen, setCheckoutOpen] = useState(false)
  const context = trialEnding() ? 'trial-ending' : access && !access.hasAccess ? access.overlayContext : null
  // Spec §4's plan-list rule — and the plans for any non-admin who came by 'Upgrade' on a locked
  // feature or 'Change Plan'. While a checkout is open the chooser shows it instead of the cards.
  const state = accessState.value
  const showPlans = showPlanList(state, { checkoutOpen: false }, new Date()) || (upgradeIntent.value && state?.role !== 'admin')
  const trial = access?.userRole === 'app_trial' || access?.userRole === 'trial_expired'
  const current = access?.hasAccess && isPlanId(access.userRole) ? access.userRole : null
  return (
    <Modal onClose={onClose} aria-labelledby="plans-title" className="subscription-modal">
      <article className="wide">
        <header>
          {onClose ? <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} /> : null}
          <h3 id="plans-title">{subscriptionModalTitle(context)}</h3>
        </header>
        {access && !checkoutOpen ? (
          <p>
            <mark className="badge" data-testid="role-badge">
              {roleBadgeLabel(access.userRole, product)}
            </mark>
          </p>
        ) : null}
        {checkoutOpen ? null : <TrialStatusBox />}
        {access && !trial && !checkoutOpen ? <SubscriptionDetails summary={summary} /> : null}
        {showManageSubscription(state) && !checkoutOpen ? (
          <p>
            <ManageSubscriptionButton />
          </p>
        ) : null}
        {showPlans && hasLiveSubscription(access) ? (
          <>
            <h4>Available Plans</h4>
            <p className="muted">Your plan is billed by Stripe: switch plans in the billing portal, which prorates the change.</p>
            <PlanCards
              cta={(id) =>
                id === current ? (
                  <button type="button" className="outline" disabled>
                    Current plan
                  </button>
                ) : (
                  <ManageSubscriptionButton
                    label="Switch plan"
                    ariaLabel={`Switch to ${planById(id, product).name} in the billing portal`}
                    testId={`switch-${id}`}
                  />
                )
              }
            />
          </>
        ) : showPlans || checkoutOpen ? (
          <PlanChooser current={current} onDone={onClose} onCheckoutOpen={setCheckoutOpen} />
        ) : null}
      </article>
    </Modal>
  )
}
