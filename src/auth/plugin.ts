// Request-scoped auth as a named plugin with macros: routes declare { auth: true } (a signed-in
// user) or { admin: true } (role admin, checked on the server) and receive `session`, `user`, `access`.
// { admin: 'message' } answers non-admins with that message (spec §8: the scraper and batch calls).
// A Bearer request (a personal access token, checked by ./token-gate.ts) is its token's user on
// `auth` routes and never an admin: admin routes refuse any request that carries a token.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { AppError, forbidden, unauthorized } from '../lib/errors'
import { hasTwoFactor, TWO_FACTOR_TEXT } from './two-factor'
import { readSessionToken, validateSession, type ValidSession } from './session'
import { bearerToken, TOKEN_INVALID, tokenSession } from './token-gate'
import { scopeRefusal } from './token-scopes'

/** What non-admins are told by admin routes (spec §2 Tools, §5). */
export const ADMIN_ONLY = 'This page is restricted to admin users only.'

export const authPlugin = (deps: Deps) =>
  new Elysia({ name: 'auth' }).macro({
    auth: {
      async resolve({ request }) {
        const session = await requestSession(deps, request)
        if (session === null) throw unauthorized()
        return { session, user: session.user, access: session.access }
      },
    },
    admin: (denied: true | string) => ({
      async resolve({ request }: { request: Request }) {
        const session = await adminSession(deps, request, denied === true ? ADMIN_ONLY : denied)
        return { session, user: session.user, access: session.access }
      },
    }),
  })

/**
 * The request's admin session, or 401 (none) / 403 (not an admin; or, under REQUIRE_ADMIN_2FA, an
 * account without two-factor on or a session whose sign-in presented no code).
 */
export async function adminSession(deps: Deps, request: Request, denied = ADMIN_ONLY): Promise<ValidSession> {
  if (bearerToken(request) !== null) throw forbidden(scopeRefusal(null, '/api/admin'), 'TOKEN_NOT_ALLOWED')
  const session = await validateSession(deps, readSessionToken(request.headers.get('cookie')))
  if (session === null) throw unauthorized()
  if (session.access.role !== 'admin') throw forbidden(denied)
  if (deps.config.requireAdmin2fa) {
    const title = 'Two-factor authentication required'
    if (!(await hasTwoFactor(deps, session.user.id))) throw new AppError(403, 'TWO_FACTOR_REQUIRED', TWO_FACTOR_TEXT.adminRequired, { title })
    if (!session.secondFactor) throw new AppError(403, 'TWO_FACTOR_REQUIRED', TWO_FACTOR_TEXT.adminSignInAgain, { title })
  }
  return session
}

/**
 * The request's principal: its token's (a Bearer request the gate let through; any other Bearer
 * request is refused, never read from its cookie) or its session cookie's, or null.
 */
export async function requestSession(deps: Pick<Deps, 'db' | 'now' | 'config'>, request: Request): Promise<ValidSession | null> {
  if (bearerToken(request) !== null) {
    const session = tokenSession(request)
    if (session === null) throw unauthorized(TOKEN_INVALID, 'TOKEN_INVALID')
    return session
  }
  return validateSession(deps, readSessionToken(request.headers.get('cookie')))
}
