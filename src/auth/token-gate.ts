// `Authorization: Bearer dibs_pat_…` on /api (issue 28), checked once per request before any
// handler (src/app.ts): the route must take tokens (./token-scopes.ts), the token must be alive and
// hold the scope, and each token has its own rate limit. A passed request carries its principal to
// the `auth` macro (./plugin.ts). A Bearer request never uses the session cookie, which is why it
// may skip the Origin check: a cross-site page cannot add an Authorization header.
import type { Deps } from '../deps'
import { forbidden, unauthorized } from '../lib/errors'
import { RateLimiter } from '../lib/rate-limit'
import { validateAccessToken, type TokenSession } from './access-tokens'
import { rateLimited } from './limits'
import { scopeNeeded, scopeRefusal, tokenAllows } from './token-scopes'

/** Requests per token per minute. */
export const TOKEN_REQUESTS_PER_MINUTE = 120
export const TOKEN_INVALID = 'This token is invalid, expired or revoked.'

/** The Bearer credential of a request, or null (no Authorization header, or another scheme). */
export function bearerToken(request: Request): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
  return m ? m[1]! : null
}

const principals = new WeakMap<Request, TokenSession>()

/** The principal the gate found for this request (null: not a Bearer request, or refused). */
export function tokenSession(request: Request): TokenSession | null {
  return principals.get(request) ?? null
}

/** The gate: resolves true for a Bearer request it let through, false for any other request; throws 401/403/429. */
export function tokenGate(deps: Pick<Deps, 'db' | 'now' | 'config'>) {
  const limiter = new RateLimiter(TOKEN_REQUESTS_PER_MINUTE, 60_000, () => deps.now().getTime())
  return async (request: Request, path: string): Promise<boolean> => {
    const token = bearerToken(request)
    if (token === null) return false
    const needed = scopeNeeded(request.method, path)
    if (needed === null) throw forbidden(scopeRefusal(null, path), 'TOKEN_NOT_ALLOWED')
    const session = await validateAccessToken(deps, token)
    if (session === null) throw unauthorized(TOKEN_INVALID, 'TOKEN_INVALID')
    if (!tokenAllows(session.token.scopes, needed)) throw forbidden(scopeRefusal(needed, path), 'TOKEN_SCOPE')
    const wait = limiter.hit(String(session.token.id))
    if (wait > 0) throw rateLimited(wait, 'requests with this token')
    principals.set(request, session)
    return true
  }
}
