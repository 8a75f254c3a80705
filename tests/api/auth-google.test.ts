// Google sign-in against the fake OAuth2 provider (tests/fakes/google.ts): PKCE + state cookies,
// account creation and linking, and every failure leading to /auth/callback?error=google_failed.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { asAsync } from '../../src/db/async-sqlite'
import { authIdentities, userAccess, users } from '../../src/db/schema'
import { startFakeGoogle } from '../fakes/google'
import { call, makeApp, makeDeps, type TestDeps } from '../helpers'
import { cookieFrom, signupAndConfirm } from './auth-helpers'
import { totp } from '../../src/auth/totp'

let google: Awaited<ReturnType<typeof startFakeGoogle>>
let deps: TestDeps
let app: ReturnType<typeof makeApp>
beforeAll(async () => {
  google = await startFakeGoogle()
})
afterAll(() => google.stop())
beforeEach(async () => {
  google.fail(null)
  google.setProfile({ sub: '1000001', email: 'gina@example.com', email_verified: true, name: 'Gina Google' })
  deps = await makeDeps(google.env)
  app = makeApp(deps)
})
afterEach(() => deps.close())

/** Start at /api/auth/google, let the fake consent, and come back with the callback's cookies. */
async function signInWithGoogle(tamper: { state?: string; dropCookies?: boolean; verifier?: string } = {}) {
  const start = await call(app, 'GET', '/api/auth/google')
  expect(start.status).toBe(302)
  const cookies = start.headers.getSetCookie()
  const jar = Object.fromEntries(cookies.map((c) => c.split(';')[0]!.split('=') as [string, string]))
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' })
  const back = new URL(atProvider.headers.get('location')!)
  if (tamper.state) back.searchParams.set('state', tamper.state)
  if (tamper.verifier) jar.google_code_verifier = tamper.verifier
  const cookie = tamper.dropCookies
    ? undefined
    : Object.entries(jar)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ')
  const done = await call(app, 'GET', back.pathname + back.search, { cookie })
  return { start, cookies, back, done, session: cookieFrom(done) }
}

describe('Google sign-in', () => {
  test('the start redirects to the provider with PKCE S256, state and the callback URL, in 10-minute HttpOnly cookies', async () => {
    const { start, cookies } = await signInWithGoogle()
    const url = new URL(start.headers.get('location')!)
    expect(url.origin + url.pathname).toBe(google.env.GOOGLE_AUTH_URL)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/google/callback')
    expect(url.searchParams.get('scope')).toBe('openid profile email')
    for (const name of ['google_oauth_state', 'google_code_verifier']) {
      const c = cookies.find((c) => c.startsWith(name + '='))!
      expect(c).toContain('HttpOnly')
      expect(c).toContain('Max-Age=600')
      expect(c).toContain('SameSite=Lax')
    }
    expect(cookies.find((c) => c.startsWith('google_oauth_state='))).toContain(`=${url.searchParams.get('state')};`)
  })

  test('a new Google user gets a confirmed account with access, a linked identity and a session, and lands on /auth/callback', async () => {
    const { done, session } = await signInWithGoogle()
    expect(done.headers.get('location')).toBe('/auth/callback')
    expect(session).not.toBeNull()
    expect(
      done.headers
        .getSetCookie()
        .filter((c) => c.startsWith('google_'))
        .every((c) => c.includes('Max-Age=0')),
    ).toBe(true)
    const me = await call(app, 'GET', '/api/me', { cookie: session! })
    expect(me.body.user).toMatchObject({ email: 'gina@example.com', name: 'Gina Google', hasPassword: false, providers: ['google'] })
    expect(me.body.user.emailConfirmedAt).not.toBeNull()
    expect(me.body.access.hasAccess).toBe(true)
    expect(google.state.tokenRequests.at(-1)).toEqual({ ok: true })
  })

  test('a two-factor account is not signed in by Google alone: a code on /login finishes it (POST /api/auth/2fa)', async () => {
    const first = await signInWithGoogle()
    const start = await call(app, 'POST', '/api/me/2fa', { cookie: first.session! })
    // the codes of the server's (frozen test) clock: Date.now() drifts from it and, across a 30 s step, made this flaky
    const now = deps.now().getTime()
    await call(app, 'POST', '/api/me/2fa/enable', { cookie: first.session!, json: { code: totp(start.body.secret, now) } })
    const second = await signInWithGoogle()
    expect(second.done.headers.get('location')).toBe('/login?step=2fa')
    expect(second.session).toBeNull()
    const pending = second.done.headers
      .getSetCookie()
      .find((c) => c.startsWith('dibs_2fa='))!
      .split(';')[0]!
    expect((await call(app, 'POST', '/api/auth/2fa', { json: { code: totp(start.body.secret, now) } })).body.error.code).toBe('TWO_FACTOR_EXPIRED')
    expect((await call(app, 'POST', '/api/auth/2fa', { cookie: pending, json: {} })).body.error.code).toBe('TOTP_REQUIRED')
    expect((await call(app, 'POST', '/api/auth/2fa', { cookie: pending, json: { code: '123456' } })).body.error.code).toBe('INVALID_TOTP')
    const done = await call(app, 'POST', '/api/auth/2fa', { cookie: pending, json: { code: totp(start.body.secret, now + 30_000) } })
    expect(done.status).toBe(200)
    expect(cookieFrom(done)).not.toBeNull()
    expect(done.body.user.email).toBe('gina@example.com')
  })

  test('signing in again finds the same account by its Google id, even after the Google email changes', async () => {
    const first = await signInWithGoogle()
    google.setProfile({ email: 'gina.new@example.com' })
    const second = await signInWithGoogle()
    const a = (await call(app, 'GET', '/api/me', { cookie: first.session! })).body.user.id
    const b = (await call(app, 'GET', '/api/me', { cookie: second.session! })).body.user.id
    expect(b).toBe(a)
    expect(await asAsync(deps.db).select().from(users)).toHaveLength(1)
  })

  test('a verified Google email that matches an existing account is linked to it', async () => {
    await signupAndConfirm(app, deps, 'gina@example.com', 'her-password')
    const { session } = await signInWithGoogle()
    const me = (await call(app, 'GET', '/api/me', { cookie: session! })).body.user
    expect(me).toMatchObject({ email: 'gina@example.com', hasPassword: true, providers: ['google'] })
    expect(await asAsync(deps.db).select().from(users)).toHaveLength(1)
  })

  test('linking to a never-confirmed account drops the unproven password (someone else may have set it)', async () => {
    await call(app, 'POST', '/api/auth/signup', { json: { name: 'Squatter', email: 'gina@example.com', password: 'squatter-password' } })
    const { session } = await signInWithGoogle()
    expect((await call(app, 'GET', '/api/me', { cookie: session! })).body.user.hasPassword).toBe(false)
    expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'gina@example.com', password: 'squatter-password' } })).status).toBe(401)
  })

  const failures: { name: string; setup?: () => void; tamper?: Parameters<typeof signInWithGoogle>[0] }[] = [
    { name: 'state mismatch', tamper: { state: 'attacker-state' } },
    { name: 'missing state and verifier cookies', tamper: { dropCookies: true } },
    { name: 'a wrong PKCE verifier (token endpoint refuses)', tamper: { verifier: 'wrong-verifier-wrong-verifier-wrong-verifier-123' } },
    { name: 'token endpoint failure', setup: () => google.fail('token_error') },
    { name: 'userinfo failure', setup: () => google.fail('userinfo_error') },
    { name: 'user denies consent', setup: () => google.fail('deny') },
    { name: 'unverified Google email', setup: () => google.setProfile({ email_verified: false }) },
  ]
  for (const f of failures)
    test(`${f.name} → /auth/callback?error=google_failed, no session, no account`, async () => {
      f.setup?.()
      const { done, session } = await signInWithGoogle(f.tamper)
      expect(done.status).toBe(302)
      expect(done.headers.get('location')).toBe('/auth/callback?error=google_failed')
      expect(session).toBeNull()
      expect(await asAsync(deps.db).select().from(authIdentities)).toEqual([])
    })

  test('a code can be redeemed only once', async () => {
    const { back, cookies } = await signInWithGoogle()
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ')
    const replay = await call(app, 'GET', back.pathname + back.search, { cookie })
    expect(replay.headers.get('location')).toBe('/auth/callback?error=google_failed')
  })

  test('a suspended account cannot sign in with Google', async () => {
    await signInWithGoogle()
    await asAsync(deps.db).update(users).set({ bannedAt: new Date() })
    const { done } = await signInWithGoogle()
    expect(done.headers.get('location')).toBe('/auth/callback?error=google_failed')
  })
})

describe('Google not configured', () => {
  test('the start and callback lead back with an error, and /api/config hides the button', async () => {
    const plain = await makeDeps()
    const a = makeApp(plain)
    expect((await call(a, 'GET', '/api/auth/google')).headers.get('location')).toBe('/auth/callback?error=google_not_configured')
    expect((await call(a, 'GET', '/api/auth/google/callback?code=x&state=y')).headers.get('location')).toBe('/auth/callback?error=google_failed')
    expect((await call(a, 'GET', '/api/config')).body.googleEnabled).toBe(false)
    expect((await call(app, 'GET', '/api/config')).body.googleEnabled).toBe(true)
    expect(await asAsync(deps.db).select().from(userAccess)).toEqual([])
    plain.close()
  })
})
