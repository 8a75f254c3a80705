// The three plans of src/access/plans.ts as cards. With billing on each card has a Subscribe
// button (`onChoose`, which opens the embedded checkout); with billing off, or for a visitor who
// cannot pay here, each card says honestly how to get the plan instead of showing a dead button.
import { useSignals } from '@preact/signals-react/runtime'
import { formatPrice, plans, type PlanId } from '../../src/access/plans'
import { config } from '../state'

export const CONTACT_ADMIN = 'Contact the administrator to activate this plan.'

export function PlanGrid({ cta }: { cta?: (planId: PlanId) => React.ReactNode }) {
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

/**
 * `onChoose` (billing on): a Subscribe button per card; `current` marks the plan the user already
 * pays for (the server refuses a second checkout for it). `cta` replaces the buttons altogether.
 */
export function PlanCards({
  cta,
  onChoose,
  current,
}: {
  cta?: (planId: PlanId) => React.ReactNode
  onChoose?: (planId: PlanId) => void
  current?: PlanId | null
}) {
  useSignals()
  if (cta) return <PlanGrid cta={cta} />
  if (!config.value.billingEnabled || !onChoose) return <PlanGrid cta={() => <p className="plan-card-note">{CONTACT_ADMIN}</p>} />
  const product = config.value.productName
  return (
    <PlanGrid
      cta={(id) =>
        id === current ? (
          <button type="button" className="outline" disabled data-plan-cta={id}>
            Current plan
          </button>
        ) : (
          <button type="button" data-plan-cta={id} aria-label={`Subscribe to ${plans(product).find((p) => p.id === id)!.name}`} onClick={() => onChoose(id)}>
            Subscribe
          </button>
        )
      }
    />
  )
}
