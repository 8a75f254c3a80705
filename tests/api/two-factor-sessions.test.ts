// The second factor binds sessions (security review item 1): enrolling asks for the password again
// and ends every other session; the REQUIRE_ADMIN_2FA gate opens only for a session that presented a
// code (or a recovery code), not for any session of an account that has two-factor on.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { authFactors, sessions } from '../../src/db/schema'
import { createSession, SESSION_COOKIE } from '../../src/auth/session'
import { totp } from '../../src/auth/totp'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { cookieFrom } from './auth-helpers'

let deps: TestDeps
let app: ReturnType<typeof makeApp>
let clock: ReturnType<typeof testClock>
beforeEach(async () => {
  clock = testClock(1_763_640_000_000)
  deps = await makeDeps({ REQUIRE_ADMIN_2FA: '1' }, clock)
  app = makeApp(deps)
})
afterEach(() => deps.close())

const EMAIL = 'boss@example.com'
const PASSWORD = 'boss-password-1'
const now = () => clock.now().getTime()
/** Another password-only session of the same account (another browser, or whoever stole the password). */
const otherSession = async (userId: number) => `${SESSION_COOKIE}=${(await createSession(deps, userId)).token}`
/** An admin route (Admin → Dashboard's switches). */
const probe = (cookie: string) => call(app, 'GET', '/api/admin/settings', { cookie })

async function enrol(cookie: string) {
  const start = await call(app, 'POST', '/api/me/2fa', { cookie, json: { password: PASSWORD } })
  expect(start.status).toBe(200)
  const on = await call(app, 'POST', '/api/me/2fa/enable', { cookie, json: { code: totp(start.body.secret, now()) } })
  expect(on.status).toBe(200)
  clock.advance(30_000)
  return start.body.secret as string
}

describe('enrolment asks for the password again', () => {
  test('no password → PASSWORD_REQUIRED, a wrong one → INVALID_PASSWORD; nothing is started', async () => {
    const u = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD })
    const none = await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: {} })
    expect(none.status).toBe(400)
    expect(none.body.error).toEqual({ code: 'PASSWORD_REQUIRED', message: 'Please enter your password.' })
    const wrong = await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: { password: 'not-the-password' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toEqual({ code: 'INVALID_PASSWORD', message: 'Current password is incorrect.' })
    expect(await asAsync(deps.db).select({ n: count() }).from(authFactors)).toEqual([{ n: 0 }])
  })

  test('an account without a password (Google only) needs a sign-in within the last 10 minutes', async () => {
    const u = await createUserWithSession(deps, { email: 'google-only@example.com' })
    clock.advance(11 * 60_000)
    const stale = await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: {} })
    expect(stale.status).toBe(403)
    expect(stale.body.error.code).toBe('REAUTH_REQUIRED')
    expect(stale.body.error.message).toBe('Please sign in again, then turn on two-factor authentication within 10 minutes.')
    const fresh = await otherSession(u.userId)
    expect((await call(app, 'POST', '/api/me/2fa', { cookie: fresh, json: {} })).status).toBe(200)
  })
})

describe('enrolment ends every other session', () => {
  test('the password-only sessions signed in before are ended; the enrolling one stays', async () => {
    const u = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD })
    const older = await otherSession(u.userId)
    expect((await call(app, 'GET', '/api/me', { cookie: older })).status).toBe(200)
    const revoked: number[] = []
    deps.bus.on('sessions.revoked', (e) => revoked.push(e.userId))
    await enrol(u.cookie)
    expect((await call(app, 'GET', '/api/me', { cookie: older })).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: u.cookie })).status).toBe(200)
    expect(revoked).toContain(u.userId)
    expect(await asAsync(deps.db).select({ n: count() }).from(sessions)).toEqual([{ n: 1 }])
  })
})

describe('REQUIRE_ADMIN_2FA asks for a session that presented a code', () => {
  test('a session that never presented a code is refused although the account has two-factor on', async () => {
    const admin = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD, role: 'admin' })
    await enrol(admin.cookie)
    // the session that completed enrolment has just presented a code
    expect((await probe(admin.cookie)).status).toBe(200)
    // a session started without a code (one from before the upgrade, say) does not open the admin routes
    const codeless = await otherSession(admin.userId)
    const refused = await probe(codeless)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', message: 'Sign in again with your two-factor code to open the admin pages.' })
    // its own account still works there; /api/me says why the admin pages stay closed
    const me = await call(app, 'GET', '/api/me', { cookie: codeless })
    expect(me.body.user.twoFactorEnabled).toBe(true)
    expect(me.body.session).toEqual({ secondFactor: false })
    expect((await call(app, 'GET', '/api/me', { cookie: admin.cookie })).body.session).toEqual({ secondFactor: true })
  })

  test('signing in with the password and a code opens them, and so does a recovery code', async () => {
    const admin = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD, role: 'admin' })
    const start = await call(app, 'POST', '/api/me/2fa', { cookie: admin.cookie, json: { password: PASSWORD } })
    const on = await call(app, 'POST', '/api/me/2fa/enable', { cookie: admin.cookie, json: { code: totp(start.body.secret, now()) } })
    clock.advance(30_000)
    const withCode = await call(app, 'POST', '/api/auth/login', { json: { email: EMAIL, password: PASSWORD, code: totp(start.body.secret, now()) } })
    expect((await probe(cookieFrom(withCode)!)).status).toBe(200)
    const withRecovery = await call(app, 'POST', '/api/auth/login', { json: { email: EMAIL, password: PASSWORD, recoveryCode: on.body.recoveryCodes[0] } })
    expect((await probe(cookieFrom(withRecovery)!)).status).toBe(200)
  })

  test('the password-only session from before enrolment no longer opens them (it was ended)', async () => {
    const admin = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD, role: 'admin' })
    const stolen = await otherSession(admin.userId)
    await enrol(admin.cookie)
    expect((await probe(stolen)).status).toBe(401)
  })

  test('a session that did not present a code cannot enrol past the password check', async () => {
    const admin = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD, role: 'admin' })
    // whoever holds only the session (not the password) cannot start enrolment with their own app
    expect((await call(app, 'POST', '/api/me/2fa', { cookie: admin.cookie, json: { password: 'a-guess-1234' } })).status).toBe(400)
    expect((await probe(admin.cookie)).status).toBe(403)
  })

  test('changing the password keeps this device signed in with its code', async () => {
    const admin = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD, role: 'admin' })
    await enrol(admin.cookie)
    const changed = await call(app, 'POST', '/api/me/password', { cookie: admin.cookie, json: { currentPassword: PASSWORD, newPassword: 'another-boss-pw-2' } })
    expect(changed.status).toBe(200)
    expect((await probe(cookieFrom(changed)!)).status).toBe(200)
  })
})
