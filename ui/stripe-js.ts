// Stripe.js for the embedded checkout, loaded on demand from the configured STRIPE_JS_URL (tests
// serve a stand-in there). @stripe/stripe-js's loader hard-codes js.stripe.com, so only its types
// are used: the script is injected here, once, and only when billing is on and a checkout starts.
import type { StripeEmbeddedCheckout, StripeEmbeddedCheckoutOptions } from '@stripe/stripe-js'

export type EmbeddedCheckout = Pick<StripeEmbeddedCheckout, 'mount' | 'destroy'>
export type EmbeddedCheckoutOptions = Pick<StripeEmbeddedCheckoutOptions, 'fetchClientSecret' | 'onComplete'>

/**
 * The part of a Stripe instance the checkout uses. Newer Stripe.js releases name the call
 * createEmbeddedCheckoutPage; older ones (and the test stand-in) initEmbeddedCheckout.
 */
export type StripeLike = {
  createEmbeddedCheckoutPage?: (options: EmbeddedCheckoutOptions) => Promise<EmbeddedCheckout>
  initEmbeddedCheckout?: (options: EmbeddedCheckoutOptions) => Promise<EmbeddedCheckout>
}
type StripeGlobal = { Stripe?: (publishableKey: string) => StripeLike }

let script: Promise<NonNullable<StripeGlobal['Stripe']>> | null = null
const instances = new Map<string, StripeLike>()

function injectScript(url: string): Promise<NonNullable<StripeGlobal['Stripe']>> {
  const existing = (window as unknown as StripeGlobal).Stripe
  if (existing) return Promise.resolve(existing)
  if (script) return script
  const loading = new Promise<NonNullable<StripeGlobal['Stripe']>>((resolve, reject) => {
    const el = document.createElement('script')
    el.src = url
    el.async = true
    el.dataset.stripeJs = ''
    const fail = (why: string) => {
      el.remove()
      reject(new Error(why))
    }
    el.onload = () => {
      const ctor = (window as unknown as StripeGlobal).Stripe
      if (ctor) resolve(ctor)
      else fail('Stripe.js loaded but did not define Stripe')
    }
    el.onerror = () => fail(`Stripe.js could not be loaded from ${url}`)
    document.head.appendChild(el)
  })
  script = loading
  // A failed load may be retried (flaky network): the next call injects a fresh tag.
  loading.catch(() => {
    if (script === loading) script = null
  })
  return loading
}

/** The Stripe instance for a publishable key; rejects when billing is off (no URL or key). */
export async function loadStripe(jsUrl: string | null, publishableKey: string | null): Promise<StripeLike> {
  if (!jsUrl || !publishableKey) throw new Error('Billing is not configured')
  const known = instances.get(publishableKey)
  if (known) return known
  const ctor = await injectScript(jsUrl)
  const stripe = ctor(publishableKey)
  instances.set(publishableKey, stripe)
  return stripe
}

export function createEmbeddedCheckout(stripe: StripeLike, options: EmbeddedCheckoutOptions): Promise<EmbeddedCheckout> {
  const create = stripe.createEmbeddedCheckoutPage ?? stripe.initEmbeddedCheckout
  if (!create) return Promise.reject(new Error('This Stripe.js has no embedded checkout'))
  return create.call(stripe, options)
}

/** For tests: forget the loaded script and instances. */
export function resetStripeForTests() {
  script = null
  instances.clear()
}
