// Billing off (no Stripe keys: plans come from an admin or DEFAULT_PLAN, as before issue 13) and
// billing on with a stand-in Stripe.js: what the routes answer and what the CSP allows.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contentSecurityPolicy } from '../../src/web/security-headers'
import { createUserWithSession, startTestServer } from '../helpers'
import { billingWorld, type BillingWorld } from './billing-helpers'

describe('billing off', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let cookie: string
  const api = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method,
      headers: { origin: server.deps.config.appUrl, cookie, ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
      body: json ? JSON.stringify(json) : undefined,
    }).then(async (r) => ({ status: r.status, body: await r.json() }))
  beforeAll(async () => {
    server = await startTestServer()
    cookie = (await createUserWithSession(server.deps, { role: 'product+gd', subscriptionStatus: 'active' })).cookie
  })
  afterAll(() => server.stop())

  const cases: [string, string, string, unknown, number, string][] = [
    ['checkout', 'POST', '/api/billing/checkout', { planType: 'gd', returnUrl: 'http://x/' }, 409, 'BILLING_DISABLED'],
    ['portal', 'POST', '/api/billing/portal', undefined, 409, 'BILLING_DISABLED'],
    ['webhook', 'POST', '/api/billing/webhook', { id: 'evt_1' }, 404, 'BILLING_DISABLED'],
  ]
  for (const [name, method, path, json, status, code] of cases)
    test(`${name} → ${status} saying billing is not enabled`, async () => {
      const r = await api(method, path, json, { 'stripe-signature': 't=1,v1=0' })
      expect(r.status).toBe(status)
      expect(r.body.error.code).toBe(code)
      expect(r.body.error.message).toContain('not enabled')
    })

  test('the subscription page data says billing is off and shows the default plan', async () => {
    const r = await api('GET', '/api/billing/subscription')
    expect(r.body).toMatchObject({ billingEnabled: false, plan: 'product+gd', statusText: 'Active', hasCustomer: false, renewsAt: null, nextAmountCents: null })
  })

  test('no Stripe origin in the CSP', async () => {
    const csp = (await fetch(server.url + '/')).headers.get('content-security-policy')!
    expect(csp).not.toContain('stripe')
    expect(csp).toContain("frame-src 'none'")
  })
})

describe('billing on with a stand-in Stripe.js', () => {
  let w: BillingWorld
  beforeAll(async () => {
    w = await billingWorld()
  })
  afterAll(() => w.stop())

  test("the CSP allows the stand-in's origin for scripts, connections and frames (and Stripe's own)", async () => {
    const csp = (await fetch(w.server.url + '/')).headers.get('content-security-policy')!
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `))!
    for (const d of ['script-src', 'connect-src', 'frame-src']) expect(directive(d)).toContain(w.stripe.url)
    expect(directive('script-src')).toContain('https://js.stripe.com')
  })

  test('with Stripe.js from js.stripe.com (the default) no other origin is added', () => {
    const base = { appUrl: 'https://dibs.example', billingEnabled: true }
    const csp = contentSecurityPolicy({ ...base, stripe: { jsUrl: 'https://js.stripe.com/endive/stripe.js' } })
    expect(csp).toBe(contentSecurityPolicy(base))
    expect(contentSecurityPolicy({ ...base, billingEnabled: false, stripe: { jsUrl: 'http://127.0.0.1:9/stripe.js' } })).not.toContain('127.0.0.1')
  })

  test('the stand-in Stripe.js is served with the embedded checkout API', async () => {
    const js = await fetch(w.stripe.jsUrl).then((r) => r.text())
    expect(js).toContain('window.Stripe = Stripe')
    expect(js).toContain('createEmbeddedCheckoutPage')
    expect(js).toContain('initEmbeddedCheckout')
    expect(js).toContain('Stand-in Stripe Checkout')
  })

  test("the stand-in's Pay endpoint completes the session like completeCheckout (CORS open)", async () => {
    const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 86_400_000) })
    const { sessionId } = await w.checkout(u.cookie, 'gd')
    const info = await fetch(`${w.stripe.url}/_fake/checkout_sessions/${sessionId}`)
    expect(info.headers.get('access-control-allow-origin')).toBe('*')
    expect(await info.json()).toMatchObject({ id: sessionId, status: 'open', amount: 1000 })
    const pay = await fetch(`${w.stripe.url}/_fake/checkout_sessions/${sessionId}/complete`, { method: 'POST', headers: { origin: w.deps.config.appUrl } })
    expect(pay.status).toBe(200)
    expect((await w.state(u.userId)).role).toBe('gd')
  })
})
