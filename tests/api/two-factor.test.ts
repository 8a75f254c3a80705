// Issue 11 item 13: two-factor sign-in (TOTP, RFC 6238) with recovery codes, over HTTP.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { recoveryCodes } from '../../src/db/schema'
import { Elysia } from 'elysia'
import { authPlugin } from '../../src/auth/plugin'
import { base32Decode, base32Encode, hotp, totp } from '../../src/auth/totp'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { cookieFrom, emails } from './auth-helpers'

describe('TOTP (RFC 6238 appendix B, SHA-1)', () => {
  const key = new TextEncoder().encode('12345678901234567890')
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ]
  for (const [t, code] of vectors) test(`T=${t} → ${code}`, () => expect(hotp(key, Math.floor(t / 30), 8)).toBe(code))

  test('base32 round trip and the RFC 4648 alphabet', () => {
    expect(base32Encode(key)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
    expect(new TextDecoder().decode(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'))).toBe('12345678901234567890')
    expect(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082')
  })
})

let deps: TestDeps
let app: ReturnType<typeof makeApp>
let clock: ReturnType<typeof testClock>
beforeEach(async () => {
  clock = testClock(1_763_640_000_000)
  deps = await makeDeps({}, clock)
  app = makeApp(deps)
})
afterEach(() => deps.close())

const EMAIL = 'twofa@example.com'
const PASSWORD = 'right-password'

async function enrolled() {
  const u = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD })
  const start = await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: { password: PASSWORD } })
  expect(start.status).toBe(200)
  const secret: string = start.body.secret
  const on = await call(app, 'POST', '/api/me/2fa/enable', { cookie: u.cookie, json: { code: totp(secret, clock.now().getTime()) } })
  expect(on.status).toBe(200)
  clock.advance(30_000) // the enrolment code's step is spent
  return { ...u, secret, recoveryCodes: on.body.recoveryCodes as string[], start }
}

const login = (body: Record<string, unknown>) => call(app, 'POST', '/api/auth/login', { json: { email: EMAIL, password: PASSWORD, ...body } })

describe('enrolment', () => {
  test('start gives the secret, an otpauth URL and a QR code made locally; nothing is active until a code confirms it', async () => {
    const u = await createUserWithSession(deps, { email: EMAIL, password: PASSWORD })
    const start = await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: { password: PASSWORD } })
    expect(start.body.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(start.body.otpauthUrl).toBe(
      `otpauth://totp/Dibs%3A${encodeURIComponent(EMAIL)}?secret=${start.body.secret}&issuer=Dibs&algorithm=SHA1&digits=6&period=30`,
    )
    expect(start.body.qrSvg).toStartWith('<svg')
    expect((await login({})).status).toBe(200) // not active yet
    const me = await call(app, 'GET', '/api/me', { cookie: u.cookie })
    expect(me.body.user.twoFactorEnabled).toBe(false)
    expect(me.body.user.factors).toEqual([{ id: expect.any(Number), factor_type: 'totp', status: 'unverified' }])

    const wrong = await call(app, 'POST', '/api/me/2fa/enable', { cookie: u.cookie, json: { code: '000000' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.code).toBe('INVALID_TOTP')
    const on = await call(app, 'POST', '/api/me/2fa/enable', { cookie: u.cookie, json: { code: totp(start.body.secret, clock.now().getTime()) } })
    expect(on.status).toBe(200)
    expect(on.body.recoveryCodes).toHaveLength(10)
    expect(new Set(on.body.recoveryCodes).size).toBe(10)
    expect((await call(app, 'GET', '/api/me', { cookie: u.cookie })).body.user.factors[0].status).toBe('verified')
    expect((await emails(deps, EMAIL)).map((m) => m.kind)).toContain('2fa_enabled')
    // recovery codes are stored hashed only
    const stored = await asAsync(deps.db).select({ codeHash: recoveryCodes.codeHash }).from(recoveryCodes)
    expect(stored).toHaveLength(10)
    for (const c of on.body.recoveryCodes) expect(JSON.stringify(stored)).not.toContain(c.replaceAll('-', ''))
    // a second start while on is refused
    expect((await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: { password: PASSWORD } })).status).toBe(409)
  })

  test('signed out → 401', async () => {
    expect((await call(app, 'POST', '/api/me/2fa')).status).toBe(401)
  })
})

describe('sign-in with two-factor on', () => {
  test('password alone → 401 TOTP_REQUIRED and no session; with a current code → signed in', async () => {
    const { secret } = await enrolled()
    const first = await login({})
    expect(first.status).toBe(401)
    expect(first.body.error.code).toBe('TOTP_REQUIRED')
    expect(cookieFrom(first)).toBeNull()
    const ok = await login({ code: totp(secret, clock.now().getTime()) })
    expect(ok.status).toBe(200)
    expect(cookieFrom(ok)).not.toBeNull()
  })

  test('each code signs in once; the code of the previous step still works (clock drift ±1)', async () => {
    const { secret } = await enrolled()
    const code = totp(secret, clock.now().getTime())
    expect((await login({ code })).status).toBe(200)
    const again = await login({ code })
    expect(again.status).toBe(401)
    expect(again.body.error.code).toBe('INVALID_TOTP')
    clock.advance(30_000)
    expect((await login({ code: totp(secret, clock.now().getTime() - 30_000) })).status).toBe(401) // that step was used
    clock.advance(30_000)
    expect((await login({ code: totp(secret, clock.now().getTime() - 30_000) })).status).toBe(200)
    clock.advance(90_000)
    expect((await login({ code: totp(secret, clock.now().getTime() - 90_000) })).status).toBe(401) // too old
  })

  test('a wrong password with a right code is still a wrong password', async () => {
    const { secret } = await enrolled()
    const r = await call(app, 'POST', '/api/auth/login', { json: { email: EMAIL, password: 'nope-nope', code: totp(secret, clock.now().getTime()) } })
    expect(r.body.error.code).toBe('INVALID_CREDENTIALS')
  })

  test('a recovery code signs in once and the owner is told', async () => {
    const { recoveryCodes } = await enrolled()
    const code = recoveryCodes[3]!
    expect((await login({ recoveryCode: code.toLowerCase().replace('-', ' ') })).status).toBe(200)
    expect((await login({ recoveryCode: code })).status).toBe(401)
    const mail = (await emails(deps, EMAIL)).find((m) => m.kind === '2fa_recovery_used')!
    expect(mail.text).toContain('9 recovery codes left')
  })

  test('wrong codes count toward the login limits (10 per account); asking for the code does not', async () => {
    const { secret } = await enrolled()
    for (let i = 0; i < 12; i++) expect((await login({})).status).toBe(401) // TOTP_REQUIRED never locks
    for (let i = 0; i < 10; i++) expect((await login({ code: String(100000 + i) })).body.error.code).toBe('INVALID_TOTP')
    const locked = await login({ code: totp(secret, clock.now().getTime()) })
    expect(locked.status).toBe(429)
  })
})

describe('turning it off', () => {
  test('needs the password; then sign-in needs the password only, and the owner is told', async () => {
    const { cookie } = await enrolled()
    expect((await call(app, 'DELETE', '/api/me/2fa', { cookie, json: { password: 'wrong-one' } })).status).toBe(400)
    expect((await call(app, 'DELETE', '/api/me/2fa', { cookie, json: {} })).body.error.code).toBe('PASSWORD_REQUIRED')
    const off = await call(app, 'DELETE', '/api/me/2fa', { cookie, json: { password: PASSWORD } })
    expect(off.status).toBe(200)
    expect((await login({})).status).toBe(200)
    expect((await emails(deps, EMAIL)).map((m) => m.kind)).toContain('2fa_disabled')
    expect(await asAsync(deps.db).select({ n: count() }).from(recoveryCodes)).toEqual([{ n: 0 }])
  })
})

describe('REQUIRE_ADMIN_2FA', () => {
  test('admins without two-factor get 403 TWO_FACTOR_REQUIRED on admin routes; after enrolling they pass', async () => {
    deps.close()
    deps = await makeDeps({ REQUIRE_ADMIN_2FA: '1' }, clock)
    app = makeApp(deps)
    const guarded = new Elysia().use(authPlugin(deps)).get('/api/admin/probe', () => ({ ok: true }), { admin: true })
    const admin = await createUserWithSession(deps, { email: 'boss@example.com', password: PASSWORD, role: 'admin' })
    const before = await call(guarded, 'GET', '/api/admin/probe', { cookie: admin.cookie })
    expect(before.status).toBe(403)
    expect((await call(app, 'GET', '/api/config')).body.requireAdmin2fa).toBe(true)
    const start = await call(app, 'POST', '/api/me/2fa', { cookie: admin.cookie, json: { password: PASSWORD } })
    await call(app, 'POST', '/api/me/2fa/enable', { cookie: admin.cookie, json: { code: totp(start.body.secret, clock.now().getTime()) } })
    expect((await call(guarded, 'GET', '/api/admin/probe', { cookie: admin.cookie })).status).toBe(200)
  })
})
