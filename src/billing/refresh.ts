// Stripe → the database: re-reads a customer's subscriptions from the API (never the event's copy),
// picks the one that speaks for them, maps it to access (mapping.ts) and writes the change through
// writeAccess (access_history + 'access.changed' to open tabs), one line in the admin activity log,
// and for a failed renewal one email asking to update the card. Writing nothing when nothing
// changed is what makes replays and reordered events harmless.
import type Stripe from 'stripe'
import type { Deps } from '../deps'
import { writeAccessFrom } from '../access/service'
import { accessStateOf } from '../access/state'
import { linkCustomerIfNone, storeSubscriptionId, stripeIdsOf, userOfCustomer } from '../access/stripe-link'
import { findUser } from '../auth/users'
import { recordAudit } from '../audit/log'
import { AppError } from '../lib/errors'
import { log } from '../lib/log'
import { enqueueEmail } from '../outbox/queue'
import { stripeFor } from './client'
import { cachedCatalog, planForLookupKey, type Catalog } from './catalog'
import type { PlanId } from '../access/plans'
import { accessFromSubscription, changeAction, decide, pickSubscription, type SubscriptionFacts } from './mapping'
import { paymentFailedEmail } from './emails'

type BillingDeps = Pick<Deps, 'db' | 'now' | 'bus' | 'config'>

const date = (s: number | null | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null)

/** The plan of a subscription item: its price's lookup key, else our metadata, else our product (a price replaced by a sync). */
function planOf(item: Stripe.SubscriptionItem | undefined, catalog: Catalog | null): PlanId | null {
  if (item === undefined) return null
  const product = typeof item.price.product === 'string' ? item.price.product : item.price.product.id
  const byProduct = catalog ? ((Object.entries(catalog.products) as [PlanId, string][]).find(([, id]) => id === product)?.[0] ?? null) : null
  return planForLookupKey(item.price.lookup_key) ?? planOfMetadata(item.price.metadata) ?? byProduct
}

export function factsOf(sub: Stripe.Subscription, catalog: Catalog | null = null): SubscriptionFacts {
  const item = sub.items.data[0]
  const cancelAt = date(sub.cancel_at)
  return {
    id: sub.id,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end || cancelAt !== null,
    periodEnd: cancelAt ?? date(item?.current_period_end),
    periodStart: date(item?.current_period_start),
    endedAt: date(sub.ended_at),
    plan: planOf(item, catalog),
    created: sub.created,
  }
}

function planOfMetadata(meta: Stripe.Metadata | undefined): PlanId | null {
  const p = meta?.dibs_plan
  return p === 'product' || p === 'gd' || p === 'product+gd' ? p : null
}

/** The user of a Stripe customer: the stored link, else the id the checkout carried (then stored, if the user has no customer yet). */
export async function userForCustomer(deps: Pick<Deps, 'db'>, customerId: string, hint: number | null): Promise<number | null> {
  const linked = await userOfCustomer(deps, customerId)
  if (linked !== null) return linked
  if (hint === null || (await findUser(deps, hint)) === undefined) return null
  await linkCustomerIfNone(deps, hint, customerId)
  // Only when that linked it: a user who already has another customer is not this one's.
  return (await stripeIdsOf(deps, hint))?.customer === customerId ? hint : null
}

export type RefreshResult = { userId: number | null; subscription: string | null; changed: boolean }

/**
 * One refresh per customer at a time: Stripe delivers events concurrently, and two overlapping
 * re-reads could otherwise write in the wrong order (the older read last).
 */
const inFlight = new Map<string, Promise<unknown>>()

export function refreshCustomer(deps: BillingDeps, customerId: string, opts: { userHint?: number | null; cause: string }): Promise<RefreshResult> {
  const previous = inFlight.get(customerId) ?? Promise.resolve()
  const run = previous.catch(() => {}).then(() => refreshNow(deps, customerId, opts))
  inFlight.set(customerId, run)
  void run.finally(() => inFlight.get(customerId) === run && inFlight.delete(customerId)).catch(() => {})
  return run
}

async function refreshNow(deps: BillingDeps, customerId: string, opts: { userHint?: number | null; cause: string }): Promise<RefreshResult> {
  const userId = await userForCustomer(deps, customerId, opts.userHint ?? null)
  if (userId === null) {
    log.warn('stripe: customer without a Dibs account', { customer: customerId, cause: opts.cause })
    return { userId: null, subscription: null, changed: false }
  }
  const stripe = stripeFor(deps.config)
  const list = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 })
  const catalog = cachedCatalog(deps)
  const chosen = pickSubscription(list.data.map((s) => factsOf(s, catalog)))
  return { userId, subscription: chosen?.id ?? null, changed: chosen === null ? false : await applyFacts(deps, userId, chosen, opts.cause) }
}

/** Writes what a subscription means for the user; false when nothing changed. */
export async function applyFacts(deps: BillingDeps, userId: number, facts: SubscriptionFacts, cause: string): Promise<boolean> {
  const now = deps.now()
  const user = await findUser(deps, userId)
  if (user === undefined) return false
  const row = await stripeIdsOf(deps, userId)
  if (row && row.subscription !== facts.id) await storeSubscriptionId(deps, userId, facts.id)
  // The stored access is read, decided on and written in one transaction: a gift or role granted
  // meanwhile is what `decide` sees (docs/atomicity-audit.md B2).
  const decided = await writeAccessFrom(deps, userId, (stored) => {
    const state = accessStateOf(deps, user.email, stored)
    const next = decide(state, accessFromSubscription(facts, now), now)
    return next === null ? null : { write: { ...next, grantedBy: null, source: 'stripe' }, result: { state, next } }
  })
  if (decided === null) return false
  const { state, next } = decided
  await recordAudit(deps, {
    actor: 'stripe',
    action: changeAction(state, next),
    target: `user:${userId}`,
    details: {
      subscription: facts.id,
      stripeStatus: facts.status,
      role: next.role,
      status: next.subscriptionStatus,
      accessExpiresAt: next.accessExpiresAt?.toISOString() ?? null,
      from: { role: state.role, status: state.subscriptionStatus },
      cause,
    },
  })
  if (next.subscriptionStatus === 'past_due' && next.accessExpiresAt !== null) {
    await enqueueEmail(deps, 'payment_failed', paymentFailedEmail(deps.config, user.email, next.accessExpiresAt), {
      userId,
      dedupeKey: `payment_failed:${userId}:${facts.id}:${facts.periodStart?.getTime() ?? 0}`,
    })
  }
  log.info('stripe: access updated', { userId, role: next.role, status: next.subscriptionStatus, cause })
  return true
}

/** The signed-in user's own re-read (POST /api/billing/refresh): nothing to do without a customer. */
export async function refreshUser(deps: BillingDeps, userId: number): Promise<RefreshResult | null> {
  const row = await stripeIdsOf(deps, userId)
  if (!deps.config.billingEnabled || !row?.customer) return null
  try {
    return await refreshCustomer(deps, row.customer, { userHint: userId, cause: 'user refresh' })
  } catch (err) {
    throw new AppError(503, 'STRIPE_UNAVAILABLE', 'Your subscription could not be checked right now. Please try again shortly.', undefined, err)
  }
}
