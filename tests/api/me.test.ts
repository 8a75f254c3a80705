// /api/me: profile + AccessInfo, name change, password change (revokes sessions), deletion.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { authIdentities, searchTerms, sessions, users } from '../../src/db/schema'
import { createSession, SESSION_COOKIE } from '../../src/auth/session'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { cookieFrom, loginCookie } from './auth-helpers'

let clock: ReturnType<typeof testClock>
let deps: TestDeps
let app: ReturnType<typeof makeApp>
let me: Awaited<ReturnType<typeof createUserWithSession>>
beforeEach(async () => {
  clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
  deps = await makeDeps({}, clock)
  app = makeApp(deps)
  me = await createUserWithSession(deps, {
    email: 'me@example.com',
    password: 'my-password',
    name: 'Me',
    role: 'app_trial',
    subscriptionStatus: 'trialing',
    accessExpiresAt: new Date(clock.now().getTime() + 36 * 3600_000),
  })
})
afterEach(() => deps.close())

describe('GET /api/me', () => {
  test('signed out → 401', async () => {
    expect((await call(app, 'GET', '/api/me')).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: `${SESSION_COOKIE}=forged` })).status).toBe(401)
  })

  test('returns the user and AccessInfo (role, access, expiry, customer id, days left rounded up, status text)', async () => {
    const r = await call(app, 'GET', '/api/me', { cookie: me.cookie })
    expect(r.status).toBe(200)
    expect(r.body.user).toMatchObject({ email: 'me@example.com', name: 'Me', hasPassword: true, providers: [] })
    expect(r.body.user.passwordHash).toBeUndefined()
    expect(r.body.access).toMatchObject({
      userRole: 'app_trial',
      hasAccess: true,
      accessExpiresAt: '2026-03-03T00:00:00.000Z',
      stripeCustomerId: null,
      daysLeft: 2,
      statusText: 'Trial Active',
      termLimit: 10,
    })
    expect(r.headers.get('cache-control')).toBe('no-store')
  })
})

describe('PATCH /api/me', () => {
  const cases: { body: Record<string, unknown>; status: number; name?: string; message?: string }[] = [
    { body: { name: '  New Name ' }, status: 200, name: 'New Name' },
    { body: { name: 'x'.repeat(101) }, status: 400, message: 'Name must be at most 100 characters long' },
    { body: { name: '' }, status: 400, message: 'Please enter your name.' },
    { body: { name: '   ' }, status: 400, message: 'Please enter your name.' },
    { body: {}, status: 400 },
    { body: { name: 42 }, status: 400 },
  ]
  for (const c of cases)
    test(`${JSON.stringify(c.body).slice(0, 40)} → ${c.status}`, async () => {
      const r = await call(app, 'PATCH', '/api/me', { cookie: me.cookie, json: c.body })
      expect(r.status).toBe(c.status)
      if (c.name) expect(r.body.user.name).toBe(c.name)
      if (c.message) expect(r.body.error.message).toBe(c.message)
    })

  test('the email cannot be changed through it', async () => {
    await call(app, 'PATCH', '/api/me', { cookie: me.cookie, json: { name: 'N', email: 'other@example.com' } })
    expect((await call(app, 'GET', '/api/me', { cookie: me.cookie })).body.user.email).toBe('me@example.com')
  })
})

describe('POST /api/me/password', () => {
  const cases: { name: string; body: Record<string, unknown>; status: number; message?: string }[] = [
    {
      name: 'wrong current password',
      body: { currentPassword: 'nope-nope', newPassword: 'new-password' },
      status: 400,
      message: 'Current password is incorrect.',
    },
    {
      name: 'short new password',
      body: { currentPassword: 'my-password', newPassword: 'short' },
      status: 400,
      message: 'Password must be at least 8 characters long',
    },
    { name: 'no current password', body: { newPassword: 'new-password' }, status: 400, message: 'Current password is incorrect.' },
  ]
  for (const c of cases)
    test(`${c.name} → ${c.status} '${c.message}'`, async () => {
      const r = await call(app, 'POST', '/api/me/password', { cookie: me.cookie, json: c.body })
      expect(r.status).toBe(c.status)
      expect(r.body.error.message).toBe(c.message!)
    })

  test('a change refuses every old cookie (this one included) and hands this device a fresh one', async () => {
    const other = await loginCookie(app, 'me@example.com', 'my-password')
    const r = await call(app, 'POST', '/api/me/password', { cookie: me.cookie, json: { currentPassword: 'my-password', newPassword: 'new-password' } })
    expect(r.status).toBe(200)
    const fresh = cookieFrom(r)!
    expect((await call(app, 'GET', '/api/me', { cookie: me.cookie })).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: other })).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: fresh })).status).toBe(200)
    expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'me@example.com', password: 'my-password' } })).status).toBe(401)
    await loginCookie(app, 'me@example.com', 'new-password')
  })
})

describe('DELETE /api/me', () => {
  test('needs the password', async () => {
    const none = await call(app, 'DELETE', '/api/me', { cookie: me.cookie })
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe('PASSWORD_REQUIRED')
    const wrong = await call(app, 'DELETE', '/api/me', { cookie: me.cookie, json: { password: 'wrong-one' } })
    expect(wrong.body.error.message).toBe('Current password is incorrect.')
    expect((await asAsync(deps.db).select().from(users).where(eq(users.id, me.userId)).limit(1))[0]).toBeDefined()
  })

  test("with the password it deletes the account and the user's data, and signs out", async () => {
    await asAsync(deps.db).insert(searchTerms).values({ userId: me.userId, category: 'wts', term: 'rmr' })
    const r = await call(app, 'DELETE', '/api/me', { cookie: me.cookie, json: { password: 'my-password' } })
    expect(r.status).toBe(200)
    expect(r.headers.getSetCookie()[0]).toContain('Max-Age=0')
    expect((await asAsync(deps.db).select().from(users).where(eq(users.id, me.userId)).limit(1))[0]).toBeUndefined()
    expect(await asAsync(deps.db).select().from(searchTerms).where(eq(searchTerms.userId, me.userId))).toEqual([])
    expect(await asAsync(deps.db).select().from(sessions).where(eq(sessions.userId, me.userId))).toEqual([])
    expect((await call(app, 'GET', '/api/me', { cookie: me.cookie })).status).toBe(401)
  })

  test('a Google-only account needs a sign-in within the last 10 minutes', async () => {
    const g = await createUserWithSession(deps, { email: 'g@example.com' })
    await asAsync(deps.db).insert(authIdentities).values({ userId: g.userId, provider: 'google', providerUserId: 'sub-1', email: 'g@example.com' })
    clock.advance(11 * 60_000)
    const stale = await call(app, 'DELETE', '/api/me', { cookie: g.cookie })
    expect(stale.status).toBe(403)
    expect(stale.body.error.code).toBe('REAUTH_REQUIRED')
    const { token } = await createSession(deps, g.userId)
    const ok = await call(app, 'DELETE', '/api/me', { cookie: `${SESSION_COOKIE}=${token}` })
    expect(ok.status).toBe(200)
  })
})
