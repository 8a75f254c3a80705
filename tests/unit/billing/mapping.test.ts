// The subscription → access mapping and the merge with what the user holds (src/billing/mapping.ts).
import { describe, expect, test } from 'bun:test'
import {
  accessFromSubscription,
  changeAction,
  decide,
  periodEndOf,
  pickSubscription,
  PAST_DUE_GRACE_MS,
  RENEWAL_GRACE_MS,
  type SubscriptionFacts,
} from '../../../src/billing/mapping'
import { hasActiveAccess, overlayContext, statusText, type AccessState } from '../../../src/access/rules'

const now = new Date('2026-11-24T12:00:00Z')
const DAY = 86_400_000
const at = (days: number) => new Date(now.getTime() + days * DAY)
const sub = (over: Partial<SubscriptionFacts>): SubscriptionFacts => ({
  id: 'sub_1',
  status: 'active',
  cancelAtPeriodEnd: false,
  periodEnd: at(30),
  periodStart: at(0),
  endedAt: null,
  plan: 'gd',
  created: 1,
  ...over,
})

describe('accessFromSubscription', () => {
  const cases: [string, Partial<SubscriptionFacts>, { role: string; status: string; expires: Date | null } | null, boolean, string][] = [
    ['active → Active to the period end + grace', {}, { role: 'gd', status: 'active', expires: new Date(at(30).getTime() + RENEWAL_GRACE_MS) }, true, 'Active'],
    [
      'trialing (paid early) → the plan, access to the trial end + grace',
      { status: 'trialing', periodEnd: at(5) },
      { role: 'gd', status: 'trialing', expires: new Date(at(5).getTime() + RENEWAL_GRACE_MS) },
      true,
      'Active',
    ],
    [
      'cancel at period end → active_until_period_end to the period end',
      { cancelAtPeriodEnd: true },
      { role: 'gd', status: 'active_until_period_end', expires: at(30) },
      true,
      'Canceled - Active Until Period End',
    ],
    [
      'past_due → the last paid period end + 3 days',
      { status: 'past_due', periodStart: at(-1), periodEnd: at(29) },
      { role: 'gd', status: 'past_due', expires: new Date(at(-1).getTime() + PAST_DUE_GRACE_MS) },
      true,
      'Active',
    ],
    ['canceled → no access', { status: 'canceled', endedAt: at(0) }, { role: 'gd', status: 'canceled', expires: at(0) }, false, 'Inactive'],
    ['unpaid → no access', { status: 'unpaid' }, { role: 'gd', status: 'unpaid', expires: at(30) }, false, 'Inactive'],
    [
      'incomplete_expired → no access',
      { status: 'incomplete_expired', endedAt: at(0) },
      { role: 'gd', status: 'incomplete_expired', expires: at(0) },
      false,
      'Inactive',
    ],
    [
      'plan switch → the new role',
      { plan: 'product+gd' },
      { role: 'product+gd', status: 'active', expires: new Date(at(30).getTime() + RENEWAL_GRACE_MS) },
      true,
      'Active',
    ],
    ['incomplete → no change', { status: 'incomplete' }, null, false, ''],
    ['a price that is not ours → no change', { plan: null }, null, false, ''],
  ]
  for (const [name, over, want, access, text] of cases)
    test(name, () => {
      const got = accessFromSubscription(sub(over), now)
      if (want === null) return expect(got).toBeNull()
      expect(got).toEqual({ role: want.role as never, subscriptionStatus: want.status, accessExpiresAt: want.expires })
      const state: AccessState = { ...got!, stripeCustomerId: 'cus_1' }
      expect(hasActiveAccess(state, now)).toBe(access)
      expect(statusText(state, now)).toBe(text)
      if (!access) expect(overlayContext(state, now)).toBe('inactive_subscription')
    })

  test('the period that ended a canceling subscription ends its access', () => {
    const got = accessFromSubscription(sub({ cancelAtPeriodEnd: true, periodEnd: at(-0.01) }), now)!
    expect(hasActiveAccess({ ...got }, now)).toBe(false)
  })
})

describe('periodEndOf gives back the period end the page shows', () => {
  for (const status of ['active', 'trialing', 'active_until_period_end'])
    test(status, () => {
      const got = accessFromSubscription(
        sub({ status: status === 'active_until_period_end' ? 'active' : status, cancelAtPeriodEnd: status === 'active_until_period_end' }),
        now,
      )!
      expect(periodEndOf(got.subscriptionStatus, got.accessExpiresAt)).toEqual(at(30))
    })
})

describe('pickSubscription', () => {
  test('the newest live one wins over a newer canceled one', () => {
    const list = [sub({ id: 'old', status: 'active', created: 1 }), sub({ id: 'new', status: 'canceled', created: 2 })]
    expect(pickSubscription(list)!.id).toBe('old')
  })
  test('among ended ones, the newest', () => {
    expect(pickSubscription([sub({ id: 'a', status: 'canceled', created: 1 }), sub({ id: 'b', status: 'canceled', created: 3 })])!.id).toBe('b')
  })
  test('none → null', () => expect(pickSubscription([])).toBeNull())
})

describe('decide: Stripe state against what the user holds', () => {
  const active = accessFromSubscription(sub({}), now)!
  const ended = accessFromSubscription(sub({ status: 'canceled', endedAt: at(0) }), now)!
  const cases: [string, AccessState, typeof active, 'write' | 'keep'][] = [
    ['a live trial paying → the plan', { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: at(3) }, active, 'write'],
    ['an older live gift, now paying → Stripe wins', { role: 'product', subscriptionStatus: 'gifted', accessExpiresAt: at(10) }, active, 'write'],
    ['a live gift and an ended subscription → the gift stays', { role: 'product', subscriptionStatus: 'gifted', accessExpiresAt: at(10) }, ended, 'keep'],
    [
      'a live trial and an ended subscription → ended (Stripe speaks, whatever the order)',
      { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: at(3) },
      ended,
      'write',
    ],
    ['an expired gift and an ended subscription → ended', { role: 'product', subscriptionStatus: 'gifted', accessExpiresAt: at(-1) }, ended, 'write'],
    ['admins are never touched', { role: 'admin', subscriptionStatus: null, accessExpiresAt: null }, active, 'keep'],
    ['same state → nothing to write (replays)', { ...active }, active, 'keep'],
    ['paying → ended', { ...active }, ended, 'write'],
  ]
  for (const [name, current, derived, want] of cases)
    test(name, () => {
      const got = decide(current, derived, now)
      expect(got === null ? 'keep' : 'write').toBe(want)
    })
})

describe('changeAction names the activity-log line', () => {
  const paying: AccessState = { role: 'gd', subscriptionStatus: 'active', accessExpiresAt: at(30) }
  const cases: [string, AccessState, { role: 'gd' | 'product' | 'product+gd'; subscriptionStatus: string }, string][] = [
    [
      'trial → active',
      { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: at(3) },
      { role: 'gd', subscriptionStatus: 'active' },
      'billing.subscription_active',
    ],
    ['plan switch', paying, { role: 'product+gd', subscriptionStatus: 'active' }, 'billing.plan_changed'],
    ['cancel at period end', paying, { role: 'gd', subscriptionStatus: 'active_until_period_end' }, 'billing.cancel_at_period_end'],
    ['payment failed', paying, { role: 'gd', subscriptionStatus: 'past_due' }, 'billing.payment_failed'],
    ['ended', paying, { role: 'gd', subscriptionStatus: 'canceled' }, 'billing.subscription_ended'],
  ]
  for (const [name, before, after, want] of cases) test(name, () => expect(changeAction(before, { ...after, accessExpiresAt: null })).toBe(want))
})
