// Signed unsubscribe tokens (HMAC-SHA256 with secrets.unsubscribeSecret) and the one action they
// allow: turning alert emails off. No session is needed, so the link works from any mail client,
// and RFC 8058 one-click POSTs from mail providers carry no cookie at all.
// Only a POST acts: link scanners and mail previews GET every link in a message, so opening the
// link (GET) checks the token and shows the /unsubscribe page, whose button POSTs.
import { createHmac } from 'node:crypto'
import { asAsync } from '../db/async-sqlite'
import { notificationPrefs } from '../db/schema'
import type { Deps } from '../deps'
import { safeEqual } from '../lib/tokens'
import { findUser } from '../auth/users'

/** Links stay valid long enough for old emails, short enough that a leaked one expires. */
export const UNSUBSCRIBE_TTL_MS = 180 * 24 * 60 * 60 * 1000

export type UnsubscribeCode = 'TOKEN_INVALID' | 'MISSING_TOKEN' | 'DB_ERROR' | 'CONFIG_ERROR'
export type UnsubscribeResult = { status: 'success' } | { status: 'error'; code: UnsubscribeCode }
type Claims = { u: number; t: 'alerts'; e: number }

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url')
}

export function createUnsubscribeToken(secret: string, userId: number, now: Date): string {
  const body = Buffer.from(JSON.stringify({ u: userId, t: 'alerts', e: now.getTime() + UNSUBSCRIBE_TTL_MS } satisfies Claims)).toString('base64url')
  return `${body}.${sign(secret, body)}`
}

export function verifyUnsubscribeToken(secret: string, token: string, now: Date): Claims | null {
  const [body, sig, extra] = token.split('.')
  if (!body || !sig || extra !== undefined || !safeEqual(sig, sign(secret, body))) return null
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims
    if (!Number.isInteger(claims.u) || claims.t !== 'alerts' || !(claims.e > now.getTime())) return null
    return claims
  } catch {
    return null
  }
}

export function unsubscribeUrl(deps: Pick<Deps, 'config' | 'now'>, userId: number): string {
  return `${deps.config.appUrl}/api/unsubscribe?token=${createUnsubscribeToken(deps.config.secrets.unsubscribeSecret, userId, deps.now())}`
}

type TokenCheck = { status: 'valid'; userId: number } | { status: 'error'; code: UnsubscribeCode }

/** Verifies the token and that its account still exists; changes nothing. Never throws. */
export async function checkUnsubscribeToken(deps: Pick<Deps, 'config' | 'db' | 'now'>, token: string | null | undefined): Promise<TokenCheck> {
  if (!token) return { status: 'error', code: 'MISSING_TOKEN' }
  const secret = deps.config.secrets.unsubscribeSecret
  if (!secret) return { status: 'error', code: 'CONFIG_ERROR' }
  const claims = verifyUnsubscribeToken(secret, token, deps.now())
  if (claims === null) return { status: 'error', code: 'TOKEN_INVALID' }
  try {
    const user = await findUser(deps, claims.u)
    return user ? { status: 'valid', userId: user.id } : { status: 'error', code: 'TOKEN_INVALID' }
  } catch {
    return { status: 'error', code: 'DB_ERROR' }
  }
}

/** The POST: verifies the token and sets the user's email frequency to none. Never throws. */
export async function unsubscribe(deps: Pick<Deps, 'config' | 'db' | 'now'>, token: string | null | undefined): Promise<UnsubscribeResult> {
  const check = await checkUnsubscribeToken(deps, token)
  if (check.status === 'error') return check
  try {
    const now = deps.now()
    await asAsync(deps.db)
      .insert(notificationPrefs)
      .values({ userId: check.userId, emailFrequency: 'none', updatedAt: now })
      .onConflictDoUpdate({ target: notificationPrefs.userId, set: { emailFrequency: 'none', updatedAt: now } })
    return { status: 'success' }
  } catch {
    return { status: 'error', code: 'DB_ERROR' }
  }
}

/** Where GET /api/unsubscribe sends the browser: the page that asks first, or the spec's error page. */
export async function unsubscribePageFor(deps: Pick<Deps, 'config' | 'db' | 'now'>, token: string | null | undefined): Promise<string> {
  const check = await checkUnsubscribeToken(deps, token)
  return check.status === 'valid' ? `/unsubscribe?token=${encodeURIComponent(token!)}` : `/unsubscribe?status=error&code=${check.code}`
}
