// The webhook endpoint: signatures, idempotency by event id, and order independence — replaying
// every event twice, or delivering the whole stream in reverse order, leaves the state one clean
// delivery leaves.
import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { setLogLevel } from '../../src/lib/log'
import { eq } from 'drizzle-orm'
import { stripeEvents } from '../../src/db/schema'
import { billingWorld, DAY_MS, type BillingWorld } from './billing-helpers'

let w: BillingWorld
beforeAll(async () => {
  w = await billingWorld()
})
afterAll(() => w.stop())

const trial = () => ({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY_MS) })
const webhook = (body: string, signature?: string) =>
  w.api('POST', '/api/billing/webhook', { body, headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) } })

/** A journey with every kind of event: pay, switch plan, payment fails, renews, cancel at period end. */
async function journey(cookie: string) {
  const { subId } = await w.subscribe(cookie, 'gd')
  await w.stripe.switchPlan(subId, 'dibs_bundle_monthly')
  await w.stripe.failPayment(subId)
  await w.stripe.endPeriod(subId) // past_due → Stripe gives up → canceled
  return subId
}

const comparable = async (userId: number) => {
  const { role, status, expires } = await w.state(userId)
  return { role, status, expires }
}

describe('order and repetition', () => {
  test('replaying every event twice changes nothing', async () => {
    const u = await w.user(trial())
    const start = w.stripe.events.length
    await journey(u.cookie)
    const after = await comparable(u.userId)
    const lines = (await w.audit()).length
    const history = (await w.history(u.userId)).length
    const mine = w.stripe.events.slice(start)
    for (let i = 0; i < 2; i++) {
      const again = await w.stripe.replay({ events: mine })
      expect(again.every((d) => d.status === 200 && JSON.parse(d.body).duplicate === true)).toBe(true)
    }
    expect(await comparable(u.userId)).toEqual(after)
    expect((await w.audit()).length).toBe(lines)
    expect((await w.history(u.userId)).length).toBe(history)
  })

  test('the whole stream delivered in reverse order ends where one clean delivery ends', async () => {
    // clean: user A, webhooks delivered as they happen
    const a = await w.user(trial())
    await journey(a.cookie)
    // reversed: user B, the same journey with no delivery, then every event newest first
    const b = await w.user(trial())
    const url = `${w.server.url}/api/billing/webhook`
    const start = w.stripe.events.length
    const { sessionId } = await w.checkout(b.cookie, 'gd')
    w.stripe.setWebhook(null)
    await w.stripe.completeCheckout(sessionId)
    const subId = w.stripe.subscriptionOf(sessionId).id
    await w.stripe.switchPlan(subId, 'dibs_bundle_monthly')
    await w.stripe.failPayment(subId)
    await w.stripe.endPeriod(subId)
    w.stripe.setWebhook(url)
    expect((await w.state(b.userId)).role).toBe('app_trial') // nothing arrived yet
    const reversed = await w.stripe.replay({ events: w.stripe.events.slice(start), reverse: true })
    expect(reversed.every((d) => d.status === 200)).toBe(true)
    const A = await comparable(a.userId)
    const B = await comparable(b.userId)
    expect(B.role).toBe(A.role)
    expect(B.status).toBe(A.status)
    expect(B.status).toBe('canceled')
    expect((await w.state(b.userId)).subscription).toBe(subId)
    // and a reversed stream of a live subscription leaves it live (the newest state, not the first event's)
    const c = await w.user(trial())
    const start2 = w.stripe.events.length
    const { sessionId: s2 } = await w.checkout(c.cookie, 'product')
    w.stripe.setWebhook(null)
    await w.stripe.completeCheckout(s2)
    const sub2 = w.stripe.subscriptionOf(s2).id
    await w.stripe.cancelAtPeriodEnd(sub2)
    await w.stripe.switchPlan(sub2, 'dibs_gd_monthly')
    w.stripe.setWebhook(url)
    await w.stripe.replay({ events: w.stripe.events.slice(start2), reverse: true })
    expect(await w.state(c.userId)).toMatchObject({ role: 'gd', status: 'active_until_period_end' })
    expect((await w.row(c.userId)).accessExpiresAt!.getTime()).toBe(w.stripe.subscriptions.get(sub2)!.items.data[0].current_period_end * 1000)
  })
})

test('the whole stream delivered at once (concurrently) ends in the newest state', async () => {
  const u = await w.user(trial())
  const start = w.stripe.events.length
  const { sessionId } = await w.checkout(u.cookie, 'gd')
  w.stripe.setWebhook(null)
  await w.stripe.completeCheckout(sessionId)
  const subId = w.stripe.subscriptionOf(sessionId).id
  await w.stripe.switchPlan(subId, 'dibs_product_monthly')
  await w.stripe.cancelAtPeriodEnd(subId)
  w.stripe.setWebhook(`${w.server.url}/api/billing/webhook`)
  const all = await Promise.all(w.stripe.events.slice(start).map((e) => w.stripe.deliver(e)))
  expect(all.every((d) => d.status === 200)).toBe(true)
  expect(await w.state(u.userId)).toMatchObject({ role: 'product', status: 'active_until_period_end', subscription: subId })
})

describe('signatures', () => {
  const payload = () =>
    JSON.stringify({
      id: `evt_forged_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      type: 'customer.subscription.updated',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'sub_x', object: 'subscription', customer: 'cus_forged' } },
    })
  const cases: [string, (body: string) => string | undefined][] = [
    ['no Stripe-Signature header', () => undefined],
    ['a signature made with another secret', (body) => w.stripe.signature(body, undefined, 'whsec_other')],
    ['a signature of another body', () => w.stripe.signature('{"id":"evt_other"}')],
    ['a signature older than the tolerance (5 min)', (body) => w.stripe.signature(body, Math.floor(Date.now() / 1000) - 600)],
    ['garbage', () => 'hello'],
  ]
  for (const [name, sign] of cases)
    test(`${name} → 400, nothing recorded`, async () => {
      const body = payload()
      const before = (await w.audit()).length
      const lines: string[] = []
      const spy = spyOn(console, 'error').mockImplementation((line: string) => void lines.push(String(line)))
      setLogLevel('warn')
      const r = await webhook(body, sign(body)).finally(() => {
        setLogLevel('silent')
        spy.mockRestore()
      })
      expect(lines.join('\n')).toContain('stripe webhook refused')
      expect(r.status).toBe(400)
      expect(r.body.error.code).toBe('BAD_SIGNATURE')
      const id = JSON.parse(body).id
      expect(w.deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, id)).get()).toBeUndefined()
      expect((await w.audit()).length).toBe(before)
    })

  test('a correctly signed event is accepted and recorded once', async () => {
    const body = payload()
    const r = await webhook(body, w.stripe.signature(body))
    expect(r.status).toBe(200)
    const again = await webhook(body, w.stripe.signature(body))
    expect(again.body).toEqual({ received: true, duplicate: true })
    expect(
      w.deps.db
        .select()
        .from(stripeEvents)
        .where(eq(stripeEvents.id, JSON.parse(body).id))
        .all(),
    ).toHaveLength(1)
  })

  test('a forged event for a real customer changes nothing: the state is re-read from Stripe', async () => {
    const u = await w.user(trial())
    const { subId } = await w.subscribe(u.cookie, 'gd')
    const before = await w.state(u.userId)
    const forged = JSON.stringify({
      id: 'evt_forged_cancel',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: subId, object: 'subscription', customer: before.customer, status: 'canceled' } },
    })
    expect((await webhook(forged, w.stripe.signature(forged))).status).toBe(200)
    expect(await w.state(u.userId)).toEqual(before)
  })
})

test("an event naming a user who already has another customer does not touch that user's access", async () => {
  const u = await w.user(trial())
  await w.checkout(u.cookie, 'gd') // the user's customer is stored
  const before = await w.state(u.userId)
  // another customer's checkout that (wrongly) carries this user's id
  const other = w.stripe.api.createSession({
    mode: 'subscription',
    ui_mode: 'embedded_page',
    return_url: w.returnUrl(),
    line_items: [{ price: w.stripe.priceByLookupKey('dibs_bundle_monthly').id }],
    client_reference_id: String(u.userId),
    customer_email: 'someone-else@example.com',
  })
  const deliveries = await w.stripe.completeCheckout(other.id)
  expect(deliveries.every((d) => d.status === 200)).toBe(true)
  expect(await w.state(u.userId)).toEqual(before)
})
