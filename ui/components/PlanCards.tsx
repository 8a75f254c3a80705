// The three plans of src/access/plans.ts as cards (the card layout is PlanGrid's). Paying is the
// billing capability's: it passes `cta` for a checkout button. Without one — billing off, or not
// wired yet — each card says honestly how to get the plan instead of showing a dead pay button.
import { useSignals } from '@preact/signals-react/runtime'
import { config } from '../state'
import { PlanGrid } from './UpgradeDialog'

export const CONTACT_ADMIN = 'Contact the administrator to activate this plan.'

export function PlanCards({ cta }: { cta?: (planId: string) => React.ReactNode }) {
  useSignals()
  const note = config.value.billingEnabled ? 'Online payment is not available yet. ' + CONTACT_ADMIN : CONTACT_ADMIN
  return <PlanGrid cta={cta ?? (() => <p className="plan-card-note">{note}</p>)} />
}
