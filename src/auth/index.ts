// Account routes (/api/auth/*): thin shells over service.ts; cookies and redirects live here.
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { authPlugin } from './plugin'
import { authLimiters, limit, loginGuard, strangerMailGate } from './limits'
import { deviceCookie, knownDevice, pendingTwoFactor, readCookie, signedUpHere, signupCookie, twoFactorCookie } from './cookies'
import { checkSecondFactor, hasTwoFactor, secondFactorInvalid, secondFactorRequired } from './two-factor'
import { confirmEmail, forgotPassword, login, normaliseEmail, resendConfirmation, resetPassword, signup, TEXT } from './service'
import { clearSessionCookie, endSessionByPrefix, invalidateSession, invalidateUserSessions, readSessionToken, userSessions, validateSession } from './session'
import { OAUTH_COOKIE_MAX_AGE, STATE_COOKIE, VERIFIER_COOKIE, finishGoogleSignIn, googleEnabled, startGoogleSignIn } from './google'
import { userForGoogleProfile } from './google-accounts'
import { accessInfoFor } from '../access/service'
import { AppError, notFound } from '../lib/errors'
import { clientIp, signIn } from './sign-in'
import { findUser, getUser, publicUser } from './users'
import {
  AuthForgotResponse,
  AuthLoginResponse,
  AuthLogoutResponse,
  AuthResendResponse,
  OkMessageResponse,
  UserResponse,
  OkResponse,
  AuthSessionsResponse,
  AuthSignupResponse,
} from './models'
import { errors, nullable, otherResponses } from '../lib/models'

function oauthCookie(deps: Deps, name: string, value: string, maxAge: number) {
  const secure = deps.config.secureCookies ? '; Secure' : ''
  return `${name}=${value}; Path=/api/auth/google; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`
}

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' })
  for (const c of cookies) headers.append('set-cookie', c)
  return new Response(null, { status: 302, headers })
}

const loose = t.Object({}, { additionalProperties: true })
const tags = ['auth']

export const authRoutes = (deps: Deps) => {
  const limits = authLimiters(deps)
  const guard = loginGuard(deps)
  const mayMail = strangerMailGate(limits)
  return new Elysia({ name: 'auth-routes' })
    .use(authPlugin(deps))
    .post(
      '/api/auth/signup',
      async ({ body, request, server, set }) => {
        limit([[limits.signupIp, clientIp(deps.config, server, request)]], 'sign-up attempts')
        await signup(deps, body as Record<string, unknown>, mayMail)
        set.status = 201
        // Only this browser's click on the emailed link signs in (no login CSRF through a forwarded link).
        set.headers['set-cookie'] = signupCookie(deps, normaliseEmail((body as { email?: unknown }).email))
        return { ok: true, email: normaliseEmail((body as { email?: unknown }).email), message: 'Please check your email to confirm your account.' }
      },
      {
        response: { 200: AuthSignupResponse, ...errors(400) },
        body: loose,
        detail: { security: [], summary: 'Create an account {name, email, password}; always 201 for a valid request (no enumeration)', tags },
      },
    )
    .post(
      '/api/auth/login',
      async ({ body, request, server, set }) => {
        const b = body as { email?: unknown; password?: unknown; code?: unknown; recoveryCode?: unknown }
        const email = normaliseEmail(b.email)
        const attempt = guard.begin({ ip: clientIp(deps.config, server, request), email, deviceId: knownDevice(deps, request, email) })
        try {
          const user = await login(deps, b)
          // Two-factor accounts: no session without a code; a wrong code counts as a failed attempt.
          const second = await checkSecondFactor(deps, user.id, b)
          if (second === 'required') {
            attempt.refund()
            throw secondFactorRequired()
          }
          if (second === 'invalid') throw secondFactorInvalid()
          attempt.succeeded()
          set.headers['set-cookie'] = [await signIn(deps, user.id, request, server, { secondFactor: second === 'ok' }), deviceCookie(deps, user.email)] as never
          return { user: await publicUser(deps, user), access: await accessInfoFor(deps, user.id) }
        } finally {
          attempt.done()
        }
      },
      {
        response: { 200: AuthLoginResponse, ...errors(400) },
        body: loose,
        detail: { security: [], summary: 'Sign in {email, password, code? | recoveryCode?}; 401 TOTP_REQUIRED when two-factor is on and no code', tags },
      },
    )
    .post(
      '/api/auth/2fa',
      async ({ body, request, server, set }) => {
        const b = body as { code?: unknown; recoveryCode?: unknown }
        const userId = pendingTwoFactor(deps, request)
        const user = userId === null ? undefined : await findUser(deps, userId)
        if (user === undefined) throw new AppError(401, 'TWO_FACTOR_EXPIRED', 'Your sign-in expired. Please sign in again.')
        const attempt = guard.begin({ ip: clientIp(deps.config, server, request), email: user.email, deviceId: knownDevice(deps, request, user.email) })
        try {
          if (user.bannedAt !== null) throw new AppError(403, 'ACCOUNT_SUSPENDED', TEXT.banned)
          const second = await checkSecondFactor(deps, user.id, b)
          if (second === 'required' || second === 'invalid') throw second === 'required' ? secondFactorRequired() : secondFactorInvalid()
          attempt.succeeded()
          set.headers['set-cookie'] = [
            await signIn(deps, user.id, request, server, { secondFactor: second === 'ok' }),
            deviceCookie(deps, user.email),
            twoFactorCookie(deps, null),
          ] as never
          return { user: await publicUser(deps, user), access: await accessInfoFor(deps, user.id) }
        } finally {
          attempt.done()
        }
      },
      {
        response: { 200: AuthLoginResponse, ...errors(400) },
        body: loose,
        detail: { security: [], summary: 'Second step of Google sign-in for two-factor accounts {code | recoveryCode}', tags },
      },
    )
    .post(
      '/api/auth/logout',
      async ({ body, request, set }) => {
        const scope = (body as { scope?: unknown } | null)?.scope === 'global' ? 'global' : 'local'
        const session = await validateSession(deps, readSessionToken(request.headers.get('cookie')))
        if (session !== null) {
          if (scope === 'global') await invalidateUserSessions(deps, session.user.id)
          else await invalidateSession(deps, session.sessionId)
        }
        set.headers['set-cookie'] = clearSessionCookie(deps)
        return { ok: true, title: 'Logged out', message: 'You have been successfully logged out.' }
      },
      {
        response: { 200: AuthLogoutResponse, ...errors(400) },
        body: t.Optional(nullable(loose)),
        detail: { security: [], summary: "Sign out {scope: 'local' (this device, default) | 'global' (all devices)}", tags },
      },
    )
    .get(
      '/api/auth/session',
      async ({ user, set }) => {
        set.headers['cache-control'] = 'no-store'
        return { user: await publicUser(deps, await getUser(deps, user.id)) }
      },
      {
        response: { 200: UserResponse, ...errors(401) },
        auth: true,
        detail: { summary: 'The signed-in user (401 when signed out): the cheap session check of the web app', tags },
      },
    )
    .get(
      '/api/auth/sessions',
      async ({ user, session }) => {
        const rows = await userSessions(deps, user.id)
        return {
          sessions: rows
            .sort((a, b) => (b.lastSeenAt ?? b.createdAt).getTime() - (a.lastSeenAt ?? a.createdAt).getTime())
            .map((s) => ({
              id: s.id.slice(0, 16),
              createdAt: s.createdAt.toISOString(),
              lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString(),
              expiresAt: s.expiresAt.toISOString(),
              userAgent: s.userAgent,
              ip: s.ip,
              current: s.id === session.sessionId,
            })),
        }
      },
      { response: { 200: AuthSessionsResponse, ...errors(401) }, auth: true, detail: { summary: 'Signed-in devices of the current user', tags } },
    )
    .delete(
      '/api/auth/sessions/:id',
      async ({ user, params }) => {
        if (!/^[0-9a-f]{16}$/.test(params.id)) throw notFound('No such session.')
        if (!(await endSessionByPrefix(deps, user.id, params.id))) throw notFound('No such session.')
        deps.bus.emit('sessions.revoked', { userId: user.id })
        return { ok: true }
      },
      { response: { 200: OkResponse, ...errors(401, 404) }, auth: true, detail: { summary: 'Sign out one device', tags } },
    )
    .get(
      '/api/auth/confirm',
      async ({ query, request, server }) => {
        const result = await confirmEmail(deps, typeof query.token === 'string' ? query.token : null)
        // Sign in only the browser that signed up for this address; any other click confirms and asks to sign in.
        // An account with two-factor on (confirmed through Google meanwhile) signs in with its code instead.
        const here =
          result.signIn &&
          result.userId !== null &&
          signedUpHere(deps, request, (await getUser(deps, result.userId)).email) &&
          !(await hasTwoFactor(deps, result.userId))
        const cookies = here ? [await signIn(deps, result.userId!, request, server), signupCookie(deps, '', 0)] : []
        return redirect(`/email-confirmation?status=${result.status}`, cookies)
      },
      {
        detail: {
          security: [],
          summary: 'Emailed confirmation link → /email-confirmation?status=success|expired|invalid; signs in only the browser that signed up',
          tags,
          responses: otherResponses({ 302: { description: 'to /email-confirmation?status=…', headers: ['location', 'set-cookie'] } }),
        },
      },
    )
    .post(
      '/api/auth/resend',
      async ({ body, request, server, set }) => {
        const email = normaliseEmail((body as { email?: unknown }).email)
        limit(
          [
            [limits.resendIp, clientIp(deps.config, server, request)],
            [limits.resendEmail, email],
          ],
          'requests',
        )
        const answer = await resendConfirmation(deps, email, mayMail)
        set.headers['set-cookie'] = signupCookie(deps, email)
        return answer
      },
      {
        response: { 200: AuthResendResponse, ...errors(400) },
        body: loose,
        detail: { security: [], summary: "Resend the confirmation email {email}; unknown email → 404 'Email address unknown'", tags },
      },
    )
    .post(
      '/api/auth/forgot',
      async ({ body, request, server }) => {
        const email = normaliseEmail((body as { email?: unknown }).email)
        limit(
          [
            [limits.forgotIp, clientIp(deps.config, server, request)],
            [limits.forgotEmail, email],
          ],
          'requests',
        )
        return await forgotPassword(deps, email)
      },
      {
        response: { 200: AuthForgotResponse, ...errors(400) },
        body: loose,
        detail: { security: [], summary: 'Email a password reset link {email}; always the same answer', tags },
      },
    )
    .post(
      '/api/auth/reset',
      async ({ body, set }) => {
        await resetPassword(deps, body as Record<string, unknown>)
        set.headers['set-cookie'] = clearSessionCookie(deps)
        return { ok: true, message: 'Your password has been updated. Please sign in.' }
      },
      {
        response: { 200: OkMessageResponse, ...errors(400) },
        body: loose,
        detail: { security: [], summary: 'Set a new password {token, password}; revokes every session', tags },
      },
    )
    .get(
      '/api/auth/google',
      () => {
        if (!googleEnabled(deps.config)) return redirect('/auth/callback?error=google_not_configured')
        const { url, state, codeVerifier } = startGoogleSignIn(deps.config)
        return redirect(url.toString(), [
          oauthCookie(deps, STATE_COOKIE, state, OAUTH_COOKIE_MAX_AGE),
          oauthCookie(deps, VERIFIER_COOKIE, codeVerifier, OAUTH_COOKIE_MAX_AGE),
        ])
      },
      {
        detail: {
          security: [],
          summary: 'Start Google sign-in (redirect to the provider; state + PKCE cookies, 10 min)',
          tags,
          responses: otherResponses({
            302: { description: "to Google's consent page, or /auth/callback?error=google_not_configured", headers: ['location', 'set-cookie'] },
          }),
        },
      },
    )
    .get(
      '/api/auth/google/callback',
      async ({ query, request, server }) => {
        const clear = [oauthCookie(deps, STATE_COOKIE, '', 0), oauthCookie(deps, VERIFIER_COOKIE, '', 0)]
        const fail = (reason: string) => {
          log.warn('google sign-in failed', { reason })
          return redirect('/auth/callback?error=google_failed', clear)
        }
        if (!googleEnabled(deps.config)) return fail('not configured')
        const state = readCookie(request, STATE_COOKIE)
        const verifier = readCookie(request, VERIFIER_COOKIE)
        if (typeof query.error === 'string') return fail(`provider error ${query.error}`)
        if (!state || !verifier || typeof query.state !== 'string' || query.state !== state) return fail('state mismatch')
        if (typeof query.code !== 'string' || !query.code) return fail('no code')
        try {
          const profile = await finishGoogleSignIn(deps.config, query.code, verifier)
          const user = await userForGoogleProfile(deps, profile)
          // Two-factor accounts finish with a code on /login (POST /api/auth/2fa), within 10 minutes.
          if (await hasTwoFactor(deps, user.id)) return redirect('/login?step=2fa', [...clear, twoFactorCookie(deps, user.id)])
          return redirect('/auth/callback', [...clear, await signIn(deps, user.id, request, server)])
        } catch (err) {
          return fail(err instanceof Error ? err.message : String(err))
        }
      },
      {
        detail: {
          security: [],
          summary: 'Google redirect target → /auth/callback (error=google_failed on failure)',
          tags,
          responses: otherResponses({ 302: { description: 'to /auth/callback (signed in, or ?error=google_failed)', headers: ['location', 'set-cookie'] } }),
        },
      },
    )
}
