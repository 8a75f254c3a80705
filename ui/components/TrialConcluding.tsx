// The 'trial is concluding' section (spec §2): in the last 2 days of the trial and after it ended,
// one line per plan (planLine: 'GAFS + GD — $20/month'), each with Subscribe, which opens that
// plan's embedded checkout in place. The trial emails link here (/dashboard/subscription). With
// billing off the lines name the plans without a price, and ContactAdmin says how to get one.
import { useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { planLine, plans, TRIAL_DAYS, type PlanId } from '../../src/access/plans'
import { TRIAL_ENDING_DAYS, type AccessInfo } from '../../src/access/rules'
import { me } from '../account'
import { config } from '../state'
import { Checkout } from './Checkout'
import { ContactAdmin } from './BillingOff'
import { trialDaysText } from './TrialStatus'
import { formatDay } from './SubscriptionDetails'

/** The trial ends within TRIAL_ENDING_DAYS, or has ended. */
export function trialConcluding(access: AccessInfo | null | undefined): boolean {
  if (!access) return false
  if (access.userRole === 'trial_expired') return true
  return access.userRole === 'app_trial' && (!access.hasAccess || (typeof access.daysLeft === 'number' && access.daysLeft <= TRIAL_ENDING_DAYS))
}

export function TrialConcluding({ level = 2, onDone }: { level?: 2 | 3; onDone?: () => void }) {
  useSignals()
  const access = me.value?.access
  const [plan, setPlan] = useState<PlanId | null>(null)
  if (!trialConcluding(access)) return null
  const ended = !access!.hasAccess
  const ends = access!.accessExpiresAt ? formatDay(access!.accessExpiresAt) : null
  const Heading = `h${level}` as const
  const billing = config.value.billingEnabled
  return (
    <section className="trial-concluding" aria-labelledby="trial-concluding-title" data-testid="trial-concluding">
      <Heading id="trial-concluding-title">{ended ? 'Your Free Trial Has Ended' : 'Your Trial is Ending Soon'}</Heading>
      <p>
        {ended
          ? `Your ${TRIAL_DAYS}-day free trial ${ends ? `ended on ${ends}` : 'has ended'}.${billing ? ' Choose a plan to get your matches and alerts back.' : ''}`
          : `Your ${TRIAL_DAYS}-day free trial ${ends ? `ends on ${ends}` : 'ends soon'} (${trialDaysText(access!.daysLeft ?? 0)}).${billing ? ' Choose a plan to keep your search terms working.' : ''}`}
      </p>
      {plan !== null ? (
        <Checkout
          plan={plan}
          onBack={() => setPlan(null)}
          onDone={() => {
            setPlan(null)
            onDone?.()
          }}
        />
      ) : (
        <>
          <ul className="plan-lines">
            {plans(config.value.productName).map((p) => (
              <li key={p.id} data-testid={`plan-line-${p.id}`}>
                <span className="plan-line-text">{billing ? planLine(p) : p.name}</span>
                {p.bestValue ? <span className="badge best-badge">Best value</span> : null}
                {billing ? (
                  <button type="button" aria-label={`Subscribe to ${p.name}`} onClick={() => setPlan(p.id)}>
                    Subscribe
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          {billing ? null : <ContactAdmin />}
        </>
      )}
    </section>
  )
}
