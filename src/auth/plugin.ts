// Request-scoped auth as a named plugin with macros: routes declare { auth: true } (a signed-in
// user) or { admin: true } (role admin, checked on the server) and receive `session`, `user`, `access`.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { AppError, forbidden, unauthorized } from '../lib/errors'
import { hasTwoFactor, TWO_FACTOR_TEXT } from './two-factor'
import { readSessionToken, validateSession } from './session'

export const authPlugin = (deps: Deps) =>
  new Elysia({ name: 'auth' }).macro({
    auth: {
      resolve({ request }) {
        const session = validateSession(deps, readSessionToken(request.headers.get('cookie')))
        if (session === null) throw unauthorized()
        return { session, user: session.user, access: session.access }
      },
    },
    admin: {
      resolve({ request }) {
        const session = validateSession(deps, readSessionToken(request.headers.get('cookie')))
        if (session === null) throw unauthorized()
        if (session.access.role !== 'admin') throw forbidden('This page is restricted to admin users only.')
        if (deps.config.requireAdmin2fa && !hasTwoFactor(deps, session.user.id))
          throw new AppError(403, 'TWO_FACTOR_REQUIRED', TWO_FACTOR_TEXT.adminRequired, { title: 'Two-factor authentication required' })
        return { session, user: session.user, access: session.access }
      },
    },
  })
