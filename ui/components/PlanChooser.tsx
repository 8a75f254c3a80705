// 'Available Plans' and the embedded checkout in one place (spec §2, §4 plan-list rule): the plan
// cards, and once one is chosen, its checkout instead — with 'Back to Plan Selection' to return.
// The subscription modal, the blocking overlay and the subscription page all use it.
import { useEffect, useRef, useState } from 'react'
import type { PlanId } from '../../src/access/plans'
import { Checkout } from './Checkout'
import { PlanCards } from './PlanCards'

type Props = {
  /** Runs 2 s after a completed payment (the modal closes, the page shows the new plan). */
  onDone?: () => void
  /** The plan the user pays for now, shown as such. */
  current?: PlanId | null
  /** Heading level of 'Available Plans' in the surrounding document. */
  level?: 2 | 3 | 4
  /** Called with true while a checkout is open (the plan-list rule hides the plans then). */
  onCheckoutOpen?: (open: boolean) => void
}

export function PlanChooser({ onDone, current, level = 4, onCheckoutOpen }: Props) {
  const [plan, setPlan] = useState<PlanId | null>(null)
  const lastPlan = useRef<PlanId | null>(null)
  const grid = useRef<HTMLDivElement>(null)
  useEffect(() => {
    onCheckoutOpen?.(plan !== null)
    // Back from a checkout: focus returns to the card it was opened from.
    if (plan === null && lastPlan.current) grid.current?.querySelector<HTMLElement>(`[data-plan-cta="${lastPlan.current}"]`)?.focus({ preventScroll: true })
  }, [plan])
  const choose = (id: PlanId) => {
    lastPlan.current = id
    setPlan(id)
  }
  if (plan !== null)
    return (
      <Checkout
        plan={plan}
        onBack={() => setPlan(null)}
        onDone={() => {
          lastPlan.current = null
          setPlan(null)
          onDone?.()
        }}
      />
    )
  const Heading = `h${level}` as const
  return (
    <div ref={grid} className="plan-chooser">
      <Heading>Available Plans</Heading>
      <PlanCards onChoose={choose} current={current} />
    </div>
  )
}
