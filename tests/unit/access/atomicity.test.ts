// docs/atomicity-audit.md B1 and B3 (B2, Stripe's applyFacts, uses the same writeAccessFrom): a write of user_access decided from the stored row reads that row in
// the write's transaction (src/access/service.ts writeAccessFrom), so calls started at once
// (`Promise.all`) each see the other's write instead of overwriting it.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accessHistory, userAccess, users } from '../../../src/db/schema'
import { startAccess } from '../../../src/access/service'
import { extendTrial } from '../../../src/admin/users/actions'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

const DAY = 86_400_000
const T = new Date('2026-05-01T12:00:00Z')
let deps: TestDeps
beforeEach(() => {
  deps = makeDeps({}, testClock(T.getTime()))
})
afterEach(() => deps.close())

function addUser(email: string, access?: { role: string; subscriptionStatus: string | null; accessExpiresAt: Date | null }): number {
  const { id } = deps.db.insert(users).values({ email, name: '', createdAt: T, emailConfirmedAt: T }).returning({ id: users.id }).get()
  if (access)
    deps.db
      .insert(userAccess)
      .values({ userId: id, ...access })
      .run()
  return id
}
const row = (userId: number) => deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get()!
const history = (userId: number) => deps.db.select().from(accessHistory).where(eq(accessHistory.userId, userId)).all()

describe('access writes decided from the stored row', () => {
  test('B3: a confirmation and a Google sign-in at once start one trial (one signup row)', async () => {
    const u = addUser('new@example.com')
    await Promise.all([startAccess(deps, u), startAccess(deps, u)])
    expect(history(u).map((h) => h.source)).toEqual(['signup'])
  })

  test('B1: two "extend 7 days" at once extend by 14 days', async () => {
    const u = addUser('trial@example.com', { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(T.getTime() + DAY) })
    const admin = { id: 0, email: 'admin@example.com' }
    await Promise.all([extendTrial(deps, admin, u, 7), extendTrial(deps, admin, u, 7)])
    expect(row(u).accessExpiresAt!.getTime()).toBe(T.getTime() + 15 * DAY)
  })
})
