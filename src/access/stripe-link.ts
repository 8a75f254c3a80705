// A user's link to Stripe, kept on their user_access row: the customer (made on the first checkout,
// src/billing/customer.ts) and the subscription that speaks for them (src/billing/refresh.ts). This
// folder owns user_access (src/db/owners.json); billing reads and writes these two columns here. The
// access they grant is written through ./service.ts writeAccess.
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { userAccess } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

/** The stored customer and subscription ids of a user, or null when the user has no access row. */
export async function stripeIdsOf(deps: OwnerDb, userId: number): Promise<{ customer: string | null; subscription: string | null } | null> {
  const [row] = await asAsync(deps.db)
    .select({ customer: userAccess.stripeCustomerId, subscription: userAccess.stripeSubscriptionId })
    .from(userAccess)
    .where(eq(userAccess.userId, userId))
    .limit(1)
  return row ?? null
}

/** The user a customer is linked to, or null. */
export async function userOfCustomer(deps: OwnerDb, customerId: string): Promise<number | null> {
  const [row] = await asAsync(deps.db).select({ userId: userAccess.userId }).from(userAccess).where(eq(userAccess.stripeCustomerId, customerId)).limit(1)
  return row?.userId ?? null
}

/** Every user with a stored customer (the reconciliation's list). */
export async function customerLinks(deps: OwnerDb): Promise<{ userId: number; customer: string }[]> {
  return (await asAsync(deps.db)
    .select({ userId: userAccess.userId, customer: userAccess.stripeCustomerId })
    .from(userAccess)
    .where(isNotNull(userAccess.stripeCustomerId))) as { userId: number; customer: string }[]
}

/** Stores a new customer: creates the access row if there is none, never replaces a stored customer. */
export async function storeCustomer(deps: OwnerDb, userId: number, customerId: string): Promise<void> {
  await asAsync(deps.db)
    .insert(userAccess)
    .values({ userId, stripeCustomerId: customerId })
    .onConflictDoUpdate({ target: userAccess.userId, set: { stripeCustomerId: customerId }, setWhere: isNull(userAccess.stripeCustomerId) })
}

/** Links a customer to an existing access row that has none yet (no row: nothing happens). */
export async function linkCustomerIfNone(deps: OwnerDb, userId: number, customerId: string): Promise<void> {
  await asAsync(deps.db)
    .update(userAccess)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(userAccess.userId, userId), isNull(userAccess.stripeCustomerId)))
}

/** Forgets the customer (and its subscription) when it is still the stored one. */
export async function unlinkCustomer(deps: OwnerDb, userId: number, customerId: string): Promise<void> {
  await asAsync(deps.db)
    .update(userAccess)
    .set({ stripeCustomerId: null, stripeSubscriptionId: null })
    .where(and(eq(userAccess.userId, userId), eq(userAccess.stripeCustomerId, customerId)))
}

/** Stores the subscription that speaks for the user. */
export async function storeSubscriptionId(deps: OwnerDb, userId: number, subscriptionId: string): Promise<void> {
  await asAsync(deps.db).update(userAccess).set({ stripeSubscriptionId: subscriptionId }).where(eq(userAccess.userId, userId))
}
