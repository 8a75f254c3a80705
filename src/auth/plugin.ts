// Request-scoped auth as a named plugin with macros: routes declare { auth: true } (a signed-in
// user) or { admin: true } (role admin, checked on the server) and receive `session`, `user`, `access`.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { forbidden, unauthorized } from '../lib/errors'
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
        return { session, user: session.user, access: session.access }
      },
    },
  })
