// Full-screen, non-dismissible blocking overlay for a signed-in user without active access
// (spec §2, §4 overlay context, §6): the title of the overlay context, the role badge, the plan
// prompt and a Logout button — nothing else on the page can be reached: a <Modal> without onClose,
// which Escape does not close. With billing off the plans say how to reach the administrator (the
// support address, a message form). With billing on, a plan card opens its embedded checkout right here;
// once the payment's refresh shows access, <Protected> takes the overlay away.
import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { roleBadgeLabel, subscriptionModalTitle, type OverlayContext } from '../../src/access/rules'
import { me } from '../account'
import { signOut } from '../session'
import { config } from '../state'
import { Modal } from './Modal'
import { PlanChooser } from './PlanChooser'

const LEAD: Record<OverlayContext, string> = {
  app_trial_expired: 'Your 7-day free trial has ended. Choose a plan to keep your search terms working and get new matches.',
  gifted_expired: 'Your gifted access has expired. Choose a plan to keep your search terms working and get new matches.',
  inactive_subscription: 'Your subscription is not active. Choose a plan to regain access to your matches and alerts.',
  default: 'Choose a plan to get started.',
}

/** Billing off: nothing to choose or pay; the plan cards' ContactAdmin says how to reach the administrator. */
const LEAD_BILLING_OFF: Record<OverlayContext, string> = {
  app_trial_expired: 'Your 7-day free trial has ended. Your search terms are kept until the administrator grants you a plan.',
  gifted_expired: 'Your gifted access has expired. Your search terms are kept until the administrator grants you a plan again.',
  inactive_subscription: 'Your plan is not active. Your search terms are kept until the administrator grants you a plan.',
  default: 'The administrator grants plans on this server.',
}

export function AccessOverlay() {
  useSignals()
  const access = me.value?.access
  const context: OverlayContext = access?.overlayContext ?? 'default'
  useEffect(() => {
    const prev = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => void (document.body.style.overflow = prev)
  }, [])
  return (
    <Modal className="access-overlay" aria-labelledby="access-overlay-title" data-testid="access-overlay" data-context={context}>
      <article>
        <header>
          <h2 id="access-overlay-title">{subscriptionModalTitle(context)}</h2>
          {access ? (
            <p>
              <mark className="badge" data-testid="role-badge">
                {roleBadgeLabel(access.userRole, config.value.productName)}
              </mark>
              {access.statusText !== roleBadgeLabel(access.userRole, config.value.productName) ? <span className="muted"> {access.statusText}</span> : null}
            </p>
          ) : null}
        </header>
        <p>{(config.value.billingEnabled ? LEAD : LEAD_BILLING_OFF)[context]}</p>
        <PlanChooser level={3} />
        <footer>
          <button type="button" className="secondary" onClick={() => void signOut()}>
            Logout
          </button>
        </footer>
      </article>
    </Modal>
  )
}
