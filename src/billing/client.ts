// The Stripe client: one per secret key and API base. STRIPE_API_BASE (tests, a local fake)
// points the SDK's host, port and protocol elsewhere; the API version is the one the SDK pins.
// Requests go through fetch (Bun's own) with a short timeout and two retries: a Stripe outage
// must fail a request quickly so the callers (checkout, webhook, reconcile) can say so and retry.
import Stripe from 'stripe'
import type { Config } from '../config'
import { conflict } from '../lib/errors'

export type StripeClient = Stripe

const clients = new Map<string, Stripe>()

export function stripeOptions(apiBase: string | null): Stripe.StripeConfig {
  const base: Stripe.StripeConfig = { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 2, timeout: 15_000, telemetry: false }
  if (apiBase === null) return base
  const u = new URL(apiBase)
  const protocol = u.protocol === 'http:' ? 'http' : 'https'
  return { ...base, host: u.hostname, port: u.port || (protocol === 'http' ? 80 : 443), protocol }
}

/** The client for this config; throws 409 BILLING_DISABLED when billing is off. */
export function stripeFor(config: Pick<Config, 'billingEnabled' | 'stripe'>): Stripe {
  const { secretKey, apiBase } = config.stripe
  if (!config.billingEnabled || secretKey === null) throw billingDisabled()
  const key = `${secretKey}@${apiBase ?? ''}`
  let client = clients.get(key)
  if (client === undefined) {
    client = new Stripe(secretKey, stripeOptions(apiBase))
    clients.set(key, client)
  }
  return client
}

export const BILLING_DISABLED_MESSAGE = 'Billing is not enabled on this server. Ask the administrator for access.'

export function billingDisabled() {
  return conflict(BILLING_DISABLED_MESSAGE, 'BILLING_DISABLED')
}
