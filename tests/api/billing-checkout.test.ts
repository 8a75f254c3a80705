// Checkout, portal and the subscription page's data against the fake Stripe (real server, real
// SQLite, real HTTP, signed webhooks).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { billingWorld, DAY_MS, type BillingWorld } from './billing-helpers'

let w: BillingWorld
beforeAll(async () => {
  w = await billingWorld()
})
afterAll(() => w.stop())

describe('checkout', () => {
  test('a trial user pays: checkout → webhooks → plan role, Active, customer stored once', async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY_MS) })
    const { clientSecret, sessionId } = await w.checkout(u.cookie, 'gd')
    expect(clientSecret).toMatch(/^cs_test_[0-9a-f]+_secret_[0-9a-f]+$/)
    const session = w.stripe.sessions.get(sessionId)!
    expect(session.ui_mode).toBe('embedded_page')
    expect(session.mode).toBe('subscription')
    expect(session.client_reference_id).toBe(String(u.userId))
    expect(session.redirect_on_completion).toBe('if_required')
    expect(session.return_url).toBe(`${w.returnUrl()}?session_id={CHECKOUT_SESSION_ID}`)
    const customer = w.row(u.userId).stripeCustomerId
    expect(customer).toMatch(/^cus_/)
    const deliveries = await w.stripe.completeCheckout(sessionId)
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200])
    const s = w.state(u.userId)
    expect(s.role).toBe('gd')
    expect(s.customer).toBe(customer)
    const me = await w.me(u.cookie)
    expect(me.hasAccess).toBe(true)
    expect(me.statusText).toBe('Active')
    // a second checkout (another plan) would bill twice: refused, and no second customer
    const again = await w.api('POST', '/api/billing/checkout', { cookie: u.cookie, json: { planType: 'gd', returnUrl: w.returnUrl() } })
    expect(again.status).toBe(409)
    expect(w.stripe.customers.size).toBeGreaterThanOrEqual(1)
    expect([...w.stripe.customers.values()].filter((c) => c.metadata.user_id === String(u.userId))).toHaveLength(1)
  })
})
