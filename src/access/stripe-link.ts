// A user's link to Stripe, kept on their user_access row: the customer (made on the first checkout,
// src/billing/customer.ts) and the subscription that speaks for them (src/billing/refresh.ts). This
// folder owns user_access (src/db/owners.json); billing reads and writes these two columns here. The
// access they grant is written through ./service.ts writeAccess.
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { userAccess } from '../db/schema'
import type { Deps } from '../deps'

/** The stored customer and subscription ids of a user, or null when the user has no access row. */
export function stripeIdsOf(deps: Pick<Deps, 'db'>, userId: number): { customer: string | null; subscription: string | null } | null {
  return (
    deps.db
      .select({ customer: userAccess.stripeCustomerId, subscription: userAccess.stripeSubscriptionId })
      .from(userAccess)
      .where(eq(userAccess.userId, userId))
      .get() ?? null
  )
}

/** The user a customer is linked to, or null. */
export function userOfCustomer(deps: Pick<Deps, 'db'>, customerId: string): number | null {
  return deps.db.select({ userId: userAccess.userId }).from(userAccess).where(eq(userAccess.stripeCustomerId, customerId)).get()?.userId ?? null
}

/** Every user with a stored customer (the reconciliation's list). */
export function customerLinks(deps: Pick<Deps, 'db'>): { userId: number; customer: string }[] {
  return deps.db
    .select({ userId: userAccess.userId, customer: userAccess.stripeCustomerId })
    .from(userAccess)
    .where(isNotNull(userAccess.stripeCustomerId))
    .all() as { userId: number; customer: string }[]
}

/** Stores a new customer: creates the access row if there is none, never replaces a stored customer. */
export function storeCustomer(deps: Pick<Deps, 'db'>, userId: number, customerId: string): void {
  deps.db
    .insert(userAccess)
    .values({ userId, stripeCustomerId: customerId })
    .onConflictDoUpdate({ target: userAccess.userId, set: { stripeCustomerId: customerId }, setWhere: isNull(userAccess.stripeCustomerId) })
    .run()
}

/** Links a customer to an existing access row that has none yet (no row: nothing happens). */
export function linkCustomerIfNone(deps: Pick<Deps, 'db'>, userId: number, customerId: string): void {
  deps.db
    .update(userAccess)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(userAccess.userId, userId), isNull(userAccess.stripeCustomerId)))
    .run()
}

/** Forgets the customer (and its subscription) when it is still the stored one. */
export function unlinkCustomer(deps: Pick<Deps, 'db'>, userId: number, customerId: string): void {
  deps.db
    .update(userAccess)
    .set({ stripeCustomerId: null, stripeSubscriptionId: null })
    .where(and(eq(userAccess.userId, userId), eq(userAccess.stripeCustomerId, customerId)))
    .run()
}

/** Stores the subscription that speaks for the user. */
export function storeSubscriptionId(deps: Pick<Deps, 'db'>, userId: number, subscriptionId: string): void {
  deps.db.update(userAccess).set({ stripeSubscriptionId: subscriptionId }).where(eq(userAccess.userId, userId)).run()
}
