// A user's Stripe customer: created once (on their first checkout) and kept in
// user_access.stripe_customer_id; the idempotency key makes a double click create one customer.
import { and, eq, isNull } from 'drizzle-orm'
import { userAccess } from '../db/schema'
import type { Deps } from '../deps'
import { stripeFor } from './client'

export function storedCustomer(deps: Pick<Deps, 'db'>, userId: number): { customer: string | null; subscription: string | null } {
  const row = deps.db
    .select({ customer: userAccess.stripeCustomerId, subscription: userAccess.stripeSubscriptionId })
    .from(userAccess)
    .where(eq(userAccess.userId, userId))
    .get()
  return { customer: row?.customer ?? null, subscription: row?.subscription ?? null }
}

/** `replacing`: the id of a customer Stripe lost (the idempotency key must differ from the one that made it). */
export async function ensureCustomer(deps: Pick<Deps, 'db' | 'config'>, userId: number, email: string, replacing?: string): Promise<string> {
  const stored = storedCustomer(deps, userId).customer
  if (stored !== null) return stored
  const created = await stripeFor(deps.config).customers.create(
    { email, metadata: { user_id: String(userId) } },
    { idempotencyKey: `dibs-customer-${userId}-${email}-${deps.config.appUrl}${replacing ? `-${replacing}` : ''}` },
  )
  deps.db
    .insert(userAccess)
    .values({ userId, stripeCustomerId: created.id })
    .onConflictDoUpdate({ target: userAccess.userId, set: { stripeCustomerId: created.id }, setWhere: isNull(userAccess.stripeCustomerId) })
    .run()
  // A concurrent request may have stored its customer first: that one is the user's.
  return storedCustomer(deps, userId).customer ?? created.id
}

/** Forgets a stored customer that Stripe no longer knows (deleted in the dashboard, another account's key). */
export function forgetCustomer(deps: Pick<Deps, 'db'>, userId: number, customer: string) {
  deps.db
    .update(userAccess)
    .set({ stripeCustomerId: null, stripeSubscriptionId: null })
    .where(and(eq(userAccess.userId, userId), eq(userAccess.stripeCustomerId, customer)))
    .run()
}
