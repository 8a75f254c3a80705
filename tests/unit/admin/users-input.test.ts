// What the Users page may send (src/admin/users-input.ts) and the list filters
// (src/admin/users-service.ts passesFilters), as tables.
import { describe, expect, test } from 'bun:test'
import { readDays, readListQuery, readPlan, readRole, readUntil } from '../../../src/admin/users/input'
import { passesFilters, trialEndingSoon, type UserListItem } from '../../../src/admin/users/view'

const NOW = new Date('2026-03-02T12:00:00Z')
const fails = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    return (e as Error).message
  }
  return null
}

describe('readers', () => {
  test.each([
    ['gd', 'gd'],
    ['GAFS', 'product'],
    ['bundle', 'product+gd'],
    ['gafs + gd', 'product+gd'],
  ])('plan %p → %p', (input, plan) => expect(readPlan(input, 'GAFS')).toBe(plan as never))
  test('unknown plan', () => expect(fails(() => readPlan('gold', 'GAFS'))).toBe('Please choose a plan: GAFS, GunDeals (GD) or GAFS + GD.'))

  test.each(['admin', 'product', 'gd', 'product+gd', 'app_trial', 'trial_expired', 'none'])('role %p', (r) => expect(readRole(r)).toBe(r as never))
  test('unknown role', () => expect(fails(() => readRole('root'))).toContain('Please choose a role'))

  const until: [unknown, string | null, string | null][] = [
    ['2026-03-03', '2026-03-03T23:59:59.999Z', null],
    ['2026-04-01T08:00:00Z', '2026-04-01T08:00:00.000Z', null],
    ['2026-03-01', null, 'The end date must be in the future.'],
    ['2030-01-01', null, 'The end date must be within 3 years.'],
    ['tomorrow', null, '"tomorrow" is not a date. Use a date like 2026-12-31.'],
    ['', null, 'Please choose an end date.'],
    [42, null, 'Please choose an end date.'],
  ]
  test.each(until)('until %p', (input, iso, message) => {
    if (message) expect(fails(() => readUntil(input, NOW))).toBe(message)
    else expect(readUntil(input, NOW).toISOString()).toBe(iso!)
  })

  test.each([
    [7, 7],
    ['30', 30],
    [90, 90],
  ])('days %p', (input, n) => expect(readDays(input)).toBe(n))
  test.each([0, 91, 1.5, '', 'x', null])('days %p refused', (input) =>
    expect(fails(() => readDays(input))).toBe('Please enter a whole number of days from 1 to 90.'),
  )

  test('list query defaults and values', () => {
    expect(readListQuery({})).toEqual({ search: '', role: null, status: null, trialEnding: false, page: 1, pageSize: 25 })
    expect(readListQuery({ q: '  Ann ', role: 'gd', status: 'banned', trialEnding: '1', page: '3', pageSize: '50' })).toEqual({
      search: 'ann',
      role: 'gd',
      status: 'banned',
      trialEnding: true,
      page: 3,
      pageSize: 50,
    })
  })
})

const item = (over: Partial<UserListItem>): UserListItem => ({
  id: 1,
  email: 'a@example.com',
  name: '',
  role: 'gd',
  storedRole: 'gd',
  hasAccess: true,
  statusText: 'Active',
  subscriptionStatus: 'active',
  accessExpiresAt: null,
  grantedBy: null,
  confirmed: true,
  banned: false,
  twoFactor: false,
  adminByConfig: false,
  createdAt: NOW.toISOString(),
  lastSignInAt: null,
  trialEndingSoon: false,
  ...over,
})

describe('passesFilters', () => {
  const none: Record<string, unknown> = { role: null, status: null, trialEnding: false }
  const cases: [string, Partial<UserListItem>, Record<string, unknown>, boolean][] = [
    ['no filter', {}, {}, true],
    ['role match', {}, { role: 'gd' }, true],
    ['role mismatch', {}, { role: 'admin' }, false],
    ['active', {}, { status: 'active' }, true],
    ['banned is not active', { banned: true, hasAccess: true }, { status: 'active' }, false],
    ['banned', { banned: true }, { status: 'banned' }, true],
    ['inactive', { hasAccess: false }, { status: 'inactive' }, true],
    ['unconfirmed', { confirmed: false }, { status: 'unconfirmed' }, true],
    ['trial ending', { trialEndingSoon: true }, { trialEnding: true }, true],
    ['trial not ending', {}, { trialEnding: true }, false],
  ]
  test.each(cases)('%s', (_name, over, q, expected) => expect(passesFilters(item(over), { ...none, ...q } as never)).toBe(expected))
})

test.each([
  [36, true],
  [48, true],
  [49, false],
  [-1, false],
])('a trial ending in %p hours is ending soon: %p', (hours, soon) =>
  expect(trialEndingSoon({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(NOW.getTime() + hours * 3600_000) }, NOW)).toBe(soon),
)
