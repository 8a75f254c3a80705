// The three plans of src/access/plans.ts as cards. With billing on each card has a Subscribe
// button (`onChoose`, which opens the embedded checkout); with billing off no price is shown (the
// plans are free here, granted by the administrator) and ContactAdmin says once how to reach them.
import { useSignals } from '@preact/signals-react/runtime'
import { formatPrice, plans, type PlanId } from '../../src/access/plans'
import { config } from '../state'
import { ContactAdmin } from './BillingOff'

export function PlanGrid({ cta }: { cta?: (planId: PlanId) => React.ReactNode }) {
  useSignals()
  const billing = config.value.billingEnabled
  return (
    <div className="plan-grid">
      {plans(config.value.productName).map((p) => (
        <article key={p.id} className={`plan-card${p.bestValue && billing ? ' best' : ''}`} data-testid={`plan-${p.id}`}>
          {p.bestValue && billing ? <span className="badge best-badge">Best value</span> : null}
          <h3>{p.name}</h3>
          <p className="muted">{p.description}</p>
          {billing ? (
            <p className="price">
              <strong>{formatPrice(p.priceCents)}</strong>
              <span className="muted">/month</span>
            </p>
          ) : (
            <p className="price">
              <strong>Free</strong>
              <span className="muted">{p.id === config.value.freePlan ? ' for every new account' : ' when the administrator grants it'}</span>
            </p>
          )}
          <ul>
            {/* a saving ('Saves $5') means nothing where nothing is sold */}
            {p.features
              .filter((f) => billing || !f.includes('$'))
              .map((f) => (
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
  if (!config.value.billingEnabled)
    return (
      <>
        <ContactAdmin />
        <PlanGrid />
      </>
    )
  if (!onChoose) return <PlanGrid />
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
