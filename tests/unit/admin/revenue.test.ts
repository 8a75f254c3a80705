// Revenue statistics (src/admin/revenue-stats.ts), pure, on a fixed clock: who counts as paying,
// MRR per plan, trial episodes and their outcome, churn, and the weekly table.
import { describe, expect, test } from 'bun:test'
import {
  churn,
  churnEvents,
  classifyAccount,
  countKinds,
  mrr,
  payingCountAt,
  trialEpisodes,
  weekStart,
  weeklyStats,
  type AccountKind,
  type AccountRow,
  type TrialOutcome,
  type HistoryRow,
} from '../../../src/admin/revenue/stats'

const NOW = new Date('2026-03-04T12:00:00Z') // a Wednesday
const DAY = 24 * 3600_000
const ago = (days: number) => new Date(NOW.getTime() - days * DAY)
const ahead = (days: number) => new Date(NOW.getTime() + days * DAY)

const acct = (a: Partial<AccountRow>): AccountRow => ({
  userId: 1,
  role: 'product',
  subscriptionStatus: 'active',
  accessExpiresAt: ahead(20),
  stripeSubscriptionId: 'sub_1',
  grantedBy: null,
  ...a,
})

describe('classifyAccount', () => {
  const cases: { name: string; a: Partial<AccountRow>; kind: AccountKind; defaultPlan?: 'product+gd' | null }[] = [
    { name: 'Stripe active', a: {}, kind: 'paying' },
    { name: 'Stripe past_due within the period', a: { subscriptionStatus: 'past_due' }, kind: 'paying' },
    { name: 'canceled at period end, still running', a: { subscriptionStatus: 'active_until_period_end' }, kind: 'paying' },
    { name: 'canceled at period end, period over', a: { subscriptionStatus: 'active_until_period_end', accessExpiresAt: ago(1) }, kind: 'lapsed_paid' },
    { name: 'Stripe canceled', a: { subscriptionStatus: 'canceled' }, kind: 'lapsed_paid' },
    { name: 'Stripe unpaid', a: { subscriptionStatus: 'unpaid' }, kind: 'lapsed_paid' },
    { name: 'gifted running', a: { subscriptionStatus: 'gifted', stripeSubscriptionId: null, grantedBy: 'a@x' }, kind: 'gifted' },
    { name: 'gifted ended', a: { subscriptionStatus: 'gifted', stripeSubscriptionId: null, accessExpiresAt: ago(1) }, kind: 'gifted_expired' },
    {
      name: 'default plan (billing off)',
      a: { role: 'product+gd', stripeSubscriptionId: null, accessExpiresAt: null },
      kind: 'default_plan',
      defaultPlan: 'product+gd',
    },
    { name: 'same without a default plan is manual', a: { role: 'product+gd', stripeSubscriptionId: null, accessExpiresAt: null }, kind: 'manual' },
    {
      name: 'role set by an admin',
      a: { role: 'gd', stripeSubscriptionId: null, accessExpiresAt: null, grantedBy: 'a@x' },
      kind: 'manual',
      defaultPlan: 'product+gd',
    },
    { name: 'trial running', a: { role: 'app_trial', subscriptionStatus: 'trialing', stripeSubscriptionId: null }, kind: 'trial' },
    { name: 'trial past its end', a: { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: ago(1) }, kind: 'trial_expired' },
    { name: 'stored trial_expired', a: { role: 'trial_expired', subscriptionStatus: null }, kind: 'trial_expired' },
    { name: 'admin', a: { role: 'admin' }, kind: 'admin' },
    { name: 'no role', a: { role: 'none', subscriptionStatus: null }, kind: 'none' },
  ]
  for (const c of cases) test(c.name, () => expect(classifyAccount(acct(c.a), NOW, c.defaultPlan ?? null)).toBe(c.kind))
})

test('MRR: paying accounts × plan price, per plan; gifted, lapsed and default-plan accounts add nothing', () => {
  const accounts = [
    acct({ userId: 1, role: 'product' }),
    acct({ userId: 2, role: 'product', subscriptionStatus: 'past_due' }),
    acct({ userId: 3, role: 'gd' }),
    acct({ userId: 4, role: 'product+gd', subscriptionStatus: 'active_until_period_end' }),
    acct({ userId: 5, role: 'product+gd', subscriptionStatus: 'canceled' }),
    acct({ userId: 6, role: 'gd', subscriptionStatus: 'gifted', stripeSubscriptionId: null }),
    acct({ userId: 7, role: 'product+gd', stripeSubscriptionId: null, accessExpiresAt: null }),
  ]
  const r = mrr(accounts, NOW, 'GAFS')
  expect(r.mrrCents).toBe(1500 * 2 + 1000 + 2000)
  expect(r.plans.map((p) => [p.plan, p.name, p.subscribers, p.mrrCents])).toEqual([
    ['product', 'GAFS', 2, 3000],
    ['gd', 'GunDeals (GD)', 1, 1000],
    ['product+gd', 'GAFS + GD', 1, 2000],
  ])
  expect(countKinds(accounts, NOW, 'product+gd')).toMatchObject({ paying: 4, lapsed_paid: 1, gifted: 1, default_plan: 1, trial: 0 })
})

test('with billing off and nobody paying, MRR is 0 and every plan line is there', () => {
  const r = mrr([acct({ stripeSubscriptionId: null, accessExpiresAt: null })], NOW)
  expect(r.mrrCents).toBe(0)
  expect(r.plans.map((p) => p.subscribers)).toEqual([0, 0, 0])
})

const h = (userId: number, at: Date, role: string, status: string | null, expires: Date | null, source = 'system'): HistoryRow => ({
  userId,
  at,
  role,
  subscriptionStatus: status,
  accessExpiresAt: expires,
  source,
})

describe('trial episodes', () => {
  const cases: { name: string; rows: HistoryRow[]; expected: { outcome: TrialOutcome['outcome']; endedAt: Date | null }[] }[] = [
    { name: 'still running', rows: [h(1, ago(2), 'app_trial', 'trialing', ahead(5), 'signup')], expected: [{ outcome: 'running', endedAt: null }] },
    { name: 'ran out on time', rows: [h(1, ago(9), 'app_trial', 'trialing', ago(2), 'signup')], expected: [{ outcome: 'expired', endedAt: ago(2) }] },
    {
      name: 'converted to a Stripe plan',
      rows: [h(1, ago(6), 'app_trial', 'trialing', ahead(1), 'signup'), h(1, ago(3), 'product', 'active', ahead(27), 'stripe')],
      expected: [{ outcome: 'converted', endedAt: ago(3) }],
    },
    {
      name: 'extended by an admin, then ended by an admin: one episode, expired when ended',
      rows: [
        h(1, ago(8), 'app_trial', 'trialing', ago(1), 'signup'),
        h(1, ago(7), 'app_trial', 'trialing', ahead(3), 'admin'),
        h(1, ago(2), 'app_trial', 'trialing', ago(2), 'admin'),
      ],
      expected: [{ outcome: 'expired', endedAt: ago(2) }],
    },
    {
      name: 'gifted plan after the trial ended: expired at the trial end, not converted',
      rows: [h(1, ago(20), 'app_trial', 'trialing', ago(13), 'signup'), h(1, ago(5), 'gd', 'gifted', ahead(30), 'admin')],
      expected: [{ outcome: 'expired', endedAt: ago(13) }],
    },
    {
      name: 'an admin-set plan is not a conversion',
      rows: [h(1, ago(4), 'app_trial', 'trialing', ahead(3), 'signup'), h(1, ago(1), 'product', 'active', null, 'admin')],
      expected: [{ outcome: 'expired', endedAt: ago(1) }],
    },
    { name: 'no trial at all', rows: [h(1, ago(4), 'product+gd', 'active', null, 'signup')], expected: [] },
  ]
  for (const c of cases) test(c.name, () => expect(trialEpisodes(c.rows, NOW).map((e) => ({ outcome: e.outcome, endedAt: e.endedAt }))).toEqual(c.expected))
})

describe('churn', () => {
  const cases: { name: string; rows: HistoryRow[]; events: Date[] }[] = [
    { name: 'still paying', rows: [h(1, ago(10), 'product', 'active', ahead(20), 'stripe')], events: [] },
    {
      name: 'canceled now (next row not paying)',
      rows: [h(1, ago(40), 'product', 'active', ago(10), 'stripe'), h(1, ago(12), 'product', 'canceled', ago(12), 'stripe')],
      events: [ago(12)],
    },
    {
      name: 'canceled at period end, the period ran out',
      rows: [h(1, ago(20), 'gd', 'active_until_period_end', ago(3), 'stripe')],
      events: [ago(3)],
    },
    {
      name: 'renewals are not churn',
      rows: [h(1, ago(40), 'gd', 'active', ago(10), 'stripe'), h(1, ago(10), 'gd', 'active', ahead(20), 'stripe')],
      events: [],
    },
    {
      name: 'a gifted plan never churns',
      rows: [h(1, ago(40), 'gd', 'gifted', ago(10), 'admin')],
      events: [],
    },
  ]
  for (const c of cases) test(c.name, () => expect(churnEvents(c.rows, NOW).map((e) => e.at)).toEqual(c.events))

  test('rate = churned in the window / paying at its start; null when nobody paid', () => {
    const rows = [
      h(1, ago(60), 'product', 'active', ahead(5), 'stripe'),
      h(2, ago(60), 'gd', 'active', ahead(5), 'stripe'),
      h(2, ago(5), 'gd', 'canceled', ago(5), 'stripe'),
      h(3, ago(50), 'product', 'active_until_period_end', ago(40), 'stripe'),
    ]
    expect(payingCountAt(rows, ago(30))).toBe(2)
    expect(churn(rows, NOW, 30)).toEqual({ windowDays: 30, churned: 1, payingAtStart: 2, rate: 0.5 })
    expect(churn([], NOW, 30).rate).toBeNull()
  })
})

test('weeks start on Monday (UTC)', () => {
  expect(weekStart(NOW).toISOString()).toBe('2026-03-02T00:00:00.000Z')
  expect(weekStart(new Date('2026-03-01T23:59:00Z')).toISOString()).toBe('2026-02-23T00:00:00.000Z')
})

test('weekly table: oldest first, this week last, each event in its own week', () => {
  const rows = [
    h(1, ago(1), 'app_trial', 'trialing', ahead(6), 'signup'), // started this week
    h(2, ago(10), 'app_trial', 'trialing', ago(3), 'signup'), // started Sunday two weeks back, expired last Sunday
    h(3, ago(8), 'app_trial', 'trialing', ahead(1), 'signup'),
    h(3, ago(2), 'gd', 'active', ahead(28), 'stripe'), // converted this week
    h(4, ago(9), 'product', 'active_until_period_end', ago(2), 'stripe'), // churned this week
    h(5, ago(200), 'app_trial', 'trialing', ago(193), 'signup'), // outside the window
  ]
  const weeks = weeklyStats(rows, NOW, 3)
  expect(weeks).toEqual([
    { weekStart: '2026-02-16', trialsStarted: 1, trialsConverted: 0, trialsExpired: 0, churned: 0 },
    { weekStart: '2026-02-23', trialsStarted: 1, trialsConverted: 0, trialsExpired: 1, churned: 0 },
    { weekStart: '2026-03-02', trialsStarted: 1, trialsConverted: 1, trialsExpired: 0, churned: 1 },
  ])
})
