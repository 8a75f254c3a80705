// Web push subscriptions: one row per device (unique endpoint). Saving an endpoint that another
// account used on the same browser moves it to the current user.
import { and, eq, sql } from 'drizzle-orm'
import { pushSubscriptions } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { badRequest } from '../lib/errors'

export type SubscriptionInput = { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } }
const B64URL = /^[A-Za-z0-9_-]+=*$/

export async function saveSubscription(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, input: SubscriptionInput, userAgent: string | null) {
  const endpoint = typeof input.endpoint === 'string' ? input.endpoint : ''
  const p256dh = typeof input.keys?.p256dh === 'string' ? input.keys.p256dh : ''
  const auth = typeof input.keys?.auth === 'string' ? input.keys.auth : ''
  let url: URL | null = null
  try {
    url = new URL(endpoint)
  } catch {}
  if (!url || url.protocol !== 'https:' || endpoint.length > 2048) throw badRequest('The push subscription endpoint must be an https URL.', 'BAD_SUBSCRIPTION')
  if (!B64URL.test(p256dh) || !B64URL.test(auth) || p256dh.length > 200 || auth.length > 100)
    throw badRequest('The push subscription keys are missing or malformed.', 'BAD_SUBSCRIPTION')
  const values = { userId, p256dh, auth, userAgent: userAgent?.slice(0, 300) ?? null }
  const [row] = await asAsync(deps.db)
    .insert(pushSubscriptions)
    .values({ endpoint, createdAt: deps.now(), ...values })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
    .returning({ id: pushSubscriptions.id })
  return { id: row!.id, count: await countSubscriptions(deps, userId) }
}

export async function deleteSubscription(deps: OwnerDb, userId: number, endpoint: unknown) {
  if (typeof endpoint !== 'string' || !endpoint) throw badRequest('endpoint is required.', 'BAD_SUBSCRIPTION')
  const removed = (
    await asAsync(deps.db)
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
      .returning({ id: pushSubscriptions.id })
  ).length
  return { removed, count: await countSubscriptions(deps, userId) }
}

export async function countSubscriptions(deps: OwnerDb, userId: number): Promise<number> {
  const [row] = await asAsync(deps.db)
    .select({ n: sql<number>`count(*)` })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
  return Number(row?.n ?? 0)
}

// The outbox's web push sender reads and writes the subscriptions through these (src/notify/channel-store.ts
// gives them to src/outbox/channels/webpush.ts, which may not import this folder: it imports the outbox).

/** A subscription by id, whoever owns it; null once removed. */
export async function subscriptionById(deps: OwnerDb, id: number): Promise<typeof pushSubscriptions.$inferSelect | null> {
  return (await asAsync(deps.db).select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1))[0] ?? null
}

/** The push service accepted a message for the subscription (Admin → Alerts shows the time). */
export async function markPushDelivered(deps: OwnerDb & Pick<Deps, 'now'>, id: number): Promise<void> {
  await asAsync(deps.db).update(pushSubscriptions).set({ lastSuccessAt: deps.now() }).where(eq(pushSubscriptions.id, id))
}

/** The push service says the subscription is gone (404/410): its row goes. `db` may be the caller's transaction. */
export async function deleteGoneSubscription(deps: OwnerDb, id: number): Promise<void> {
  await asAsync(deps.db).delete(pushSubscriptions).where(eq(pushSubscriptions.id, id))
}
