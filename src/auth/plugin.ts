// Request-scoped auth as a named plugin with macros: routes declare { auth: true } (a signed-in
// user) or { admin: true } (role admin, checked on the server) and receive `session`, `user`, `access`.
// { admin: 'message' } answers non-admins with that message (spec §8: the scraper and batch calls).
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { AppError, forbidden, unauthorized } from '../lib/errors'
import { hasTwoFactor, TWO_FACTOR_TEXT } from './two-factor'
import { readSessionToken, validateSession } from './session'

/** What non-admins are told by admin routes (spec §2 Tools, §5). */
export const ADMIN_ONLY = 'This page is restricted to admin users only.'

export const authPlugin = (deps: Deps) =>
  new Elysia({ name: 'auth' }).macro({
    auth: {
      resolve({ request }) {
        const session = validateSession(deps, readSessionToken(request.headers.get('cookie')))
        if (session === null) throw unauthorized()
        return { session, user: session.user, access: session.access }
      },
    },
    admin: (denied: true | string) => ({
      resolve({ request }: { request: Request }) {
        const session = adminSession(deps, request, denied === true ? ADMIN_ONLY : denied)
        return { session, user: session.user, access: session.access }
      },
    }),
  })

/**
 * The request's admin session, or 401 (none) / 403 (not an admin; or, under REQUIRE_ADMIN_2FA, an
 * account without two-factor on or a session whose sign-in presented no code).
 */
export function adminSession(deps: Deps, request: Request, denied = ADMIN_ONLY) {
  const session = validateSession(deps, readSessionToken(request.headers.get('cookie')))
  if (session === null) throw unauthorized()
  if (session.access.role !== 'admin') throw forbidden(denied)
  if (deps.config.requireAdmin2fa) {
    const title = 'Two-factor authentication required'
    if (!hasTwoFactor(deps, session.user.id)) throw new AppError(403, 'TWO_FACTOR_REQUIRED', TWO_FACTOR_TEXT.adminRequired, { title })
    if (!session.secondFactor) throw new AppError(403, 'TWO_FACTOR_REQUIRED', TWO_FACTOR_TEXT.adminSignInAgain, { title })
  }
  return session
}
