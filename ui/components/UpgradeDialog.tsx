// The subscription modal opened by Upgrade, the trial badge and the Subscription menu item (spec
// §2, §4): title by context, the role badge, the trial status box, the subscription details, the
// 'Available Plans' grid (only without access or on a trial, never for admins) and 'Manage
// Subscription' (only with a payment-customer id).
import { useSignals } from '@preact/signals-react/runtime'
import { Link } from 'wouter'
import { formatPrice, plans } from '../../src/access/plans'
import { roleBadgeLabel, showManageSubscription, showPlanList, subscriptionModalTitle } from '../../src/access/rules'
import { TrialStatusBox, trialEnding } from './TrialStatus'
import { accessState, me } from '../account'
import { upgradeIntent } from '../modals'
import { config } from '../state'
import { Modal } from './Modal'

export function UpgradeDialog({ onClose }: { onClose: () => void }) {
  useSignals()
  const access = me.value?.access
  const product = config.value.productName
  const context = trialEnding() ? 'trial-ending' : access && !access.hasAccess ? access.overlayContext : null
  // Spec §4's plan-list rule — and the plans for any non-admin who came by 'Upgrade' on a locked feature.
  const state = accessState.value
  const showPlans = showPlanList(state, { checkoutOpen: false }, new Date()) || (upgradeIntent.value && state?.role !== 'admin')
  return (
    <Modal onClose={onClose} aria-labelledby="plans-title">
      <article className="wide">
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="plans-title">{subscriptionModalTitle(context)}</h3>
        </header>
        {access ? (
          <p>
            <mark className="badge" data-testid="role-badge">
              {roleBadgeLabel(access.userRole, product)}
            </mark>
          </p>
        ) : null}
        <TrialStatusBox />
        {access && access.userRole !== 'app_trial' && access.userRole !== 'trial_expired' ? (
          <section className="status-box" aria-label="Subscription details" data-testid="subscription-details">
            <strong>{access.statusText}</strong>
            {access.accessExpiresAt ? <p className="muted">Until {new Date(access.accessExpiresAt).toLocaleDateString()}</p> : null}
          </section>
        ) : null}
        {showPlans ? (
          <>
            <h4>Available Plans</h4>
            <PlanGrid />
          </>
        ) : null}
        {showManageSubscription(state) ? (
          <footer>
            <Link href="/dashboard/subscription" role="button" onClick={onClose}>
              Manage Subscription
            </Link>
          </footer>
        ) : null}
      </article>
    </Modal>
  )
}

export function PlanGrid({ cta }: { cta?: (planId: string) => React.ReactNode }) {
  useSignals()
  return (
    <div className="plan-grid">
      {plans(config.value.productName).map((p) => (
        <article key={p.id} className={`plan-card${p.bestValue ? ' best' : ''}`} data-testid={`plan-${p.id}`}>
          {p.bestValue ? <span className="badge best-badge">Best value</span> : null}
          <h3>{p.name}</h3>
          <p className="muted">{p.description}</p>
          <p className="price">
            <strong>{formatPrice(p.priceCents)}</strong>
            <span className="muted">/month</span>
          </p>
          <ul>
            {p.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          {cta ? cta(p.id) : null}
        </article>
      ))}
    </div>
  )
}
