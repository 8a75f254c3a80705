// Prices and portal configuration by lookup key (idempotent), reconciliation of drift, Stripe
// outages (logged, retried, nobody loses access), `dibs billing sync [--reconcile]`, billing off.
import { afterAll, afterEach, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { engineEnvOf } from '../engine'
import { syncCatalog, LOOKUP_KEYS } from '../../src/billing/catalog'
import { reconcile } from '../../src/billing/reconcile'
import { catalogSyncJob } from '../../src/billing/jobs'
import { setLogLevel } from '../../src/lib/log'
import type { Deps } from '../../src/deps'
import { startFakeStripe } from '../fakes/stripe'
import { spawnCli, startTestServer } from '../helpers'
import { billingWorld, DAY_MS, type BillingWorld } from './billing-helpers'

const trial = () => ({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY_MS) })
const ourPrices = (w: BillingWorld) => [...w.stripe.prices.values()].filter((p) => Object.values(LOOKUP_KEYS).includes(p.lookup_key))

/** Warnings and errors the app logs while `fn` runs. */
async function logged(fn: () => Promise<unknown>): Promise<string> {
  const lines: string[] = []
  const spy = spyOn(console, 'error').mockImplementation((line: string) => void lines.push(String(line)))
  setLogLevel('warn')
  try {
    await fn()
  } finally {
    setLogLevel('silent')
    spy.mockRestore()
  }
  return lines.join('\n')
}

describe('catalog sync', () => {
  let w: BillingWorld
  beforeAll(async () => {
    w = await billingWorld()
  })
  afterAll(() => w.stop())

  test('creates the three monthly USD prices by lookup key with the plan amounts, and the portal configuration', async () => {
    const r = await syncCatalog(w.deps)
    expect(r.createdPrices.sort()).toEqual(Object.values(LOOKUP_KEYS).sort())
    const byKey = Object.fromEntries(ourPrices(w).map((p) => [p.lookup_key, p]))
    expect(byKey.dibs_product_monthly).toMatchObject({ unit_amount: 1500, currency: 'usd', recurring: { interval: 'month' } })
    expect(byKey.dibs_gd_monthly).toMatchObject({ unit_amount: 1000, currency: 'usd' })
    expect(byKey.dibs_bundle_monthly).toMatchObject({ unit_amount: 2000, currency: 'usd' })
    expect(w.stripe.portalConfigs.size).toBe(1)
    const features = [...w.stripe.portalConfigs.values()][0].features
    expect(features.subscription_cancel).toMatchObject({ enabled: 'true', mode: 'at_period_end' })
    expect(features.payment_method_update.enabled).toBe('true')
    expect(features.invoice_history.enabled).toBe('true')
    expect(features.subscription_update.products).toHaveLength(3)
    expect(features.subscription_update.products.map((p: any) => p.prices[0]).sort()).toEqual(Object.values(r.prices).sort())
  })

  test('is idempotent: a second and third run create no price, no product, no second configuration', async () => {
    const prices = w.stripe.prices.size
    const products = w.stripe.products.size
    for (let i = 0; i < 2; i++) {
      const r = await syncCatalog(w.deps)
      expect(r.createdPrices).toEqual([])
      expect(r.portal).toBe('updated')
    }
    expect(w.stripe.prices.size).toBe(prices)
    expect(w.stripe.products.size).toBe(products)
    expect(w.stripe.portalConfigs.size).toBe(1)
  })

  test('a price archived in the dashboard is replaced on the same product (no second product)', async () => {
    const old = w.stripe.priceByLookupKey('dibs_product_monthly')
    old.active = false
    const products = w.stripe.products.size
    const r = await syncCatalog(w.deps)
    expect(r.createdPrices).toEqual(['dibs_product_monthly'])
    expect(w.stripe.products.size).toBe(products)
    expect(w.stripe.priceByLookupKey('dibs_product_monthly')).toMatchObject({ product: old.product, unit_amount: 1500 })
    expect([...w.stripe.prices.values()].filter((p) => p.lookup_key === 'dibs_product_monthly')).toHaveLength(1)
  })

  test('a key held by a price with another amount moves to a new price with the plan amount; still one price per key', async () => {
    const old = w.stripe.priceByLookupKey('dibs_gd_monthly')
    old.unit_amount = 900 // as if set by hand in the dashboard
    const r = await syncCatalog(w.deps)
    expect(r.createdPrices).toEqual(['dibs_gd_monthly'])
    const holders = [...w.stripe.prices.values()].filter((p) => p.lookup_key === 'dibs_gd_monthly')
    expect(holders).toHaveLength(1)
    expect(holders[0]).toMatchObject({ unit_amount: 1000, product: old.product })
    expect(old.lookup_key).toBeNull()
  })
})

describe('reconcile and outages', () => {
  let w: BillingWorld
  beforeAll(async () => {
    w = await billingWorld()
  })
  afterEach(() => {
    w.stripe.unavailable(false)
    w.stripe.setWebhook(`${w.server.url}/api/billing/webhook`)
  })
  afterAll(() => w.stop())

  test('reconcile fixes drift: a cancellation whose webhook never arrived', async () => {
    const u = await w.user(trial())
    const { subId } = await w.subscribe(u.cookie, 'gd')
    w.stripe.setWebhook(null)
    await w.stripe.cancelAtPeriodEnd(subId)
    expect((await w.state(u.userId)).status).toBe('trialing')
    const r = await reconcile(w.deps)
    expect(r.failed).toBe(0)
    expect(r.changed).toBeGreaterThanOrEqual(1)
    expect((await w.state(u.userId)).status).toBe('active_until_period_end')
    expect((await reconcile(w.deps)).changed).toBe(0) // nothing left to fix
  })

  test('reconcile finds a checkout whose webhooks all went missing (no subscription stored yet)', async () => {
    const u = await w.user(trial())
    const { sessionId } = await w.checkout(u.cookie, 'product')
    w.stripe.setWebhook(null)
    await w.stripe.completeCheckout(sessionId)
    expect(await w.state(u.userId)).toMatchObject({ role: 'app_trial', subscription: null })
    await reconcile(w.deps)
    expect(await w.state(u.userId)).toMatchObject({ role: 'product', subscription: w.stripe.subscriptionOf(sessionId).id })
  })

  test('Stripe down: checkout says so (503, spec text), logged; nobody loses access', async () => {
    const u = await w.user(trial())
    const before = await w.state(u.userId)
    w.stripe.unavailable(true)
    let r: Awaited<ReturnType<BillingWorld['api']>> | undefined
    const log = await logged(async () => {
      r = await w.api('POST', '/api/billing/checkout', { cookie: u.cookie, json: { planType: 'gd', returnUrl: w.returnUrl() } })
    })
    expect(r!.status).toBe(503)
    expect(r!.body.error.message).toBe('Failed to start checkout process. Please try again.')
    expect(log).toContain('CHECKOUT_FAILED')
    expect(await w.state(u.userId)).toEqual(before)
  })

  test('Stripe down during a webhook: 503 (Stripe retries), not recorded; the retry after the outage applies it', async () => {
    const u = await w.user(trial())
    const { sessionId } = await w.checkout(u.cookie, 'product')
    w.stripe.unavailable(true)
    const start = w.stripe.events.length
    // the fake's state moves (Stripe took the payment) but it cannot answer the app's re-read
    let failed: { status: number }[] = []
    const log = await logged(async () => {
      failed = await w.stripe.completeCheckout(sessionId)
    })
    expect(failed.map((d) => d.status)).toEqual([503, 503, 503])
    expect(log).toContain('Stripe will retry')
    expect((await w.state(u.userId)).role).toBe('app_trial')
    w.stripe.unavailable(false)
    const retried = await w.stripe.replay({ events: w.stripe.events.slice(start) })
    expect(retried.map((d) => d.status)).toEqual([200, 200, 200])
    expect((await w.state(u.userId)).role).toBe('product')
  })

  test('Stripe down during reconcile: logged, retried next run, every paying user keeps access', async () => {
    const u = await w.user(trial())
    await w.subscribe(u.cookie, 'gd')
    const before = await w.state(u.userId)
    w.stripe.unavailable(true)
    let r = { checked: 0, changed: 0, failed: 0 }
    const log = await logged(async () => {
      r = await reconcile(w.deps)
    })
    expect(r.failed).toBeGreaterThanOrEqual(1)
    expect(r.changed).toBe(0)
    expect(log).toContain('billing reconcile')
    expect(await w.state(u.userId)).toEqual(before)
    expect((await w.me(u.cookie)).hasAccess).toBe(true)
  })

  test('the startup sync fails while Stripe is down: logged, retried with backoff, never thrown; then synced', async () => {
    const fake = await startFakeStripe()
    const job = catalogSyncJob()
    const deps = { ...w.deps, config: { ...w.deps.config, stripe: { ...w.deps.config.stripe, apiBase: fake.url } } } as Deps
    fake.unavailable(true)
    const log = await logged(async () => {
      expect(await job.run(deps)).toBeNull()
      expect(await job.run(deps)).toBeNull()
    })
    expect(log).toContain('Stripe sync failed; retrying')
    expect(job.failures()).toBe(2)
    const every = job.every as (d: Deps) => number
    expect(every(deps)).toBe(60_000)
    fake.unavailable(false)
    expect(await job.run(deps)).not.toBeNull()
    expect(job.failures()).toBe(0)
    expect(every(deps)).toBe(6 * 60 * 60_000)
    expect([...fake.prices.values()].filter((p) => p.lookup_key)).toHaveLength(3)
    await fake.stop()
  })

  test('a server starting while Stripe is down answers at once: the sync is a background job that keeps trying', async () => {
    const fake = await startFakeStripe()
    fake.unavailable(true)
    const t0 = Date.now()
    const server = await startTestServer(fake.env(), { jobs: true })
    expect(Date.now() - t0).toBeLessThan(10_000)
    expect((await fetch(`${server.url}/api/config`)).status).toBe(200)
    // the job's first run was refused by the outage: nothing created, and no error reached the server
    expect(fake.prices.size).toBe(0)
    await server.stop()
    await fake.stop()
  })
})

describe('dibs billing sync (CLI)', () => {
  let w: BillingWorld
  beforeAll(async () => {
    w = await billingWorld()
  })
  afterAll(() => w.stop())
  const env = () => ({ ...w.stripe.env(), DATA_DIR: w.deps.config.dataDir, ...engineEnvOf(w.deps.config) })

  test('creates the prices once; a second run finds them', async () => {
    const first = await spawnCli(['billing', 'sync'], env())
    expect(first.err).toBe('')
    expect(first.code).toBe(0)
    for (const key of Object.values(LOOKUP_KEYS)) expect(first.out).toContain(`${key}: price_`)
    expect(first.out).toContain('(created)')
    expect(first.out).toMatch(/billing portal configuration: bpc_\w+ \(created\)/)
    const second = await spawnCli(['billing', 'sync'], env())
    expect(second.code).toBe(0)
    expect(second.out).not.toContain('(created)')
    expect(second.out).toContain('(updated)')
    expect(ourPrices(w)).toHaveLength(3)
  })

  test('--reconcile fixes drift in a running server’s database', async () => {
    const u = await w.user(trial())
    const { subId } = await w.subscribe(u.cookie, 'gd')
    w.stripe.setWebhook(null)
    await w.stripe.switchPlan(subId, 'dibs_product_monthly')
    w.stripe.setWebhook(`${w.server.url}/api/billing/webhook`)
    const r = await spawnCli(['billing', 'sync', '--reconcile'], env())
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/reconcile: \d+ checked, 1 changed, 0 failed/)
    expect((await w.state(u.userId)).role).toBe('product')
  })

  test('with billing off it says how to turn it on and exits non-zero', async () => {
    const r = await spawnCli(['billing', 'sync'], { DATA_DIR: w.deps.config.dataDir })
    expect(r.code).not.toBe(0)
    expect(r.err).toContain('billing is off')
  })
})
