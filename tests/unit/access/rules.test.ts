import { describe, expect, test } from 'bun:test'
import {
  type AccessState,
  type Role,
  accessInfo,
  activeTermLimit,
  badgeCount,
  canSeeForum,
  canUseCategory,
  categoriesFor,
  dashboardRedirect,
  effectiveRole,
  featureRank,
  forumPageGate,
  forumsFor,
  hasActiveAccess,
  isFeatureLocked,
  isRole,
  lockedTabMessage,
  lockedTooltip,
  notificationGate,
  overlayContext,
  roleBadgeLabel,
  showManageSubscription,
  showPlanList,
  statusText,
  subscriptionModalTitle,
  termLimit,
  trialDaysLeft,
} from '../../../src/access/rules'

const NOW = new Date('2025-06-01T12:00:00.000Z')
const SEC = 1000
const DAY = 24 * 60 * 60 * SEC
const at = (ms: number) => new Date(NOW.getTime() + ms)

function user(role: Role, over: Partial<AccessState> = {}): AccessState {
  return { role, subscriptionStatus: null, accessExpiresAt: null, stripeCustomerId: null, ...over }
}
const trial = (expiresIn: number) => user('app_trial', { subscriptionStatus: 'trialing', accessExpiresAt: at(expiresIn) })
const paid = (role: Role, status: string | null = 'active', expiresIn: number | null = 20 * DAY) =>
  user(role, { subscriptionStatus: status, accessExpiresAt: expiresIn === null ? null : at(expiresIn) })

describe('active access (§4, §6)', () => {
  const cases: [string, AccessState, boolean][] = [
    ['an admin has access even with an expiry in the past', user('admin', { accessExpiresAt: at(-DAY) }), true],
    ['an admin has access even with a canceled status', user('admin', { subscriptionStatus: 'canceled' }), true],
    ['a trial with a day left has access', trial(DAY), true],
    ['a trial expiring one second from now still has access', trial(SEC), true],
    ['a trial whose expiry is exactly now has no access', trial(0), false],
    ['a trial that expired one second ago has no access, with no job needed', trial(-SEC), false],
    [
      'a trial whose checkout stalled (incomplete) keeps the rest of its trial',
      user('app_trial', { subscriptionStatus: 'incomplete', accessExpiresAt: at(DAY) }),
      true,
    ],
    ['an active {product} subscriber has access', paid('product'), true],
    ['an active gd subscriber with no expiry recorded has access', paid('gd', 'active', null), true],
    ['a bundle subscriber past the paid period has no access', paid('product+gd', 'active', -SEC), false],
    ['a subscription canceled at period end keeps access until the period ends', paid('product', 'active_until_period_end', DAY), true],
    ['a subscription canceled at period end loses access after the period', paid('product', 'active_until_period_end', -DAY), false],
    ['a past_due subscription keeps access until the paid period ends', paid('gd', 'past_due', DAY), true],
    ['a canceled subscription has no access even before its expiry', paid('gd', 'canceled', DAY), false],
    ['an unpaid subscription has no access', paid('product', 'unpaid', DAY), false],
    ['an incomplete_expired subscription has no access', paid('product+gd', 'incomplete_expired', DAY), false],
    ['gifted access with a future expiry is active', paid('product+gd', 'gifted', DAY), true],
    ['gifted access past its expiry is not', paid('product+gd', 'gifted', -DAY), false],
    ['the trial_expired role never has access', user('trial_expired'), false],
    ['an unreadable expiry date fails closed', user('product', { accessExpiresAt: new Date('nope') }), false],
  ]
  test.each(cases)('%s', (_name, state, expected) => {
    expect(hasActiveAccess(state, NOW)).toBe(expected)
  })
})

describe('effective role', () => {
  test('an app_trial whose access expired shows as trial_expired', () => {
    expect(effectiveRole(trial(-SEC), NOW)).toBe('trial_expired')
  })
  test('an app_trial still within its trial stays app_trial', () => {
    expect(effectiveRole(trial(DAY), NOW)).toBe('app_trial')
  })
  test('a lapsed paid role keeps its own role id', () => {
    expect(effectiveRole(paid('gd', 'canceled'), NOW)).toBe('gd')
  })
})

describe('forums and categories per role (§6)', () => {
  const cases: [Role, string[], string[]][] = [
    ['product', ['product'], ['wts', 'wtb']],
    ['gd', ['gd'], ['gd']],
    ['product+gd', ['product', 'gd'], ['wts', 'wtb', 'gd']],
    ['admin', ['product', 'gd'], ['wts', 'wtb', 'gd']],
    ['app_trial', ['product', 'gd'], ['wts', 'wtb', 'gd']],
    ['trial_expired', [], []],
  ]
  test.each(cases)('role %s sees forums %p and categories %p', (role, forums, categories) => {
    expect(forumsFor(role)).toEqual(forums as never)
    expect(categoriesFor(role)).toEqual(categories as never)
  })

  test('a {product} subscriber cannot see the deals forum', () => {
    expect(canSeeForum(paid('product'), 'gd', NOW)).toBe(false)
    expect(canSeeForum(paid('product'), 'product', NOW)).toBe(true)
  })
  test('a bundle subscriber whose subscription lapsed sees no forum tab', () => {
    const lapsed = paid('product+gd', 'active', -SEC)
    expect(canSeeForum(lapsed, 'product', NOW)).toBe(false)
    expect(canSeeForum(lapsed, 'gd', NOW)).toBe(false)
  })
  test('an expired trial cannot use the wtb category', () => {
    expect(canUseCategory(trial(-SEC), 'wtb', NOW)).toBe(false)
    expect(canUseCategory(trial(SEC), 'wtb', NOW)).toBe(true)
  })
})

describe('feature rank and locks (§6)', () => {
  const ranks: [Role, number][] = [
    ['product', 1],
    ['gd', 1],
    ['app_trial', 1],
    ['product+gd', 2],
    ['admin', 3],
    ['trial_expired', 0],
  ]
  test.each(ranks)('role %s has feature rank %d', (role, rank) => {
    expect(featureRank(role)).toBe(rank)
  })
  test('a bundle-only feature is locked for a gd subscriber', () => {
    expect(isFeatureLocked('gd', 'product+gd')).toBe(true)
  })
  test('a {product}-rank feature is open to a trial user', () => {
    expect(isFeatureLocked('app_trial', 'product')).toBe(false)
  })
  test('an admin-only feature is locked for a bundle subscriber but not for an admin', () => {
    expect(isFeatureLocked('product+gd', 'admin')).toBe(true)
    expect(isFeatureLocked('admin', 'admin')).toBe(false)
  })
  test("a locked feature's tooltip names the required role", () => {
    expect(lockedTooltip('GAFS + GD')).toBe('This feature requires a GAFS + GD subscription')
  })
  test('a padlocked tab explains that the feature needs a subscription', () => {
    expect(lockedTabMessage('GUNDEALS')).toBe('GUNDEALS access requires subscription')
  })
})

describe('notification gate (§6)', () => {
  test('a {product} subscriber may turn on email and web push', () => {
    const gate = notificationGate(paid('product'), NOW)
    expect(gate.email).toEqual({ allowed: true, message: null })
    expect(gate.webPush).toEqual({ allowed: true, message: null })
  })
  test('an expired trial is told email and web push need a subscription', () => {
    const gate = notificationGate(trial(-SEC), NOW)
    expect(gate.email).toEqual({ allowed: false, message: 'Email notifications require a subscription' })
    expect(gate.webPush).toEqual({ allowed: false, message: 'Web push notifications require a subscription' })
  })
  test('a canceled gd subscriber cannot turn on email', () => {
    expect(notificationGate(paid('gd', 'canceled'), NOW).email.allowed).toBe(false)
  })
})

describe('term limits (§9)', () => {
  const limits: [Role, number][] = [
    ['product', 10],
    ['gd', 10],
    ['product+gd', 10],
    ['app_trial', 10],
    ['admin', 50],
    ['trial_expired', 0],
  ]
  test.each(limits)('role %s may save %d terms per category', (role, limit) => {
    expect(termLimit(role)).toBe(limit)
  })
  test('a lapsed subscriber may add no more terms', () => {
    expect(activeTermLimit(paid('product', 'unpaid'), NOW)).toBe(0)
  })
})

describe('trial days left (§4)', () => {
  const cases: [string, AccessState, number | null][] = [
    ['a fresh 7-day trial has 7 days left', trial(7 * DAY), 7],
    ['a trial with 6 days and 1 second left rounds up to 7', trial(6 * DAY + SEC), 7],
    ['a trial with one second left has 1 day left', trial(SEC), 1],
    ['a trial expiring exactly now has 0 days left', trial(0), 0],
    ['an expired trial never shows fewer than 0 days', trial(-3 * DAY), 0],
    ['a paid subscriber has no days-left figure', paid('product'), null],
    ['an admin has no days-left figure', user('admin', { accessExpiresAt: at(DAY) }), null],
  ]
  test.each(cases)('%s', (_name, state, expected) => {
    expect(trialDaysLeft(state, NOW)).toBe(expected)
  })
})

describe('overlay context (§4)', () => {
  const cases: [string, AccessState | null, string][] = [
    ['no signed-in user gets the default overlay', null, 'default'],
    ['an app_trial whose access expired one second ago gets the app_trial_expired overlay', trial(-SEC), 'app_trial_expired'],
    ['an app_trial expiring exactly now gets the app_trial_expired overlay', trial(0), 'app_trial_expired'],
    ['an app_trial with time left is not app_trial_expired', trial(SEC), 'inactive_subscription'],
    ['a stored trial_expired role reads as an ended trial', user('trial_expired'), 'app_trial_expired'],
    ['a canceled {product} subscriber gets the inactive_subscription overlay', paid('product', 'canceled'), 'inactive_subscription'],
    ['gifted access that ran out gets the gifted_expired overlay', paid('gd', 'gifted', -SEC), 'gifted_expired'],
  ]
  test.each(cases)('%s', (_name, state, expected) => {
    expect(overlayContext(state, NOW)).toBe(expected as never)
  })
})

describe('subscription modal title (§2)', () => {
  const cases: [string | null, string][] = [
    ['trial-ending', 'Your Trial is Ending Soon'],
    ['app_trial_expired', 'Your Free Trial Has Ended'],
    ['inactive_subscription', 'Reactivate Your Subscription'],
    ['gifted_expired', 'Your Gifted Access Has Expired'],
    ['default', 'Subscription'],
    [null, 'Subscription'],
  ]
  test.each(cases)('context %p is titled %p', (context, title) => {
    expect(subscriptionModalTitle(context)).toBe(title)
  })
})

describe('role badge labels (§6)', () => {
  const cases: [Role, string][] = [
    ['product', 'GAFS'],
    ['gd', 'GunDeals'],
    ['product+gd', 'GAFS + GD'],
    ['admin', 'Admin'],
    ['app_trial', 'Active Trial'],
    ['trial_expired', 'Trial Expired'],
  ]
  test.each(cases)('role %s shows the badge %p', (role, label) => {
    expect(roleBadgeLabel(role, 'GAFS')).toBe(label)
  })
  test('the product badge follows a configured product label', () => {
    expect(roleBadgeLabel('product', 'Parts')).toBe('Parts')
    expect(roleBadgeLabel('product+gd', 'Parts')).toBe('Parts + GD')
  })
  test('the default product label is GAFS', () => {
    expect(roleBadgeLabel('product')).toBe('GAFS')
  })
})

describe('status text (§4)', () => {
  const cases: [string, AccessState, string][] = [
    ['an admin reads Administrator Access', user('admin'), 'Administrator Access'],
    ['a trial with time left reads Trial Active', trial(DAY), 'Trial Active'],
    ['a trial past its expiry reads Trial Expired', trial(-SEC), 'Trial Expired'],
    ['a stored trial_expired role reads Trial Expired', user('trial_expired'), 'Trial Expired'],
    ['an active subscriber reads Active', paid('product+gd'), 'Active'],
    ['a subscription canceled at period end says so while it lasts', paid('gd', 'active_until_period_end', DAY), 'Canceled - Active Until Period End'],
    ['a subscription canceled at period end reads Inactive once the period is over', paid('gd', 'active_until_period_end', -DAY), 'Inactive'],
    ['a canceled subscriber reads Inactive', paid('product', 'canceled'), 'Inactive'],
  ]
  test.each(cases)('%s', (_name, state, expected) => {
    expect(statusText(state, NOW)).toBe(expected)
  })
})

describe('plan list and manage button (§4)', () => {
  const cases: [string, AccessState, boolean, boolean][] = [
    ['a user without active access sees the plans', paid('gd', 'canceled'), false, true],
    ['an active trial user sees the plans', trial(DAY), false, true],
    ['an expired trial user sees the plans', trial(-DAY), false, true],
    ['an active subscriber does not see the plan list', paid('product'), false, false],
    ['an admin never sees the plan list', user('admin', { accessExpiresAt: at(-DAY) }), false, false],
    ['the plan list hides while a checkout is open', trial(-DAY), true, false],
  ]
  test.each(cases)('%s', (_name, state, checkoutOpen, expected) => {
    expect(showPlanList(state, { checkoutOpen }, NOW)).toBe(expected)
  })
  test('Manage Subscription shows only with a payment-customer id', () => {
    expect(showManageSubscription(paid('product'))).toBe(false)
    expect(showManageSubscription({ ...paid('product'), stripeCustomerId: 'cus_123' })).toBe(true)
    expect(showManageSubscription({ ...trial(DAY), stripeCustomerId: undefined })).toBe(false)
  })
})

describe('dashboard redirects (§2)', () => {
  test('a user with {product} access lands on the WTS page', () => {
    expect(dashboardRedirect(paid('product+gd'), NOW, 'gafs')).toBe('/dashboard/gafs/wts')
  })
  test('a deals-only subscriber lands on the gundeals page', () => {
    expect(dashboardRedirect(paid('gd'), NOW, 'gafs')).toBe('/dashboard/gundeals')
  })
  test('a user with no forum access gets the no-content error', () => {
    expect(dashboardRedirect(trial(-SEC), NOW, 'gafs')).toEqual({ error: 'No accessible content found for your account.' })
  })
  test('a deals-page visitor with only {product} access is sent to WTS', () => {
    expect(forumPageGate(paid('product'), 'gd', NOW, 'gafs')).toEqual({ kind: 'redirect', to: '/dashboard/gafs/wts' })
  })
  test('a {product}-section visitor with only gd access is sent to gundeals', () => {
    expect(forumPageGate(paid('gd'), 'product', NOW, 'gafs')).toEqual({ kind: 'redirect', to: '/dashboard/gundeals' })
  })
  test('a deals page without deals access or {product} access shows Gundeals Access Required', () => {
    expect(forumPageGate(paid('gd', 'canceled'), 'gd', NOW, 'gafs')).toEqual({
      kind: 'denied',
      title: 'Gundeals Access Required',
      message: 'Access to Gundeals content requires an active subscription.',
    })
  })
  test('the {product} section without access says {product} Access Required', () => {
    expect(forumPageGate(trial(-SEC), 'product', NOW, 'gafs', 'GAFS')).toEqual({
      kind: 'denied',
      title: 'GAFS Access Required',
      message: 'You do not have access to GAFS content.',
    })
  })
  test('the WTB page without any access says {product} Access Required (issue 12 item 8)', () => {
    expect(forumPageGate(trial(-SEC), 'product', NOW, 'gafs', 'GAFS', 'wtb')).toEqual({
      kind: 'denied',
      title: 'GAFS Access Required',
      message: 'You do not have access to GAFS content.',
    })
  })
  test('a bundle subscriber is allowed on both forum pages', () => {
    expect(forumPageGate(paid('product+gd'), 'gd', NOW, 'gafs')).toEqual({ kind: 'allow' })
    expect(forumPageGate(paid('product+gd'), 'product', NOW, 'gafs')).toEqual({ kind: 'allow' })
  })
})

describe('unread badge (§2, §9)', () => {
  const cases: [number, string][] = [
    [0, ''],
    [-4, ''],
    [1, '1'],
    [99, '99'],
    [100, '99+'],
    [12345, '99+'],
    [Number.NaN, ''],
  ]
  test.each(cases)('a count of %p shows %p', (n, text) => {
    expect(badgeCount(n)).toBe(text)
  })
})

describe('AccessInfo (§3)', () => {
  test('an active trial reports both forums, 10 terms and its days left', () => {
    expect(accessInfo(trial(2 * DAY + SEC), NOW)).toEqual({
      userRole: 'app_trial',
      hasAccess: true,
      accessExpiresAt: at(2 * DAY + SEC).toISOString(),
      stripeCustomerId: null,
      subscriptionStatus: 'trialing',
      daysLeft: 3,
      statusText: 'Trial Active',
      forums: ['product', 'gd'],
      categories: ['wts', 'wtb', 'gd'],
      termLimit: 10,
      featureRank: 1,
      overlayContext: 'inactive_subscription',
    })
  })
  test('an expired trial reports trial_expired with no forums and the trial-ended overlay', () => {
    const info = accessInfo({ ...trial(-SEC), stripeCustomerId: 'cus_9' }, NOW)
    expect(info).toMatchObject({
      userRole: 'trial_expired',
      hasAccess: false,
      stripeCustomerId: 'cus_9',
      daysLeft: 0,
      statusText: 'Trial Expired',
      forums: [],
      categories: [],
      termLimit: 0,
      featureRank: 0,
      overlayContext: 'app_trial_expired',
    })
  })
  test('an admin reports all forums, 50 terms and rank 3 with no expiry', () => {
    expect(accessInfo(user('admin'), NOW)).toMatchObject({
      userRole: 'admin',
      hasAccess: true,
      accessExpiresAt: null,
      daysLeft: null,
      statusText: 'Administrator Access',
      forums: ['product', 'gd'],
      termLimit: 50,
      featureRank: 3,
    })
  })
  test('AccessInfo survives a JSON round trip unchanged', () => {
    const info = accessInfo(paid('gd'), NOW)
    expect(JSON.parse(JSON.stringify(info))).toEqual(info)
  })
})

test('isRole accepts the six role ids and nothing else', () => {
  for (const r of ['admin', 'product', 'gd', 'product+gd', 'app_trial', 'trial_expired']) expect(isRole(r)).toBe(true)
  expect(isRole('gafs')).toBe(false)
  expect(isRole(undefined)).toBe(false)
})

test('the access rules import nothing from node or bun, so the browser can use them', async () => {
  for (const file of ['rules.ts', 'plans.ts']) {
    const src = await Bun.file(new URL(`../../../src/access/${file}`, import.meta.url)).text()
    const imports = [...src.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1])
    for (const spec of imports) expect(spec).toMatch(/^\.\//)
  }
})
