// POST /api/billing/webhook: Stripe's signed events. The signature is checked on the raw body
// (constructEventAsync: Bun's WebCrypto); a bad or missing one is refused 400, logged, and changes
// nothing. Each event id is processed once (stripe_events, recorded after success, so an event
// that failed — Stripe unreachable — is retried by Stripe). The handled events only say *whose*
// state may have changed: the customer's subscriptions are re-read from the API (refresh.ts).
import { eq } from 'drizzle-orm'
import type Stripe from 'stripe'
import { asAsync } from '../db/async-sqlite'
import { stripeEvents } from '../db/schema'
import type { Deps } from '../deps'
import { AppError, badRequest } from '../lib/errors'
import { log } from '../lib/log'
import { stripeFor } from './client'
import { refreshCustomer } from './refresh'

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const

type Target = { customer: string; userHint: number | null }

function targetOf(event: Stripe.Event): Target | null {
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return null
  const o = event.data.object as { customer?: string | { id: string } | null; client_reference_id?: string | null; metadata?: Record<string, string> | null }
  const customer = typeof o.customer === 'string' ? o.customer : (o.customer?.id ?? null)
  if (customer === null) return null
  const hint = Number(o.client_reference_id ?? o.metadata?.user_id ?? NaN)
  return { customer, userHint: Number.isInteger(hint) && hint > 0 ? hint : null }
}

export type WebhookResult = { received: true; duplicate?: true; ignored?: true }

export async function handleWebhook(deps: Pick<Deps, 'db' | 'now' | 'bus' | 'config'>, rawBody: string, signature: string | null): Promise<WebhookResult> {
  const stripe = stripeFor(deps.config)
  if (!signature) {
    log.warn('stripe webhook refused: no Stripe-Signature header')
    throw badRequest('Missing Stripe-Signature header.', 'BAD_SIGNATURE')
  }
  let event: Stripe.Event
  try {
    event = await stripe.webhooks.constructEventAsync(rawBody, signature, deps.config.stripe.webhookSecret ?? '')
  } catch (err) {
    log.warn('stripe webhook refused: bad signature', { error: (err as Error).message })
    throw badRequest('Invalid Stripe signature.', 'BAD_SIGNATURE')
  }
  const db = asAsync(deps.db)
  if ((await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1)).length > 0)
    return { received: true, duplicate: true }
  const target = targetOf(event)
  if (target !== null) {
    try {
      await refreshCustomer(deps, target.customer, { userHint: target.userHint, cause: `${event.type} ${event.id}` })
    } catch (err) {
      log.warn('stripe webhook: could not re-read the subscription; Stripe will retry the event', { event: event.id, error: (err as Error).message })
      throw new AppError(503, 'STRIPE_UNAVAILABLE', 'Stripe could not be reached; retry later.', undefined, err)
    }
  }
  await db.insert(stripeEvents).values({ id: event.id, type: event.type, processedAt: deps.now() }).onConflictDoNothing()
  return target === null ? { received: true, ignored: true } : { received: true }
}
