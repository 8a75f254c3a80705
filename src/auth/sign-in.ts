// Starting a session for the request's device (sign-in, sign-up confirmation, Google, password change).
import type { Config } from '../config'
import type { Deps } from '../deps'
import { clientAddress } from '../lib/ip'
import { createSession, sessionCookie } from './session'

export type ServerLike = { requestIP(r: Request): { address: string } | null } | null

/** The client's address: the socket peer, or X-Forwarded-For's client when the peer is a TRUST_PROXY proxy. */
export function clientIp(config: Pick<Config, 'trustProxy'>, server: ServerLike, request: Request): string {
  const peer = server?.requestIP(request)?.address ?? 'local'
  return clientAddress(peer, request.headers.get('x-forwarded-for'), config.trustProxy)
}

/** Starts a session for the request's device; returns the Set-Cookie value. `secondFactor`: the sign-in presented a code. */
export async function signIn(deps: Deps, userId: number, request: Request, server: ServerLike, opts: { secondFactor?: boolean } = {}): Promise<string> {
  const { token, expiresAt } = await createSession(deps, userId, {
    userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
    ip: clientIp(deps.config, server, request),
    secondFactor: opts.secondFactor === true,
  })
  return sessionCookie(deps, token, expiresAt)
}
