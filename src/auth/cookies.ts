// Small signed cookies of the account routes (the session cookie is in session.ts):
//   - device cookie (OWASP "device cookies"): this browser has signed in to this account before;
//   - signup cookie: this browser signed up (or asked for a resend) for this email, so the emailed
//     confirmation link may sign it in;
//   - two-factor cookie: the password (or Google) step is done, a code is still owed.
// Each value is `payload.expiry.signature`, the signature an HMAC-SHA256 over purpose, payload and
// expiry with SESSION_SECRET, so a value made for one purpose never passes for another.
import { createHash, createHmac } from 'node:crypto'
import type { Deps } from '../deps'
import { randomToken, safeEqual } from '../lib/tokens'
import { cookieValue } from '../lib/cookie-header'

type Purpose = 'device' | 'signup' | 'twofa'

export const DEVICE_COOKIE_PREFIX = 'dibs_device_'
export const SIGNUP_COOKIE = 'dibs_signup'
export const TWOFA_COOKIE = 'dibs_2fa'
export const DEVICE_MAX_AGE_S = 365 * 24 * 3600
export const SIGNUP_MAX_AGE_S = 2 * 3600
export const TWOFA_MAX_AGE_S = 10 * 60

export function readCookie(request: Request, name: string): string | null {
  return cookieValue(request.headers.get('cookie'), name)
}

function mac(deps: Pick<Deps, 'config'>, purpose: Purpose, body: string): string {
  return createHmac('sha256', deps.config.secrets.sessionSecret).update(`${purpose}:${body}`).digest('base64url')
}

export function signValue(deps: Pick<Deps, 'config' | 'now'>, purpose: Purpose, payload: string, maxAgeS: number): string {
  const body = `${payload}.${Math.floor(deps.now().getTime() / 1000) + maxAgeS}`
  return `${body}.${mac(deps, purpose, body)}`
}

/** The payload of a value signed for `purpose`, or null when forged, for another purpose or expired. */
export function verifyValue(deps: Pick<Deps, 'config' | 'now'>, purpose: Purpose, value: string | null): string | null {
  if (!value) return null
  const i = value.lastIndexOf('.')
  const body = value.slice(0, i)
  if (i < 0 || !safeEqual(value.slice(i + 1), mac(deps, purpose, body))) return null
  const j = body.lastIndexOf('.')
  const expiry = Number(body.slice(j + 1))
  if (j < 0 || !Number.isFinite(expiry) || expiry * 1000 <= deps.now().getTime()) return null
  return body.slice(0, j)
}

export function cookie(deps: Pick<Deps, 'config'>, name: string, value: string, maxAgeS: number, path = '/api/auth'): string {
  const secure = deps.config.secureCookies ? '; Secure' : ''
  return `${name}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure}`
}

const emailKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 16)

// ── device cookies ───────────────────────────────────────────────────────────────────────────

/** One cookie per account a browser has signed in to; its nonce keys the device's own failure counter. */
export function deviceCookie(deps: Pick<Deps, 'config' | 'now'>, email: string): string {
  const key = emailKey(email)
  return cookie(deps, DEVICE_COOKIE_PREFIX + key, signValue(deps, 'device', `${key}-${randomToken(12)}`, DEVICE_MAX_AGE_S), DEVICE_MAX_AGE_S)
}

/** The device id (its nonce) when this browser holds a valid device cookie for `email`, else null. */
export function knownDevice(deps: Pick<Deps, 'config' | 'now'>, request: Request, email: string): string | null {
  const key = emailKey(email)
  const payload = verifyValue(deps, 'device', readCookie(request, DEVICE_COOKIE_PREFIX + key))
  return payload !== null && payload.startsWith(`${key}-`) ? payload : null
}

// ── signup cookie ────────────────────────────────────────────────────────────────────────────

/** Set on sign-up and resend; `maxAgeS` 0 clears it (after the confirmation signed in). */
export function signupCookie(deps: Pick<Deps, 'config' | 'now'>, email: string, maxAgeS = SIGNUP_MAX_AGE_S): string {
  return cookie(deps, SIGNUP_COOKIE, maxAgeS > 0 ? signValue(deps, 'signup', emailKey(email), maxAgeS) : '', maxAgeS, '/api/auth/confirm')
}

/** Did this browser sign up (or ask for a resend) for `email` within the last day? */
export function signedUpHere(deps: Pick<Deps, 'config' | 'now'>, request: Request, email: string): boolean {
  return verifyValue(deps, 'signup', readCookie(request, SIGNUP_COOKIE)) === emailKey(email)
}

// ── two-factor cookie ─────────────────────────────────────────────────────────────────────────

/** After Google sign-in of a two-factor account: who still owes a code (10 minutes); null clears it. */
export function twoFactorCookie(deps: Pick<Deps, 'config' | 'now'>, userId: number | null): string {
  return userId === null
    ? cookie(deps, TWOFA_COOKIE, '', 0)
    : cookie(deps, TWOFA_COOKIE, signValue(deps, 'twofa', String(userId), TWOFA_MAX_AGE_S), TWOFA_MAX_AGE_S)
}

export function pendingTwoFactor(deps: Pick<Deps, 'config' | 'now'>, request: Request): number | null {
  const v = verifyValue(deps, 'twofa', readCookie(request, TWOFA_COOKIE))
  return v !== null && /^\d+$/.test(v) ? Number(v) : null
}
