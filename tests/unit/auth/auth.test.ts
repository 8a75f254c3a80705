// Pure-ish pieces of accounts: password rules, single-use tokens, access grants, CLI date parsing.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { passwordProblem, verifyPassword, hashPassword } from '../../../src/auth/passwords'
import { consumeToken, deleteOldTokens, issueToken } from '../../../src/auth/one-time-tokens'
import { parseUntil } from '../../../src/auth/cli'
import { authJobs, cleanupAuth } from '../../../src/auth/jobs'
import { createSession } from '../../../src/auth/session'
import { rateLimited } from '../../../src/auth/limits'
import { grantPlan, setRole, startAccess, accessInfoFor } from '../../../src/access/service'
import { userAccess, users } from '../../../src/db/schema'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

describe('passwordProblem', () => {
  const cases: [string, string | null][] = [
    ['', 'Password must be at least 8 characters long'],
    ['1234567', 'Password must be at least 8 characters long'],
    ['12345678', 'This password is too common: choose one that is harder to guess.'],
    ['QwertyUI', 'This password is too common: choose one that is harder to guess.'],
    ['7 blue herons', null],
    ['x'.repeat(256), null],
    ['x'.repeat(257), 'Password must be at most 256 characters long'],
    [' '.repeat(8), 'Password cannot be only spaces'],
    [' \t'.repeat(6), 'Password cannot be only spaces'],
    ['  pass phrase  ', null],
  ]
  for (const [pw, want] of cases)
    test(`${JSON.stringify(pw).slice(0, 20)} (${pw.length} characters) → ${want ?? 'ok'}`, () => expect(passwordProblem(pw)).toBe(want))
})

describe('verifyPassword', () => {
  test('argon2id hashes verify; a missing hash is false after the same work; a broken hash is false', async () => {
    const hash = await hashPassword('right-one')
    expect(hash).toStartWith('$argon2id$')
    expect(await verifyPassword('right-one', hash)).toBe(true)
    expect(await verifyPassword('wrong-one', hash)).toBe(false)
    expect(await verifyPassword('right-one', null)).toBe(false)
    expect(await verifyPassword('right-one', 'not-a-hash')).toBe(false)
  })
})

describe('rateLimited', () => {
  const cases: [number, string][] = [
    [1, 'Too many attempts. Please try again in 1 minute.'],
    [61, 'Too many attempts. Please try again in 2 minutes.'],
    [900, 'Too many attempts. Please try again in 15 minutes.'],
  ]
  for (const [s, msg] of cases)
    test(`${s} s → '${msg}'`, () => {
      const e = rateLimited(s)
      expect(e.message).toBe(msg)
      expect(e.status).toBe(429)
      expect(e.details).toEqual({ title: 'Too many attempts', retryAfter: s })
    })
})

describe('parseUntil', () => {
  const now = new Date('2026-03-01T12:00:00Z')
  const cases: [string, string][] = [
    ['2026-12-31', '2026-12-31T23:59:59.999Z'],
    ['30d', '2026-03-31T12:00:00.000Z'],
    ['2026-04-01T08:00:00Z', '2026-04-01T08:00:00.000Z'],
  ]
  for (const [text, iso] of cases) test(`${text} → ${iso}`, () => expect(parseUntil(text, now).toISOString()).toBe(iso))
  for (const bad of ['tomorrow', '2020-01-01', '0d']) test(`${bad} is refused`, () => expect(() => parseUntil(bad, now)).toThrow())
})

describe('with a database', () => {
  let deps: TestDeps
  let clock: ReturnType<typeof testClock>
  let userId: number
  const setup = (env: Record<string, string> = {}) => {
    clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    deps = makeDeps(env, clock)
    userId = deps.db.insert(users).values({ email: 'u@example.com' }).returning().get().id
  }
  beforeEach(() => setup())
  afterEach(() => deps.close())

  describe('one-time tokens', () => {
    test('valid once, then used; other purposes and forged tokens are invalid', async () => {
      const t = await issueToken(deps, userId, 'confirm')
      expect(await consumeToken(deps, t, 'reset')).toEqual({ status: 'invalid' })
      expect(await consumeToken(deps, t, 'confirm')).toEqual({ status: 'valid', userId })
      expect(await consumeToken(deps, t, 'confirm')).toEqual({ status: 'used', userId })
      expect(await consumeToken(deps, 'forged', 'confirm')).toEqual({ status: 'invalid' })
      expect(await consumeToken(deps, '', 'confirm')).toEqual({ status: 'invalid' })
    })
    test('confirmation links live 24 h, reset links 1 h; a new token retires the previous one', async () => {
      const c = await issueToken(deps, userId, 'confirm')
      const r1 = await issueToken(deps, userId, 'reset')
      const r2 = await issueToken(deps, userId, 'reset')
      expect((await consumeToken(deps, r1, 'reset')).status).toBe('used')
      clock.advance(60 * 60_000 + 1)
      expect((await consumeToken(deps, r2, 'reset')).status).toBe('expired')
      clock.advance(23 * 60 * 60_000 - 2)
      expect((await consumeToken(deps, c, 'confirm')).status).toBe('valid')
    })
    test('cleanup removes tokens a week past expiry', async () => {
      await issueToken(deps, userId, 'confirm')
      clock.advance(7 * 24 * 60 * 60_000)
      expect(await deleteOldTokens(deps)).toBe(0)
      clock.advance(24 * 60 * 60_000 + 1)
      expect(await deleteOldTokens(deps)).toBe(1)
    })
  })

  test('the hourly auth-cleanup job removes expired sessions and old tokens', async () => {
    expect(authJobs().find((j) => j.name === 'auth-cleanup')?.every).toBe(60 * 60 * 1000)
    await createSession(deps, userId)
    await issueToken(deps, userId, 'reset')
    clock.advance(31 * 24 * 60 * 60_000)
    await createSession(deps, userId)
    expect(await cleanupAuth(deps)).toEqual({ sessions: 1, tokens: 1 })
  })

  describe('startAccess', () => {
    const cases: { env: Record<string, string>; role: string; status: string; expires: boolean }[] = [
      { env: {}, role: 'product+gd', status: 'active', expires: false },
      { env: { DEFAULT_PLAN: 'gd' }, role: 'gd', status: 'active', expires: false },
      { env: { DEFAULT_PLAN: 'none' }, role: 'app_trial', status: 'trialing', expires: true },
      {
        env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' },
        role: 'app_trial',
        status: 'trialing',
        expires: true,
      },
    ]
    for (const c of cases)
      test(`${JSON.stringify(c.env)} → ${c.role} (${c.status})`, async () => {
        deps.close()
        setup(c.env)
        const events: number[] = []
        deps.bus.on('access.changed', (e) => events.push(e.userId))
        await startAccess(deps, userId)
        const row = deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get()!
        expect(row.role).toBe(c.role)
        expect(row.subscriptionStatus).toBe(c.status)
        expect(row.accessExpiresAt?.toISOString() ?? null).toBe(c.expires ? '2026-03-08T12:00:00.000Z' : null)
        expect(events).toEqual([userId])
      })

    test('an account that already has a role keeps it', async () => {
      await grantPlan(deps, userId, 'gd', new Date('2026-06-01T00:00:00Z'), 'admin@example.com')
      await startAccess(deps, userId)
      expect(await accessInfoFor(deps, userId)).toMatchObject({ userRole: 'gd', subscriptionStatus: 'gifted', accessExpiresAt: '2026-06-01T00:00:00.000Z' })
    })

    test('gifted access that runs out reads gifted_expired', async () => {
      await grantPlan(deps, userId, 'product', new Date('2026-03-02T00:00:00Z'), 'cli')
      clock.advance(2 * 24 * 60 * 60_000)
      expect(await accessInfoFor(deps, userId)).toMatchObject({ hasAccess: false, overlayContext: 'gifted_expired' })
    })

    test('setRole app_trial runs 7 days; trial_expired has no access', async () => {
      await setRole(deps, userId, 'app_trial')
      expect(await accessInfoFor(deps, userId)).toMatchObject({ userRole: 'app_trial', daysLeft: 7 })
      await setRole(deps, userId, 'trial_expired')
      expect(await accessInfoFor(deps, userId)).toMatchObject({ userRole: 'trial_expired', hasAccess: false, overlayContext: 'app_trial_expired' })
    })
  })
})
