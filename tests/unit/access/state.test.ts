// src/access/state.ts and src/access/accounts.ts read a user's account fields through the auth leaf
// (src/auth/user-rows.ts) and the user_access rows themselves: every account keeps its own row (none:
// role 'none' / null fields), ids beyond one chunk are all read, the admin search escapes LIKE's
// wildcards. src/access/stripe-link.ts: a stored customer is never replaced, only the stored one is
// forgotten.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { userAccess, users } from '../../../src/db/schema'
import { accessRowOf, accessRowsOf, userWithAccess, usersWithAccess } from '../../../src/access/state'
import { accountRow, accountRows } from '../../../src/access/accounts'
import { linkCustomerIfNone, storeCustomer, stripeIdsOf, unlinkCustomer, userOfCustomer } from '../../../src/access/stripe-link'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps
beforeEach(() => {
  deps = makeDeps({ ADMIN_EMAILS: 'boss@example.com' })
})
afterEach(() => deps.close())

const T = new Date('2026-05-01T12:00:00Z')
function addUser(email: string, name = '', role?: string): number {
  const { id } = deps.db.insert(users).values({ email, name, createdAt: T, emailConfirmedAt: T }).returning({ id: users.id }).get()
  if (role !== undefined) deps.db.insert(userAccess).values({ userId: id, role, subscriptionStatus: 'active' }).run()
  return id
}

describe('usersWithAccess / userWithAccess', () => {
  test('each account with its own row; no row reads as role none; ADMIN_EMAILS make an admin', async () => {
    const a = addUser('a@example.com', 'A', 'product')
    const b = addUser('b@example.com')
    const boss = addUser('boss@example.com', 'Boss', 'gd')
    expect((await usersWithAccess(deps)).map((r) => [r.user.id, r.access.role, r.access.subscriptionStatus])).toEqual([
      [a, 'product', 'active'],
      [b, 'none', null],
      [boss, 'admin', 'active'],
    ])
    expect((await userWithAccess(deps, b)) as unknown).toEqual({
      user: { id: b, email: 'b@example.com', emailConfirmedAt: T, bannedAt: null },
      access: { role: 'none', subscriptionStatus: null, accessExpiresAt: null, stripeCustomerId: null },
    })
    expect(await userWithAccess(deps, 999_999)).toBeNull()
    expect((await accessRowOf(deps, a))?.role).toBe('product')
    expect(await accessRowOf(deps, b)).toBeNull()
  })

  test('more ids than one chunk of 500: every account is read, unknown ids are left out', async () => {
    const ids = Array.from({ length: 1203 }, (_, i) => addUser(`u${i}@example.com`, '', i % 2 === 0 ? 'gd' : undefined))
    const read = await usersWithAccess(deps, [...ids, 999_999])
    expect(read.map((r) => r.user.id)).toEqual(ids)
    expect(read.filter((r) => r.access.role === 'gd').length).toBe(602)
    expect((await accessRowsOf(deps, ids)).size).toBe(602)
    expect(await usersWithAccess(deps, [])).toEqual([])
  })
})

describe('accountRows (Admin → Users, Revenue)', () => {
  test('search matches email or name, with % and _ taken literally; newest first; one account', async () => {
    const plain = addUser('plain@example.com', 'Plain', 'product')
    const pct = addUser('pct@example.com', '100% real')
    const under = addUser('under_score@example.com', 'U')
    expect((await accountRows(deps)).map((r) => r.id)).toEqual([plain, pct, under])
    expect((await accountRows(deps, { newestFirst: true })).map((r) => r.id)).toEqual([under, pct, plain])
    expect((await accountRows(deps, { search: '%' })).map((r) => r.id)).toEqual([pct])
    expect((await accountRows(deps, { search: '_' })).map((r) => r.id)).toEqual([under])
    expect((await accountRows(deps, { search: 'plain' })).map((r) => [r.id, r.role, r.subscriptionStatus])).toEqual([[plain, 'product', 'active']])
    expect(await accountRow(deps, pct)).toMatchObject({ id: pct, email: 'pct@example.com', name: '100% real', createdAt: T, role: null, grantedBy: null })
    expect(await accountRow(deps, 999_999)).toBeUndefined()
  })
})

describe('stripe-link', () => {
  test('a stored customer is never replaced; a link needs a row without one; only the stored one is forgotten', async () => {
    const u = addUser('s@example.com')
    expect(await stripeIdsOf(deps, u)).toBeNull()
    await linkCustomerIfNone(deps, u, 'cus_0') // no row yet: nothing
    expect(await stripeIdsOf(deps, u)).toBeNull()
    await storeCustomer(deps, u, 'cus_1') // creates the row
    await storeCustomer(deps, u, 'cus_2') // keeps cus_1
    await linkCustomerIfNone(deps, u, 'cus_3')
    expect(await stripeIdsOf(deps, u)).toEqual({ customer: 'cus_1', subscription: null })
    expect(await userOfCustomer(deps, 'cus_1')).toBe(u)
    expect(await userOfCustomer(deps, 'cus_2')).toBeNull()
    await unlinkCustomer(deps, u, 'cus_2')
    expect((await stripeIdsOf(deps, u))?.customer).toBe('cus_1')
    await unlinkCustomer(deps, u, 'cus_1')
    expect(await stripeIdsOf(deps, u)).toEqual({ customer: null, subscription: null })
    await linkCustomerIfNone(deps, u, 'cus_4')
    expect((await stripeIdsOf(deps, u))?.customer).toBe('cus_4')
  })
})
