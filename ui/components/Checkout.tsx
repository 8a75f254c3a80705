// The embedded checkout of one plan (issue 13 item 9, spec §2, §4, §8): the Checkout Session is
// created first (its errors are ours to word), then Stripe.js mounts the payment form into this
// component's box. 'Back to Plan Selection' destroys it. When Stripe says the payment completed,
// the form makes way for the outcome ('Subscription Activated!' or 'Subscription Active') and
// `onDone` runs 2 s later.
import { useEffect, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { planById, type PlanId } from '../../src/access/plans'
import { CHECKOUT_TEXT, CheckoutStartError, checkoutBroke, completePayment, createCheckoutSession, SUCCESS_CALLBACK_MS, type PaymentOutcome } from '../billing'
import { config } from '../state'
import { createEmbeddedCheckout, loadStripe, type EmbeddedCheckout } from '../stripe-js'

type Phase = { kind: 'loading' } | { kind: 'open' } | { kind: 'error'; message: string } | { kind: 'paid'; outcome: PaymentOutcome | null }

export function Checkout({ plan, onBack, onDone }: { plan: PlanId; onBack: () => void; onDone?: () => void }) {
  useSignals()
  const box = useRef<HTMLDivElement>(null)
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const onDoneRef = useRef(onDone)
  onDoneRef.current = onDone
  const { stripeJsUrl, stripePublishableKey, productName } = config.value

  useEffect(() => {
    let live = true
    let checkout: EmbeddedCheckout | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    const destroy = () => {
      try {
        checkout?.destroy()
      } catch {}
      checkout = null
    }
    const completed = async () => {
      // Stripe's advice: take the form down and show our own success.
      destroy()
      if (live) setPhase({ kind: 'paid', outcome: null })
      // The toasts run even when this box is already gone: the webhook's access.changed may have
      // lifted the overlay that held it before Stripe.js reported the payment.
      const outcome = await completePayment()
      if (!live) return
      setPhase({ kind: 'paid', outcome })
      timer = setTimeout(() => onDoneRef.current?.(), SUCCESS_CALLBACK_MS)
    }
    setPhase({ kind: 'loading' })
    void (async () => {
      let secret: string
      try {
        secret = await createCheckoutSession(plan)
      } catch (err) {
        if (live) setPhase({ kind: 'error', message: err instanceof CheckoutStartError ? err.message : CHECKOUT_TEXT.startFailed })
        return
      }
      if (!live) return
      try {
        const stripe = await loadStripe(stripeJsUrl, stripePublishableKey)
        const made = await createEmbeddedCheckout(stripe, { fetchClientSecret: () => Promise.resolve(secret), onComplete: () => void completed() })
        if (!live || !box.current) {
          made.destroy()
          return
        }
        checkout = made
        made.mount(box.current)
        setPhase({ kind: 'open' })
      } catch {
        destroy()
        if (live) setPhase({ kind: 'error', message: checkoutBroke() })
      }
    })()
    return () => {
      live = false
      clearTimeout(timer)
      destroy()
    }
  }, [plan, attempt, stripeJsUrl, stripePublishableKey])

  // Focus follows the click into the checkout: its first control.
  const back = useRef<HTMLButtonElement>(null)
  useEffect(() => back.current?.focus({ preventScroll: true }), [])

  const name = planById(plan, productName).name
  return (
    <section className="checkout" aria-label={`Checkout: ${name}`} data-testid="checkout">
      {phase.kind !== 'paid' ? (
        <button ref={back} type="button" className="outline secondary checkout-back" onClick={onBack}>
          Back to Plan Selection
        </button>
      ) : null}
      {phase.kind === 'loading' ? <p aria-busy="true">Loading checkout…</p> : null}
      {phase.kind === 'error' ? (
        <div className="checkout-error" role="alert">
          <strong>{CHECKOUT_TEXT.loadingError}</strong>
          <p>{phase.message}</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Try Again
          </button>
        </div>
      ) : null}
      {phase.kind === 'paid' ? <CheckoutOutcome outcome={phase.outcome} /> : null}
      {/* Stripe mounts its iframe here; React renders nothing inside it. */}
      <div ref={box} className="checkout-mount" hidden={phase.kind !== 'open' && phase.kind !== 'loading'} data-testid="checkout-mount" />
    </section>
  )
}

function CheckoutOutcome({ outcome }: { outcome: PaymentOutcome | null }) {
  if (outcome === null)
    return (
      <div className="checkout-outcome" role="status">
        <strong>{CHECKOUT_TEXT.paymentSuccessful}</strong>
        <p aria-busy="true">Activating your subscription…</p>
      </div>
    )
  return (
    <div className={`checkout-outcome${outcome.refreshed ? ' activated' : ''}`} role="status" data-testid="checkout-outcome">
      <h4>{outcome.title}</h4>
      {/* Without a refresh the toast says 'refresh if needed'; the box says what refreshing shows. */}
      <p>{outcome.refreshed ? outcome.description : CHECKOUT_TEXT.paymentUnrefreshed}</p>
    </div>
  )
}
