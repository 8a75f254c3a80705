// A user's Stripe customer: created once (on their first checkout) and kept in
// user_access.stripe_customer_id; the idempotency key makes a double click create one customer.
import type { Deps } from '../deps'
import { storeCustomer, stripeIdsOf, unlinkCustomer } from '../access/stripe-link'
import { stripeFor } from './client'

export async function storedCustomer(deps: Pick<Deps, 'db'>, userId: number): Promise<{ customer: string | null; subscription: string | null }> {
  const row = await stripeIdsOf(deps, userId)
  return { customer: row?.customer ?? null, subscription: row?.subscription ?? null }
}

/** `replacing`: the id of a customer Stripe lost (the idempotency key must differ from the one that made it). */
export async function ensureCustomer(deps: Pick<Deps, 'db' | 'config'>, userId: number, email: string, replacing?: string): Promise<string> {
  const stored = (await storedCustomer(deps, userId)).customer
  if (stored !== null) return stored
  const created = await stripeFor(deps.config).customers.create(
    { email, metadata: { user_id: String(userId) } },
    { idempotencyKey: `dibs-customer-${userId}-${email}-${deps.config.appUrl}${replacing ? `-${replacing}` : ''}` },
  )
  await storeCustomer(deps, userId, created.id)
  // A concurrent request may have stored its customer first: that one is the user's.
  return (await storedCustomer(deps, userId)).customer ?? created.id
}

/** Forgets a stored customer that Stripe no longer knows (deleted in the dashboard, another account's key). */
export async function forgetCustomer(deps: Pick<Deps, 'db'>, userId: number, customer: string): Promise<void> {
  await unlinkCustomer(deps, userId, customer)
}
