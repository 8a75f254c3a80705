// Check-then-write sequences of src/auth that were atomic only while they were synchronous
// (docs/atomicity-audit.md): each now runs in one transaction, so two calls started at once still
// keep the rule.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { and, count, eq, isNull } from 'drizzle-orm'
import { createToken, MAX_TOKENS } from '../../../src/auth/access-tokens'
import { consumeToken, issueToken } from '../../../src/auth/one-time-tokens'
import { totp } from '../../../src/auth/totp'
import { enableTwoFactor, hasTwoFactor, startTwoFactor } from '../../../src/auth/two-factor'
import { accessTokens, oneTimeTokens, users } from '../../../src/db/schema'
import { AppError } from '../../../src/lib/errors'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps
let userId: number
beforeEach(() => {
  deps = makeDeps()
  userId = deps.db.insert(users).values({ email: 'u@example.com' }).returning().get().id
})
afterEach(() => deps.close())

test('A4: two token creations at once with one slot left: one is made, the other gets 409 TOKEN_LIMIT', async () => {
  for (let i = 0; i < MAX_TOKENS - 1; i++) await createToken(deps, userId, { name: `t${i}`, scopes: ['read'] })
  const results = await Promise.allSettled([
    createToken(deps, userId, { name: 'a', scopes: ['read'] }),
    createToken(deps, userId, { name: 'b', scopes: ['read'] }),
  ])
  expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1)
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as AppError] : []))
  expect(refused.map((e) => [e.status, e.code])).toEqual([[409, 'TOKEN_LIMIT']])
  expect(deps.db.select({ n: count() }).from(accessTokens).where(eq(accessTokens.userId, userId)).get()!.n).toBe(MAX_TOKENS)
})

test('D8: two password reset requests at once leave one live reset link', async () => {
  await Promise.all([issueToken(deps, userId, 'reset'), issueToken(deps, userId, 'reset')])
  const live = deps.db
    .select({ n: count() })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'reset'), isNull(oneTimeTokens.usedAt)))
    .get()!.n
  expect(live).toBe(1)
})

test('B7: two sibling confirmation links used at once: only one acts', async () => {
  const first = await issueToken(deps, userId, 'confirm')
  const second = await issueToken(deps, userId, 'confirm')
  const checks = await Promise.all([consumeToken(deps, first, 'confirm'), consumeToken(deps, second, 'confirm')])
  expect(checks.map((c) => c.status).sort()).toEqual(['used', 'valid'])
})

test('B4: a setup started in another tab while two-factor is being enabled leaves it on (409)', async () => {
  const { secret } = await startTwoFactor(deps, userId)
  const [enabled, restarted] = await Promise.allSettled([enableTwoFactor(deps, userId, totp(secret, deps.now().getTime())), startTwoFactor(deps, userId)])
  expect(enabled.status).toBe('fulfilled')
  expect(restarted.status === 'rejected' && [(restarted.reason as AppError).status, (restarted.reason as AppError).code]).toEqual([409, 'TWO_FACTOR_ON'])
  expect(await hasTwoFactor(deps, userId)).toBe(true)
})
