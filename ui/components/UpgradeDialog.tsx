// The plan dialog opened by Upgrade and the Subscription menu item: the three plans of
// src/access/plans.ts and the way to the subscription page, where checkout runs.
import { useSignals } from '@preact/signals-react/runtime'
import { Link } from 'wouter'
import { formatPrice, plans } from '../../src/access/plans'
import { me } from '../account'
import { config } from '../state'
import { Modal } from './Modal'

export function UpgradeDialog({ onClose }: { onClose: () => void }) {
  useSignals()
  const access = me.value?.access
  return (
    <Modal onClose={onClose} aria-labelledby="plans-title">
      <article className="wide">
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="plans-title">Subscription</h3>
        </header>
        {access ? (
          <p>
            <span className="badge">{access.statusText}</span>
          </p>
        ) : null}
        <h4>Available Plans</h4>
        <PlanGrid />
        <footer>
          <Link href="/dashboard/subscription" role="button" onClick={onClose}>
            Manage Subscription
          </Link>
        </footer>
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
