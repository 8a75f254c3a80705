// Starting a session for the request's device (sign-in, sign-up confirmation, Google, password change).
import type { Deps } from '../deps'
import { createSession, sessionCookie } from './session'

export type ServerLike = { requestIP(r: Request): { address: string } | null } | null

export function clientIp(server: ServerLike, request: Request): string {
  return server?.requestIP(request)?.address ?? 'local'
}

/** Starts a session for the request's device; returns the Set-Cookie value. */
export function signIn(deps: Deps, userId: number, request: Request, server: ServerLike): string {
  const { token, expiresAt } = createSession(deps, userId, {
    userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
    ip: clientIp(server, request),
  })
  return sessionCookie(deps, token, expiresAt)
}
