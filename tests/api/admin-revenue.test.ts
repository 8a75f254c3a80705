// /api/admin/revenue (issue 14 item 11): admin only; MRR and plans from user_access, weekly trial
// and churn figures from access_history; with billing off it still answers (gifted and
// default-plan accounts).
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userAccess } from '../../src/db/schema'
import { ADMIN_ONLY } from '../../src/auth/plugin'
import { grantPlan, startAccess, writeAccess } from '../../src/access/service'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

const DAY = 24 * 3600_000
let clock: ReturnType<typeof testClock>
let deps: TestDeps
let app: ReturnType<typeof makeApp>
let admin: Awaited<ReturnType<typeof createUserWithSession>>

function setup(env: Record<string, string>) {
  clock = testClock(Date.parse('2026-03-04T12:00:00Z'))
  deps = makeDeps(env, clock)
  app = makeApp(deps)
}
afterEach(() => deps.close())

const plain = async (email: string) => {
  const u = await createUserWithSession(deps, { email, role: 'none', subscriptionStatus: null })
  return u
}

describe('billing off', () => {
  beforeEach(async () => {
    setup({})
    admin = await createUserWithSession(deps, { email: 'admin@example.com', role: 'admin' })
  })

  test('signed out 401, non-admin 403, admin 200', async () => {
    const member = await createUserWithSession(deps, { email: 'm@example.com' })
    expect((await call(app, 'GET', '/api/admin/revenue')).status).toBe(401)
    const denied = await call(app, 'GET', '/api/admin/revenue', { cookie: member.cookie })
    expect(denied.status).toBe(403)
    expect(denied.body.error.message).toBe(ADMIN_ONLY)
    expect((await call(app, 'GET', '/api/admin/revenue', { cookie: admin.cookie })).status).toBe(200)
  })

  test('no MRR; default-plan and gifted accounts counted and the gifted ones listed', async () => {
    const a = await plain('default@example.com')
    await startAccess(deps, a.userId) // billing off: DEFAULT_PLAN
    const g = await plain('gift@example.com')
    await grantPlan(deps, g.userId, 'gd', new Date(clock.now().getTime() + 30 * DAY), 'admin@example.com')
    const r = await call(app, 'GET', '/api/admin/revenue', { cookie: admin.cookie })
    expect(r.body).toMatchObject({ billingEnabled: false, defaultPlan: 'product+gd', mrrCents: 0 })
    expect(r.body.accounts).toMatchObject({ default_plan: 1, gifted: 1, admin: 1, paying: 0 })
    expect(r.body.gifted).toEqual([
      { userId: g.userId, email: 'gift@example.com', plan: 'gd', until: '2026-04-03T12:00:00.000Z', grantedBy: 'admin@example.com' },
    ])
    expect(r.body.weeks).toHaveLength(12)
    expect(r.body.churn).toEqual({ windowDays: 30, churned: 0, payingAtStart: 0, rate: null })
  })

  test('?weeks is checked', async () => {
    expect((await call(app, 'GET', '/api/admin/revenue?weeks=4', { cookie: admin.cookie })).body.weeks).toHaveLength(4)
    const r = await call(app, 'GET', '/api/admin/revenue?weeks=99', { cookie: admin.cookie })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toBe('Weeks must be a whole number from 1 to 52.')
  })
})

describe('billing on', () => {
  beforeEach(async () => {
    setup({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })
    admin = await createUserWithSession(deps, { email: 'admin@example.com', role: 'admin' })
  })

  test('MRR from Stripe-backed paying accounts; a trial that converted this week and one that expired', async () => {
    const t1 = await plain('conv@example.com')
    clock.advance(-5 * DAY)
    await startAccess(deps, t1.userId) // app_trial
    const t2 = await plain('lapse@example.com')
    await startAccess(deps, t2.userId)
    clock.advance(3 * DAY)
    await writeAccess(deps, t1.userId, {
      role: 'product',
      subscriptionStatus: 'active',
      accessExpiresAt: new Date(clock.now().getTime() + 30 * DAY),
      source: 'stripe',
    })
    deps.db.update(userAccess).set({ stripeSubscriptionId: 'sub_1', stripeCustomerId: 'cus_1' }).where(eq(userAccess.userId, t1.userId)).run()
    clock.advance(2 * DAY)
    clock.advance(3 * DAY) // t2's trial (7 days) ended a day ago
    const r = await call(app, 'GET', '/api/admin/revenue', { cookie: admin.cookie })
    expect(r.body.billingEnabled).toBe(true)
    expect(r.body.mrrCents).toBe(1500)
    expect(r.body.plans[0]).toMatchObject({ plan: 'product', subscribers: 1, mrrCents: 1500 })
    expect(r.body.accounts).toMatchObject({ paying: 1, trial_expired: 1 })
    const totals = r.body.weeks.reduce(
      (s: Record<string, number>, w: Record<string, number>) => ({
        started: s.started! + w.trialsStarted!,
        converted: s.converted! + w.trialsConverted!,
        expired: s.expired! + w.trialsExpired!,
      }),
      { started: 0, converted: 0, expired: 0 },
    )
    expect(totals).toEqual({ started: 2, converted: 1, expired: 1 })
  })
})
