// Every payment and subscription transition (spec §4, issue 13 item 5) as a scenario table: a user
// subscribes through the real checkout route, the fake Stripe moves the subscription and sends its
// signed webhooks, and the user's access is read back from the database and /api/me.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { billingWorld, DAY_MS, type BillingWorld } from './billing-helpers'
import { PAST_DUE_GRACE_MS, RENEWAL_GRACE_MS } from '../../src/billing/mapping'

let w: BillingWorld
beforeAll(async () => {
  w = await billingWorld()
})
afterAll(() => w.stop())

const itemOf = (subId: string) => w.stripe.subscriptions.get(subId)!.items.data[0]
const periodEnd = (subId: string) => itemOf(subId).current_period_end * 1000
const periodStart = (subId: string) => itemOf(subId).current_period_start * 1000

type Step = (subId: string) => Promise<unknown>
type Want = {
  role: string
  status: string
  hasAccess: boolean
  statusText: string
  overlay?: string
  /** expected access_expires_at (ms) from the fake's subscription */
  expires?: (subId: string) => number
}

const trial = (days: number) => ({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + days * DAY_MS) })

const scenarios: { name: string; plan: string; steps: Step[]; want: Want }[] = [
  {
    name: 'trial → checkout → Active on the plan, to the period end (+ renewal grace)',
    plan: 'product',
    steps: [],
    want: { role: 'product', status: 'trialing', hasAccess: true, statusText: 'Active', expires: (s) => periodEnd(s) + RENEWAL_GRACE_MS },
  },
  {
    name: 'cancel at period end → Canceled - Active Until Period End, access exactly to the period end',
    plan: 'gd',
    steps: [(s) => w.stripe.cancelAtPeriodEnd(s)],
    want: { role: 'gd', status: 'active_until_period_end', hasAccess: true, statusText: 'Canceled - Active Until Period End', expires: periodEnd },
  },
  {
    name: 'cancel at period end, then the period ends → no access, overlay inactive_subscription',
    plan: 'gd',
    steps: [(s) => w.stripe.cancelAtPeriodEnd(s), (s) => w.stripe.endPeriod(s)],
    want: { role: 'gd', status: 'canceled', hasAccess: false, statusText: 'Inactive', overlay: 'inactive_subscription' },
  },
  {
    name: 'cancel at period end, then renewed in the portal → Active again',
    plan: 'gd',
    steps: [(s) => w.stripe.cancelAtPeriodEnd(s), (s) => w.stripe.cancelAtPeriodEnd(s, false)],
    want: { role: 'gd', status: 'trialing', hasAccess: true, statusText: 'Active', expires: (s) => periodEnd(s) + RENEWAL_GRACE_MS },
  },
  {
    name: 'a paid period ends and renews → still Active, a month further',
    plan: 'product+gd',
    steps: [(s) => w.stripe.endPeriod(s)],
    want: { role: 'product+gd', status: 'active', hasAccess: true, statusText: 'Active', expires: (s) => periodEnd(s) + RENEWAL_GRACE_MS },
  },
  {
    name: 'renewal payment fails → past_due, access to the paid period end + 3 days',
    plan: 'gd',
    steps: [(s) => w.stripe.failPayment(s)],
    want: { role: 'gd', status: 'past_due', hasAccess: true, statusText: 'Active', expires: (s) => periodStart(s) + PAST_DUE_GRACE_MS },
  },
  {
    name: 'past_due and Stripe gives up → no access',
    plan: 'gd',
    steps: [(s) => w.stripe.failPayment(s), (s) => w.stripe.endPeriod(s)],
    want: { role: 'gd', status: 'canceled', hasAccess: false, statusText: 'Inactive', overlay: 'inactive_subscription' },
  },
  {
    name: 'plan switch in the portal → the new role at once',
    plan: 'gd',
    steps: [(s) => w.stripe.switchPlan(s, 'dibs_bundle_monthly')],
    want: { role: 'product+gd', status: 'trialing', hasAccess: true, statusText: 'Active', expires: (s) => periodEnd(s) + RENEWAL_GRACE_MS },
  },
  {
    name: 'subscription deleted → no access',
    plan: 'product',
    steps: [(s) => w.stripe.cancelNow(s)],
    want: { role: 'product', status: 'canceled', hasAccess: false, statusText: 'Inactive', overlay: 'inactive_subscription' },
  },
]

describe('transitions', () => {
  for (const sc of scenarios)
    test(sc.name, async () => {
      const u = await w.user(trial(5))
      const changed: number[] = []
      const off = w.deps.bus.on('access.changed', ({ userId }) => void (userId === u.userId && changed.push(userId)))
      const auditBefore = (await w.audit()).length
      const { subId, deliveries } = await w.subscribe(u.cookie, sc.plan)
      for (const step of sc.steps) await step(subId)
      off()
      expect(deliveries.every((d) => d.status === 200)).toBe(true)
      expect(w.stripe.deliveries.filter((d) => d.status !== 200)).toEqual([])
      const s = await w.state(u.userId)
      expect(s.role).toBe(sc.want.role)
      expect(s.status).toBe(sc.want.status)
      expect(s.subscription).toBe(subId)
      if (sc.want.expires) expect((await w.row(u.userId)).accessExpiresAt!.getTime()).toBe(sc.want.expires(subId))
      const me = await w.me(u.cookie)
      expect(me.hasAccess).toBe(sc.want.hasAccess)
      expect(me.statusText).toBe(sc.want.statusText)
      if (sc.want.overlay) expect(me.overlayContext).toBe(sc.want.overlay)
      // every change pushed access.changed and wrote one activity-log line by 'stripe'
      const lines = (await w.audit()).slice(auditBefore).filter((a) => a.target === `user:${u.userId}`)
      expect(lines.length).toBeGreaterThanOrEqual(1)
      expect(lines.every((a) => a.actor === 'stripe' && a.action.startsWith('billing.'))).toBe(true)
      expect(changed.length).toBe(lines.length)
      expect((await w.history(u.userId)).filter((h) => h.source === 'stripe').length).toBe(lines.length)
    })
})

describe('trials and checkout timing', () => {
  test('paying early keeps the rest of the trial: trial_end = the trial end, billing starts then', async () => {
    const t = trial(5)
    const u = await w.user(t)
    const { subId } = await w.subscribe(u.cookie, 'gd')
    const sub = w.stripe.subscriptions.get(subId)!
    expect(sub.status).toBe('trialing')
    expect(sub.trial_end).toBe(Math.floor(t.accessExpiresAt.getTime() / 1000))
    expect((await w.state(u.userId)).role).toBe('gd')
  })

  test('a trial under 48 h from its end is billed now (Stripe refuses a nearer trial_end)', async () => {
    const u = await w.user(trial(1))
    const { sessionId, subId } = await w.subscribe(u.cookie, 'gd')
    const params = w.stripe.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.method === 'POST' && (r.params as any).client_reference_id === String(u.userId),
    )!
    expect((params.params as any).subscription_data?.trial_end).toBeUndefined()
    expect(w.stripe.sessions.get(sessionId)!.payment_status).toBe('paid')
    expect(w.stripe.subscriptions.get(subId)!.status).toBe('active')
    expect((await w.state(u.userId)).status).toBe('active')
  })

  test('an expired trial subscribes: billed now, access restored', async () => {
    const u = await w.user(trial(-1))
    expect((await w.me(u.cookie)).overlayContext).toBe('app_trial_expired')
    await w.subscribe(u.cookie, 'product')
    const me = await w.me(u.cookie)
    expect(me.hasAccess).toBe(true)
    expect(me.userRole).toBe('product')
  })
})

describe('past_due email', () => {
  test('one email asking to update the card, linking to the plan page; a replay sends no second one', async () => {
    const u = await w.user(trial(5))
    const { subId } = await w.subscribe(u.cookie, 'gd')
    await w.stripe.failPayment(subId)
    const mails = async () => (await w.emails(u.email)).filter((m) => m.kind === 'payment_failed')
    expect(await mails()).toHaveLength(1)
    expect((await mails())[0]!.subject).toContain('update your card')
    expect((await mails())[0]!.text).toContain(`${w.deps.config.appUrl}/dashboard/subscription`)
    await w.stripe.replay()
    expect(await mails()).toHaveLength(1)
  })
})

describe('gifted access and Stripe', () => {
  test("a paying user's Stripe state wins over an older gift", async () => {
    const u = await w.user({ role: 'product', subscriptionStatus: 'gifted', accessExpiresAt: new Date(Date.now() + 10 * DAY_MS) })
    await w.subscribe(u.cookie, 'gd')
    // not in the app trial: no trial_end, billed now
    expect(await w.state(u.userId)).toMatchObject({ role: 'gd', status: 'active' })
  })

  test('a gift granted after the subscription ended stays when old events arrive again', async () => {
    const u = await w.user(trial(5))
    const { subId } = await w.subscribe(u.cookie, 'gd')
    const ended = await w.stripe.cancelNow(subId)
    expect((await w.state(u.userId)).status).toBe('canceled')
    const { grantPlan } = await import('../../src/access/service')
    await grantPlan(w.deps, u.userId, 'product', new Date(Date.now() + 10 * DAY_MS), 'admin@example.com')
    // Stripe re-sends the cancellation (a new delivery of the same event is deduplicated; a
    // reconcile re-reads it): the gift stays
    await w.stripe.deliver({ ...w.stripe.events.find((e) => e.id === ended[0]!.eventId)!, id: `evt_again_${u.userId}` })
    expect(await w.state(u.userId)).toMatchObject({ role: 'product', status: 'gifted' })
    expect((await w.me(u.cookie)).hasAccess).toBe(true)
  })

  test("an ended gift shows 'gifted_expired'", async () => {
    const u = await w.user({ role: 'product', subscriptionStatus: 'gifted', accessExpiresAt: new Date(Date.now() - 1000) })
    const me = await w.me(u.cookie)
    expect(me.hasAccess).toBe(false)
    expect(me.overlayContext).toBe('gifted_expired')
  })

  test('admins are never changed by Stripe events', async () => {
    const u = await w.user({ role: 'admin', subscriptionStatus: null })
    const r = await w.api('POST', '/api/billing/checkout', { cookie: u.cookie, json: { planType: 'gd', returnUrl: w.returnUrl() } })
    expect(r.status).toBe(409)
    expect((await w.state(u.userId)).role).toBe('admin')
  })
})
