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
    const customer = (await w.row(u.userId)).stripeCustomerId
    expect(customer).toMatch(/^cus_/)
    const deliveries = await w.stripe.completeCheckout(sessionId)
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200])
    const s = await w.state(u.userId)
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

describe('checkout refusals', () => {
  const trial = () => ({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY_MS) })
  type Case = {
    name: string
    user: 'none' | Record<string, unknown> | 'paying-gd'
    json: (appUrl: string) => unknown
    status: number
    code: string
    message?: string
  }
  const cases: Case[] = [
    {
      name: 'signed out → 401',
      user: 'none',
      json: (a) => ({ planType: 'gd', returnUrl: `${a}/dashboard` }),
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Authentication required',
    },
    {
      name: 'returnUrl on another origin → 400',
      user: trial(),
      json: () => ({ planType: 'gd', returnUrl: 'https://evil.example/dashboard' }),
      status: 400,
      code: 'BAD_RETURN_URL',
    },
    { name: 'returnUrl not a URL → 400', user: trial(), json: () => ({ planType: 'gd', returnUrl: '/dashboard' }), status: 400, code: 'BAD_RETURN_URL' },
    { name: 'unknown plan → 400', user: trial(), json: (a) => ({ planType: 'platinum', returnUrl: `${a}/x` }), status: 400, code: 'BAD_PLAN' },
    { name: 'missing fields → 400', user: trial(), json: () => ({}), status: 400, code: 'VALIDATION' },
    {
      name: 'admin → 409',
      user: { role: 'admin', subscriptionStatus: null },
      json: (a) => ({ planType: 'gd', returnUrl: `${a}/x` }),
      status: 409,
      code: 'ADMIN_NO_PLAN',
    },
    {
      name: 'paying for this plan already → 409',
      user: 'paying-gd',
      json: (a) => ({ planType: 'gd', returnUrl: `${a}/x` }),
      status: 409,
      code: 'ALREADY_SUBSCRIBED',
    },
    {
      name: 'paying for another plan → 409 (switch in the portal)',
      user: 'paying-gd',
      json: (a) => ({ planType: 'product', returnUrl: `${a}/x` }),
      status: 409,
      code: 'USE_PORTAL',
    },
  ]
  for (const c of cases)
    test(c.name, async () => {
      let cookie: string | undefined
      if (c.user === 'paying-gd') {
        const u = await w.user(trial())
        await w.subscribe(u.cookie, 'gd')
        cookie = u.cookie
      } else if (c.user !== 'none') cookie = (await w.user(c.user)).cookie
      const sessions = w.stripe.sessions.size
      const r = await w.api('POST', '/api/billing/checkout', { cookie, json: c.json(w.deps.config.appUrl) })
      expect(r.status).toBe(c.status)
      expect(r.body.error.code).toBe(c.code)
      if (c.message) expect(r.body.error.message).toBe(c.message)
      expect(w.stripe.sessions.size).toBe(sessions)
    })

  test('a gifted user may pay for the same plan (the gift is not a subscription)', async () => {
    const u = await w.user({ role: 'gd', subscriptionStatus: 'gifted', accessExpiresAt: new Date(Date.now() + 3 * DAY_MS) })
    expect((await w.api('POST', '/api/billing/checkout', { cookie: u.cookie, json: { planType: 'gd', returnUrl: w.returnUrl() } })).status).toBe(200)
  })

  test('a canceled subscriber may subscribe again; the customer is reused', async () => {
    const u = await w.user(trial())
    const { subId } = await w.subscribe(u.cookie, 'gd')
    const customer = (await w.row(u.userId)).stripeCustomerId
    await w.stripe.cancelNow(subId)
    const again = await w.subscribe(u.cookie, 'product')
    expect(await w.state(u.userId)).toMatchObject({ role: 'product', status: 'active', customer, subscription: again.subId })
  })

  test('a stored customer that Stripe no longer knows is replaced once', async () => {
    const u = await w.user(trial())
    await w.checkout(u.cookie, 'gd')
    const lost = (await w.row(u.userId)).stripeCustomerId!
    w.stripe.customers.delete(lost) // deleted in the dashboard
    const { sessionId } = await w.checkout(u.cookie, 'gd')
    const now = (await w.row(u.userId)).stripeCustomerId!
    expect(now).not.toBe(lost)
    expect(w.stripe.customers.has(now)).toBe(true)
    expect(w.stripe.sessions.get(sessionId)!.customer).toBe(now)
  })

  test('plan names as users and operators write them are accepted', async () => {
    const u = await w.user(trial())
    const r = await w.api('POST', '/api/billing/checkout', { cookie: u.cookie, json: { planType: 'gafs+gd', returnUrl: `${w.returnUrl()}?x=1#top` } })
    expect(r.status).toBe(200)
    const s = w.stripe.sessions.get(r.body.client_secret.split('_secret_')[0])!
    expect(w.stripe.prices.get(s._price)!.lookup_key).toBe('dibs_bundle_monthly')
    expect(s.return_url).toBe(`${w.returnUrl()}?x=1&session_id={CHECKOUT_SESSION_ID}`)
  })
})

describe('billing portal', () => {
  test('without a Stripe customer → 404 No Subscription to Manage', async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY_MS) })
    const r = await w.api('POST', '/api/billing/portal', { cookie: u.cookie })
    expect(r.status).toBe(404)
    expect(r.body.error).toEqual({
      code: 'NO_SUBSCRIPTION',
      message: 'You need to subscribe to a plan first before you can manage your subscription.',
      title: 'No Subscription to Manage',
    })
  })

  test('signed out → 401', async () => {
    expect((await w.api('POST', '/api/billing/portal')).status).toBe(401)
  })

  test("a subscriber gets the portal URL of the synced configuration; its 'Cancel plan' cancels at period end", async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY_MS) })
    const { subId } = await w.subscribe(u.cookie, 'product')
    const r = await w.api('POST', '/api/billing/portal', { cookie: u.cookie })
    expect(r.status).toBe(200)
    expect(r.body.portalUrl).toStartWith(`${w.stripe.url}/_fake/portal/bps_`)
    const req = w.stripe.requests.findLast((x) => x.path === '/v1/billing_portal/sessions')!
    expect((req.params as any).return_url).toBe(`${w.deps.config.appUrl}/dashboard/subscription`)
    expect((req.params as any).configuration).toMatch(/^bpc_/)
    const page = await fetch(r.body.portalUrl).then((x) => x.text())
    expect(page).toContain('Cancel plan')
    const cancel = await fetch(`${r.body.portalUrl}/cancel`, { method: 'POST', redirect: 'manual' })
    expect(cancel.status).toBe(303)
    expect(w.stripe.subscriptions.get(subId)!.cancel_at_period_end).toBe(true)
    expect((await w.state(u.userId)).status).toBe('active_until_period_end')
  })
})

describe('GET /api/billing/subscription', () => {
  test('a trial user: no plan, Trial Active, no customer', async () => {
    const ends = new Date(Date.now() + 5 * DAY_MS)
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: ends })
    const r = await w.api('GET', '/api/billing/subscription', { cookie: u.cookie })
    expect(r.body).toEqual({
      billingEnabled: true,
      plan: null,
      planName: null,
      status: 'trialing',
      statusText: 'Trial Active',
      renewsAt: null,
      endsAt: ends.toISOString(),
      cancelAtPeriodEnd: false,
      nextAmountCents: null,
      hasCustomer: false,
    })
  })

  test('a subscriber: plan, Active, renews at the period end for the plan price; then canceled at period end', async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY_MS) })
    const { subId } = await w.subscribe(u.cookie, 'product+gd')
    const end = new Date(w.stripe.subscriptions.get(subId)!.items.data[0].current_period_end * 1000).toISOString()
    const r = await w.api('GET', '/api/billing/subscription', { cookie: u.cookie })
    expect(r.body).toEqual({
      billingEnabled: true,
      plan: 'product+gd',
      planName: 'GAFS + GD',
      status: 'active',
      statusText: 'Active',
      renewsAt: end,
      endsAt: null,
      cancelAtPeriodEnd: false,
      nextAmountCents: 2000,
      hasCustomer: true,
    })
    await w.stripe.cancelAtPeriodEnd(subId)
    const c = await w.api('GET', '/api/billing/subscription', { cookie: u.cookie })
    expect(c.body).toMatchObject({
      status: 'active_until_period_end',
      statusText: 'Canceled - Active Until Period End',
      renewsAt: null,
      endsAt: end,
      cancelAtPeriodEnd: true,
      nextAmountCents: null,
    })
  })

  test('signed out → 401', async () => {
    expect((await w.api('GET', '/api/billing/subscription')).status).toBe(401)
  })
})

describe('POST /api/billing/refresh (the return from checkout, before any webhook)', () => {
  test('re-reads the subscription from Stripe: the plan at once, though no webhook arrived', async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY_MS) })
    const { sessionId } = await w.checkout(u.cookie, 'gd')
    w.stripe.setWebhook(null)
    await w.stripe.completeCheckout(sessionId)
    w.stripe.setWebhook(`${w.server.url}/api/billing/webhook`)
    expect((await w.state(u.userId)).role).toBe('app_trial')
    const r = await w.api('POST', '/api/billing/refresh', { cookie: u.cookie })
    expect(r.status).toBe(200)
    expect(r.body.access).toMatchObject({ userRole: 'gd', hasAccess: true, statusText: 'Active' })
    expect(r.body.subscription).toMatchObject({ plan: 'gd', status: 'active', nextAmountCents: 1000, hasCustomer: true })
  })

  test('without a customer: the stored state, no Stripe call', async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY_MS) })
    const calls = w.stripe.requests.length
    const r = await w.api('POST', '/api/billing/refresh', { cookie: u.cookie })
    expect(r.status).toBe(200)
    expect(r.body.access.userRole).toBe('app_trial')
    expect(w.stripe.requests.length).toBe(calls)
  })

  test('signed out → 401; more than 6 a minute → 429', async () => {
    expect((await w.api('POST', '/api/billing/refresh')).status).toBe(401)
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY_MS) })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await w.api('POST', '/api/billing/refresh', { cookie: u.cookie })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429])
  })
})

test('more than 10 checkouts a minute by one user → 429', async () => {
  const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY_MS) })
  const statuses: number[] = []
  for (let i = 0; i < 11; i++)
    statuses.push((await w.api('POST', '/api/billing/checkout', { cookie: u.cookie, json: { planType: 'gd', returnUrl: w.returnUrl() } })).status)
  expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true)
  expect(statuses[10]).toBe(429)
})
