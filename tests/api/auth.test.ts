// Accounts over HTTP (in-process): sign-up, confirmation, resend, sign-in, sessions, logout,
// forgot/reset — as scenario tables with the spec's texts, plus the no-enumeration rules.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { count, eq, isNull } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { oneTimeTokens, sessions, userAccess, users } from '../../src/db/schema'
import { banUser } from '../../src/auth/service'
import { call, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { BILLING_ON, cookieFrom, emails, lastEmail, linkIn, loginCookie, signupAndConfirm, signupCookieFrom } from './auth-helpers'

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

let clock: ReturnType<typeof testClock>
let deps: TestDeps
let app: ReturnType<typeof makeApp>
let open = false
async function fresh(env: Record<string, string> = {}) {
  if (open) deps.close()
  open = true
  clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
  deps = await makeDeps(env, clock)
  app = makeApp(deps)
}
beforeEach(() => fresh())
afterEach(() => {
  deps.close()
  open = false
})

const access = async (email: string) =>
  (
    await asAsync(deps.db).select({ a: userAccess }).from(userAccess).innerJoin(users, eq(users.id, userAccess.userId)).where(eq(users.email, email)).limit(1)
  )[0]?.a

describe('POST /api/auth/signup', () => {
  const cases: { name: string; body: Record<string, unknown>; status: number; code?: string; message?: string }[] = [
    { name: 'all fields missing', body: {}, status: 400, message: 'All fields are required' },
    { name: 'name missing', body: { email: 'a@example.com', password: 'pass-word-1' }, status: 400, message: 'All fields are required' },
    { name: 'password blank', body: { name: 'A', email: 'a@example.com', password: '' }, status: 400, message: 'All fields are required' },
    {
      name: 'short password',
      body: { name: 'A', email: 'a@example.com', password: 'short' },
      status: 400,
      code: 'WEAK_PASSWORD',
      message: 'Password must be at least 8 characters long',
    },
    { name: 'not an email', body: { name: 'A', email: 'not-an-email', password: 'pass-word-1' }, status: 400, code: 'INVALID_EMAIL' },
    { name: 'valid', body: { name: 'A', email: 'A@Example.com ', password: 'pass-word-1' }, status: 201 },
  ]
  for (const c of cases)
    test(`${c.name} → ${c.status}${c.message ? ` '${c.message}'` : ''}`, async () => {
      const r = await call(app, 'POST', '/api/auth/signup', { json: c.body })
      expect(r.status).toBe(c.status)
      if (c.code) expect(r.body.error.code).toBe(c.code)
      if (c.message) expect(r.body.error.message).toBe(c.message)
    })

  test('sends a confirmation email (HTML + text) with a single-use link stored only hashed', async () => {
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'Pat <b>', email: 'pat@example.com', password: 'pass-word-1' } })
    const mail = (await lastEmail(deps, 'pat@example.com', 'confirm'))!
    expect(mail.subject).toContain('Confirm')
    expect(mail.text).toContain('http://localhost:3000/api/auth/confirm?token=')
    expect(mail.html).toContain('http://localhost:3000/api/auth/confirm?token=')
    expect(mail.html).toContain('Pat &lt;b&gt;')
    const token = new URL('http://x' + linkIn(mail.text)).searchParams.get('token')!
    const stored = await asAsync(deps.db).select({ id: oneTimeTokens.id }).from(oneTimeTokens)
    expect(stored.map((s) => s.id)).not.toContain(token)
    expect(stored).toHaveLength(1)
    const user = (await asAsync(deps.db).select().from(users).where(eq(users.email, 'pat@example.com')).limit(1))[0]!
    expect(user.emailConfirmedAt).toBeNull()
    expect(user.passwordHash).toStartWith('$argon2id$')
  })

  test('an email that already has an account gets the same 201 answer, and its owner a notice instead of a second account', async () => {
    await signupAndConfirm(app, deps, 'taken@example.com')
    const fresh = await call(app, 'POST', '/api/auth/signup', { json: { name: 'X', email: 'new@example.com', password: 'pass-word-1' } })
    const again = await call(app, 'POST', '/api/auth/signup', { json: { name: 'X', email: 'taken@example.com', password: 'other-password' } })
    expect(again.status).toBe(fresh.status)
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(fresh.body).sort())
    expect(again.body.message).toBe(fresh.body.message)
    expect(await asAsync(deps.db).select().from(users).where(eq(users.email, 'taken@example.com'))).toHaveLength(1)
    expect((await lastEmail(deps, 'taken@example.com'))!.kind).toBe('account_exists')
    // the original password still works
    await loginCookie(app, 'taken@example.com', 'correct horse')
  })

  test('signing up again before confirming re-sends the confirmation', async () => {
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'again@example.com', password: 'pass-word-1' } })
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'again@example.com', password: 'pass-word-1' } })
    expect((await emails(deps, 'again@example.com')).filter((m) => m.kind === 'confirm')).toHaveLength(2)
  })
})

describe('GET /api/auth/confirm', () => {
  test('a valid link confirms, signs in on this device and grants the default plan while billing is off', async () => {
    const { confirmed, cookie } = await signupAndConfirm(app, deps, 'c@example.com')
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get('location')).toBe('/email-confirmation?status=success')
    expect(cookie).not.toBeNull()
    expect(await access('c@example.com')).toMatchObject({ role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null })
    const me = await call(app, 'GET', '/api/me', { cookie: cookie! })
    expect(me.body.access).toMatchObject({ userRole: 'product+gd', hasAccess: true, statusText: 'Active' })
  })

  test('login CSRF: a link clicked in a browser that did not sign up confirms but does not sign in', async () => {
    const s = await call(app, 'POST', '/api/auth/signup', { json: { name: 'Mallory', email: 'attacker@example.com', password: 'pass-word-1' } })
    expect(signupCookieFrom(s)).toBeDefined()
    const link = linkIn((await lastEmail(deps, 'attacker@example.com', 'confirm'))!.text)
    // the victim's browser: no signup cookie, or one for another address
    const other = await call(app, 'POST', '/api/auth/signup', { json: { name: 'Vic', email: 'victim2@example.com', password: 'pass-word-1' } })
    const victim = await call(app, 'GET', link, { cookie: signupCookieFrom(other) })
    expect(victim.headers.get('location')).toBe('/email-confirmation?status=success')
    expect(cookieFrom(victim)).toBeNull()
    expect((await access('attacker@example.com'))!.role).toBe('product+gd') // confirmed all the same
    const bare = await call(app, 'GET', link)
    expect(cookieFrom(bare)).toBeNull()
  })

  test('a forged or expired signup cookie does not sign in', async () => {
    const s = await call(app, 'POST', '/api/auth/signup', { json: { name: 'P', email: 'p2@example.com', password: 'pass-word-1' } })
    const link = linkIn((await lastEmail(deps, 'p2@example.com', 'confirm'))!.text)
    const real = signupCookieFrom(s)!
    const forged = real.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
    expect(cookieFrom(await call(app, 'GET', link, { cookie: forged }))).toBeNull()
    clock.advance(3 * 60 * 60 * 1000)
    // the token itself still works (24 h), the browser's signup cookie (2 h) has expired
    const late = await call(app, 'GET', link, { cookie: real })
    expect(late.headers.get('location')).toBe('/email-confirmation?status=success')
    expect(cookieFrom(late)).toBeNull()
  })

  test('resend from this browser lets its link sign in', async () => {
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'R', email: 'r2@example.com', password: 'pass-word-1' } })
    const again = await call(app, 'POST', '/api/auth/resend', { json: { email: 'r2@example.com' } })
    const confirmed = await call(app, 'GET', linkIn((await lastEmail(deps, 'r2@example.com', 'confirm'))!.text), { cookie: signupCookieFrom(again) })
    expect(cookieFrom(confirmed)).not.toBeNull()
  })

  test('pressing Resend keeps the first link valid; once one link is used, the others read as success without signing in', async () => {
    const s = await call(app, 'POST', '/api/auth/signup', { json: { name: 'R', email: 'both@example.com', password: 'pass-word-1' } })
    const first = linkIn((await lastEmail(deps, 'both@example.com', 'confirm'))!.text)
    await call(app, 'POST', '/api/auth/resend', { json: { email: 'both@example.com' } })
    await call(app, 'POST', '/api/auth/resend', { json: { email: 'both@example.com' } })
    const [third, second] = (await emails(deps, 'both@example.com')).filter((m) => m.kind === 'confirm').map((m) => linkIn(m.text))
    expect(new Set([first, second, third]).size).toBe(3)
    // The reader opens the first email although two newer ones arrived: it confirms and signs in.
    const used = await call(app, 'GET', first, { cookie: signupCookieFrom(s) })
    expect(used.headers.get('location')).toBe('/email-confirmation?status=success')
    expect(cookieFrom(used)).not.toBeNull()
    // The other links are spent with it: success, but they sign nobody in, even with the signup cookie.
    for (const link of [second!, third!]) {
      const later = await call(app, 'GET', link, { cookie: signupCookieFrom(s) })
      expect(later.headers.get('location')).toBe('/email-confirmation?status=success')
      expect(cookieFrom(later)).toBeNull()
    }
    expect(await asAsync(deps.db).select({ n: count() }).from(oneTimeTokens).where(isNull(oneTimeTokens.usedAt))).toEqual([{ n: 0 }])
  })

  test('with billing on, confirming starts the 7-day trial (app_trial, trialing)', async () => {
    await fresh(BILLING_ON)
    const { cookie } = await signupAndConfirm(app, deps, 't@example.com')
    const a = (await access('t@example.com'))!
    expect(a).toMatchObject({ role: 'app_trial', subscriptionStatus: 'trialing' })
    expect(a.accessExpiresAt!.getTime()).toBe(clock.now().getTime() + 7 * DAY)
    const me = await call(app, 'GET', '/api/me', { cookie: cookie! })
    expect(me.body.access).toMatchObject({ userRole: 'app_trial', hasAccess: true, daysLeft: 7, statusText: 'Trial Active' })
  })

  test('DEFAULT_PLAN=none also starts the trial', async () => {
    await fresh({ DEFAULT_PLAN: 'none' })
    await signupAndConfirm(app, deps, 'n@example.com')
    expect((await access('n@example.com'))!.role).toBe('app_trial')
  })

  test('an expired trial loses access on the next request, without any job', async () => {
    await fresh(BILLING_ON)
    const { cookie } = await signupAndConfirm(app, deps, 'x@example.com')
    clock.advance(7 * DAY + 1000)
    const me = await call(app, 'GET', '/api/me', { cookie: cookie! })
    expect(me.status).toBe(200)
    expect(me.body.access).toMatchObject({
      userRole: 'trial_expired',
      hasAccess: false,
      daysLeft: 0,
      statusText: 'Trial Expired',
      overlayContext: 'app_trial_expired',
      forums: [],
    })
  })

  const statusCases: { name: string; setup: () => Promise<string>; status: string; signsIn: boolean }[] = [
    { name: 'garbage token', setup: async () => '/api/auth/confirm?token=nope', status: 'invalid', signsIn: false },
    { name: 'no token', setup: async () => '/api/auth/confirm', status: 'invalid', signsIn: false },
    {
      name: 'link older than 24 h',
      setup: async () => {
        await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'old@example.com', password: 'pass-word-1' } })
        clock.advance(24 * HOUR + 1000)
        return linkIn((await lastEmail(deps, 'old@example.com'))!.text)
      },
      status: 'expired',
      signsIn: false,
    },
    {
      name: 'second click of a used link',
      setup: async () => {
        await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'twice@example.com', password: 'pass-word-1' } })
        const link = linkIn((await lastEmail(deps, 'twice@example.com'))!.text)
        await call(app, 'GET', link)
        return link
      },
      status: 'success',
      signsIn: false,
    },
    {
      name: 'the first link after a resend (no cookie)',
      setup: async () => {
        await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'sup@example.com', password: 'pass-word-1' } })
        const link = linkIn((await lastEmail(deps, 'sup@example.com'))!.text)
        await call(app, 'POST', '/api/auth/resend', { json: { email: 'sup@example.com' } })
        return link
      },
      status: 'success',
      signsIn: false,
    },
  ]
  for (const c of statusCases)
    test(`${c.name} → /email-confirmation?status=${c.status}`, async () => {
      const r = await call(app, 'GET', await c.setup())
      expect(r.status).toBe(302)
      expect(r.headers.get('location')).toBe(`/email-confirmation?status=${c.status}`)
      expect(cookieFrom(r) !== null).toBe(c.signsIn)
    })
})

describe('POST /api/auth/resend', () => {
  test("an unknown email says 'Email address unknown' / 'Please return to the signup page and try again.'", async () => {
    const r = await call(app, 'POST', '/api/auth/resend', { json: { email: 'ghost@example.com' } })
    expect(r.status).toBe(404)
    expect(r.body.error).toEqual({ code: 'EMAIL_UNKNOWN', title: 'Email address unknown', message: 'Please return to the signup page and try again.' })
  })

  test("a pending account gets a fresh link and 'Confirmation email resent' / 'Please check your inbox and spam folder.'", async () => {
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'r@example.com', password: 'pass-word-1' } })
    const r = await call(app, 'POST', '/api/auth/resend', { json: { email: 'R@example.com' } })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ title: 'Confirmation email resent', message: 'Please check your inbox and spam folder.' })
    expect((await emails(deps, 'r@example.com')).filter((m) => m.kind === 'confirm')).toHaveLength(2)
    const confirmed = await call(app, 'GET', linkIn((await lastEmail(deps, 'r@example.com'))!.text))
    expect(confirmed.headers.get('location')).toBe('/email-confirmation?status=success')
  })

  test('a confirmed account answers like a resend but gets no email', async () => {
    await signupAndConfirm(app, deps, 'done@example.com')
    const before = (await emails(deps, 'done@example.com')).length
    const r = await call(app, 'POST', '/api/auth/resend', { json: { email: 'done@example.com' } })
    expect(r.status).toBe(200)
    expect(await emails(deps, 'done@example.com')).toHaveLength(before)
  })

  test('is rate limited per email (3 per 15 minutes) with Retry-After, so probing addresses is slow', async () => {
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'rl@example.com', password: 'pass-word-1' } })
    for (let i = 0; i < 3; i++) expect((await call(app, 'POST', '/api/auth/resend', { json: { email: 'rl@example.com' } })).status).toBe(200)
    const r = await call(app, 'POST', '/api/auth/resend', { json: { email: 'rl@example.com' } })
    expect(r.status).toBe(429)
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(r.body.error.title).toBe('Too many attempts')
  })
})

describe('POST /api/auth/login', () => {
  beforeEach(async () => {
    await signupAndConfirm(app, deps, 'user@example.com', 'right-password')
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'U', email: 'pending@example.com', password: 'right-password' } })
  })
  const INVALID = { code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials. Please check your email and password.' }
  const cases: { name: string; body: Record<string, unknown>; status: number; error?: Record<string, unknown> }[] = [
    { name: 'nothing given', body: {}, status: 400, error: { message: 'You must provide either an email or phone number and a password' } },
    {
      name: 'no password',
      body: { email: 'user@example.com' },
      status: 400,
      error: { message: 'You must provide either an email or phone number and a password' },
    },
    { name: 'unknown email', body: { email: 'nobody@example.com', password: 'right-password' }, status: 401, error: INVALID },
    { name: 'wrong password', body: { email: 'user@example.com', password: 'wrong-password' }, status: 401, error: INVALID },
    {
      name: 'unconfirmed email, right password',
      body: { email: 'pending@example.com', password: 'right-password' },
      status: 403,
      error: { code: 'EMAIL_NOT_CONFIRMED', title: 'Email not confirmed', message: 'Please check your email and confirm your account before logging in.' },
    },
    {
      name: 'unconfirmed email, wrong password (reveals nothing)',
      body: { email: 'pending@example.com', password: 'wrong-password' },
      status: 401,
      error: INVALID,
    },
    { name: 'right password, any case and spaces in the email', body: { email: ' USER@example.com', password: 'right-password' }, status: 200 },
  ]
  for (const c of cases)
    test(`${c.name} → ${c.status}`, async () => {
      const r = await call(app, 'POST', '/api/auth/login', { json: c.body })
      expect(r.status).toBe(c.status)
      if (c.error) expect(r.body.error).toMatchObject(c.error)
      if (c.status === 200) {
        expect(r.body.user.email).toBe('user@example.com')
        expect(r.body.access.hasAccess).toBe(true)
      } else expect(cookieFrom(r)).toBeNull()
    })

  test('the session cookie is HttpOnly, SameSite=Lax, not Secure over http, and only a hash is stored', async () => {
    const r = await call(app, 'POST', '/api/auth/login', { json: { email: 'user@example.com', password: 'right-password' } })
    const header = r.headers.getSetCookie().find((c) => c.startsWith('dibs_session='))!
    expect(header).toContain('HttpOnly')
    expect(header).toContain('SameSite=Lax')
    expect(header).not.toContain('Secure')
    const token = cookieFrom(r)!.split('=')[1]!
    expect(token.length).toBeGreaterThanOrEqual(43) // 256 bits, base64url
    const ids = (await asAsync(deps.db).select({ id: sessions.id }).from(sessions)).map((s) => s.id)
    expect(ids).not.toContain(token)
  })

  test('with an https APP_URL the cookie is Secure', async () => {
    await fresh({ APP_URL: 'https://dibs.example.com' })
    const s = await call(app, 'POST', '/api/auth/signup', {
      json: { name: 'S', email: 's@example.com', password: 'pass-word-1' },
      headers: { origin: 'https://dibs.example.com' },
    })
    expect(s.status).toBe(201)
    expect(s.headers.getSetCookie()[0]).toContain('; Secure')
    const confirm = await call(app, 'GET', linkIn((await lastEmail(deps, 's@example.com'))!.text), { cookie: signupCookieFrom(s) })
    expect(confirm.headers.getSetCookie()[0]).toContain('; Secure')
  })

  test('a request from another origin is refused', async () => {
    const r = await call(app, 'POST', '/api/auth/login', {
      json: { email: 'user@example.com', password: 'right-password' },
      headers: { origin: 'https://evil.example' },
    })
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('BAD_ORIGIN')
  })

  test('a suspended account cannot sign in, and its sessions end at once', async () => {
    const cookie = await loginCookie(app, 'user@example.com', 'right-password')
    const id = (await asAsync(deps.db).select().from(users).where(eq(users.email, 'user@example.com')).limit(1))[0]!.id
    await banUser(deps, id)
    expect((await call(app, 'GET', '/api/me', { cookie })).status).toBe(401)
    const r = await call(app, 'POST', '/api/auth/login', { json: { email: 'user@example.com', password: 'right-password' } })
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('ACCOUNT_SUSPENDED')
  })

  test('an ADMIN_EMAILS account is an admin', async () => {
    await fresh({ ADMIN_EMAILS: 'boss@example.com' })
    const { cookie } = await signupAndConfirm(app, deps, 'boss@example.com')
    const me = await call(app, 'GET', '/api/me', { cookie: cookie! })
    expect(me.body.access).toMatchObject({ userRole: 'admin', statusText: 'Administrator Access', termLimit: 50 })
  })
})

describe('brute force', () => {
  beforeEach(() => signupAndConfirm(app, deps, 'victim@example.com', 'right-password'))

  test('ten failures lock the account for 15 minutes with Retry-After — even the right password — then it opens again', async () => {
    for (let i = 0; i < 10; i++)
      expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'victim@example.com', password: `guess-${i}` } })).status).toBe(401)
    const locked = await call(app, 'POST', '/api/auth/login', { json: { email: 'victim@example.com', password: 'right-password' } })
    expect(locked.status).toBe(429)
    expect(locked.body.error.code).toBe('RATE_LIMITED')
    expect(locked.body.error.message).toBe('Too many sign-in attempts. Please try again in 15 minutes.')
    expect(Number(locked.headers.get('retry-after'))).toBe(15 * 60)
    clock.advance(15 * 60 * 1000 + 1)
    expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'victim@example.com', password: 'right-password' } })).status).toBe(200)
  })

  test('an unknown email is limited exactly like a known one (no enumeration through the limit)', async () => {
    const statuses = async (email: string) => {
      const out: number[] = []
      for (let i = 0; i < 11; i++) out.push((await call(app, 'POST', '/api/auth/login', { json: { email, password: `guess-${i}` } })).status)
      return out
    }
    expect(await statuses('nobody@example.com')).toEqual(await statuses('victim@example.com'))
  })

  test('one address spraying many accounts is limited per IP', async () => {
    let last = 0
    for (let i = 0; i < 51; i++) last = (await call(app, 'POST', '/api/auth/login', { json: { email: `spray${i}@example.com`, password: 'x' } })).status
    expect(last).toBe(429)
  })

  test('successful sign-ins do not count against the address (many people behind one proxy)', async () => {
    for (let i = 0; i < 55; i++)
      expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'victim@example.com', password: 'right-password' } })).status).toBe(200)
  })

  test('a success clears the account counter', async () => {
    for (let i = 0; i < 9; i++) await call(app, 'POST', '/api/auth/login', { json: { email: 'victim@example.com', password: 'bad' } })
    await loginCookie(app, 'victim@example.com', 'right-password')
    for (let i = 0; i < 9; i++)
      expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'victim@example.com', password: 'bad' } })).status).toBe(401)
  })
})

describe('sessions and logout', () => {
  let phone: string
  let laptop: string
  beforeEach(async () => {
    await signupAndConfirm(app, deps, 'multi@example.com', 'right-password')
    phone = await loginCookie(app, 'multi@example.com', 'right-password')
    laptop = await loginCookie(app, 'multi@example.com', 'right-password')
  })

  test('GET /api/auth/session answers {user} for a valid cookie and 401 otherwise', async () => {
    const r = await call(app, 'GET', '/api/auth/session', { cookie: phone })
    expect(r.status).toBe(200)
    expect(r.body.user).toMatchObject({ email: 'multi@example.com', hasPassword: true })
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect((await call(app, 'GET', '/api/auth/session')).status).toBe(401)
    expect((await call(app, 'GET', '/api/auth/session', { cookie: 'dibs_session=forged' })).status).toBe(401)
  })

  test('GET /api/auth/sessions lists every device and marks the current one', async () => {
    const r = await call(app, 'GET', '/api/auth/sessions', { cookie: phone, headers: { 'user-agent': 'x' } })
    expect(r.status).toBe(200)
    expect(r.body.sessions).toHaveLength(3) // confirmation link + two sign-ins
    expect(r.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1)
    expect((await call(app, 'GET', '/api/auth/sessions')).status).toBe(401)
  })

  test('logout (this device) refuses the old cookie and keeps the other device signed in', async () => {
    const r = await call(app, 'POST', '/api/auth/logout', { cookie: phone, json: { scope: 'local' } })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ title: 'Logged out', message: 'You have been successfully logged out.' })
    expect(r.headers.getSetCookie()[0]).toContain('Max-Age=0')
    expect((await call(app, 'GET', '/api/me', { cookie: phone })).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: laptop })).status).toBe(200)
  })

  test('logout of all devices refuses every cookie', async () => {
    await call(app, 'POST', '/api/auth/logout', { cookie: phone, json: { scope: 'global' } })
    expect((await call(app, 'GET', '/api/me', { cookie: phone })).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: laptop })).status).toBe(401)
  })

  test('logout without a session still answers 200 (sign-out ignores 401)', async () => {
    expect((await call(app, 'POST', '/api/auth/logout')).status).toBe(200)
  })

  test('DELETE /api/auth/sessions/:id signs out one other device', async () => {
    const list = (await call(app, 'GET', '/api/auth/sessions', { cookie: phone })).body.sessions as { id: string; current: boolean }[]
    for (const s of list.filter((s) => !s.current)) expect((await call(app, 'DELETE', `/api/auth/sessions/${s.id}`, { cookie: phone })).status).toBe(200)
    expect((await call(app, 'GET', '/api/me', { cookie: laptop })).status).toBe(401)
    expect((await call(app, 'GET', '/api/me', { cookie: phone })).status).toBe(200)
    expect((await call(app, 'DELETE', '/api/auth/sessions/0123456789abcdef', { cookie: phone })).status).toBe(404)
  })

  test('a session unused for 30 days expires; one used in its second half slides forward', async () => {
    clock.advance(20 * DAY)
    expect((await call(app, 'GET', '/api/me', { cookie: phone })).status).toBe(200)
    clock.advance(20 * DAY)
    expect((await call(app, 'GET', '/api/me', { cookie: phone })).status).toBe(200)
    expect((await call(app, 'GET', '/api/me', { cookie: laptop })).status).toBe(401)
  })
})

describe('forgot and reset password', () => {
  beforeEach(() => signupAndConfirm(app, deps, 'forgot@example.com', 'old-password'))

  test('forgot answers the same for a known and an unknown email; only the known one gets a link', async () => {
    const known = await call(app, 'POST', '/api/auth/forgot', { json: { email: 'forgot@example.com' } })
    const unknown = await call(app, 'POST', '/api/auth/forgot', { json: { email: 'ghost@example.com' } })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(unknown.body).toEqual(known.body)
    expect((await lastEmail(deps, 'forgot@example.com', 'reset'))!.text).toContain('http://localhost:3000/reset-password?token=')
    expect(await emails(deps, 'ghost@example.com')).toHaveLength(0)
  })

  test('reset sets the password, revokes every session, and the link works once', async () => {
    const cookie = await loginCookie(app, 'forgot@example.com', 'old-password')
    await call(app, 'POST', '/api/auth/forgot', { json: { email: 'forgot@example.com' } })
    const token = new URL('http://x' + linkIn((await lastEmail(deps, 'forgot@example.com', 'reset'))!.text)).searchParams.get('token')
    const short = await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'short' } })
    expect(short.body.error.message).toBe('Password must be at least 8 characters long')
    const ok = await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'new-password' } })
    expect(ok.status).toBe(200)
    expect((await call(app, 'GET', '/api/me', { cookie })).status).toBe(401)
    expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'forgot@example.com', password: 'old-password' } })).status).toBe(401)
    await loginCookie(app, 'forgot@example.com', 'new-password')
    const again = await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'third-password' } })
    expect(again.status).toBe(400)
    expect(again.body.error).toMatchObject({
      code: 'RESET_TOKEN_INVALID',
      message: 'This password reset link is invalid or has expired. Please request a new one.',
    })
  })

  const bad: { name: string; token: () => Promise<string> }[] = [
    { name: 'a forged token', token: async () => 'forged' },
    {
      name: 'a confirmation token used as a reset token',
      token: async () => {
        await call(app, 'POST', '/api/auth/signup', { json: { name: 'B', email: 'b@example.com', password: 'pass-word-1' } })
        return new URL('http://x' + linkIn((await lastEmail(deps, 'b@example.com'))!.text)).searchParams.get('token')!
      },
    },
  ]
  for (const c of bad)
    test(`reset with ${c.name} is refused`, async () => {
      const r = await call(app, 'POST', '/api/auth/reset', { json: { token: await c.token(), password: 'new-password' } })
      expect(r.body.error.code).toBe('RESET_TOKEN_INVALID')
    })

  test('a reset link older than an hour is refused', async () => {
    await call(app, 'POST', '/api/auth/forgot', { json: { email: 'forgot@example.com' } })
    const token = new URL('http://x' + linkIn((await lastEmail(deps, 'forgot@example.com', 'reset'))!.text)).searchParams.get('token')
    clock.advance(HOUR + 1)
    expect((await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'new-password' } })).body.error.code).toBe('RESET_TOKEN_INVALID')
  })

  test('forgot is rate limited per email', async () => {
    for (let i = 0; i < 3; i++) await call(app, 'POST', '/api/auth/forgot', { json: { email: 'forgot@example.com' } })
    expect((await call(app, 'POST', '/api/auth/forgot', { json: { email: 'forgot@example.com' } })).status).toBe(429)
  })
})
