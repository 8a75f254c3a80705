// Two-factor sign-in with TOTP (RFC 6238) and one-time recovery codes (issue 11 item 13).
//   start   → a new secret (not active yet), its otpauth:// URL and a QR code made here (uqr, SVG)
//   enable  → a current code proves the app has the secret: active, 10 recovery codes shown once
//   disable → needs the password (or, for an account without one, a current code)
//   verify  → at sign-in: a code within ±1 step whose step is newer than the last accepted one
//             (so each code signs in once), or an unused recovery code (then it is spent)
// Enabling, disabling and spending a recovery code email the owner.
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import { renderSVG } from 'uqr'
import { authFactors, recoveryCodes } from '../db/schema'
import type { Deps } from '../deps'
import { AppError, badRequest } from '../lib/errors'
import { hashToken } from '../lib/tokens'
import { enqueueEmail } from '../outbox/queue'
import { twoFactorEmail, type TwoFactorEvent } from './emails'
import { verifyPassword } from './passwords'
import { invalidateUserSessions } from './session'
import { matchStep, newSecret, otpauthUrl } from './totp'
import { getUser } from './users'
import { randomBytes } from 'node:crypto'

export const RECOVERY_CODE_COUNT = 10
const TOTP = 'totp'

export const TWO_FACTOR_TEXT = {
  required: 'Enter the 6-digit code from your authenticator app.',
  invalid: 'Invalid two-factor code. Please try again.',
  alreadyOn: 'Two-factor authentication is already on.',
  notStarted: 'Start two-factor setup first.',
  notOn: 'Two-factor authentication is not on.',
  adminRequired: 'Admins must turn on two-factor authentication (Settings → Account) before opening the admin pages.',
} as const

type TwoFactorDeps = Pick<Deps, 'db' | 'now' | 'config' | 'bus'>

function factorOf(deps: Pick<Deps, 'db'>, userId: number) {
  return deps.db
    .select()
    .from(authFactors)
    .where(and(eq(authFactors.userId, userId), eq(authFactors.factorType, TOTP)))
    .get()
}

/** Is two-factor sign-in on for this user (a verified factor)? */
export function hasTwoFactor(deps: Pick<Deps, 'db'>, userId: number): boolean {
  return factorOf(deps, userId)?.verifiedAt != null
}

function notify(deps: TwoFactorDeps, userId: number, event: TwoFactorEvent, remaining?: number) {
  const user = getUser(deps, userId)
  enqueueEmail(deps, `2fa_${event}`, twoFactorEmail(deps.config, user.email, event, `${deps.config.appUrl}/settings/account`, remaining), { userId })
}

/** Step 1: a fresh secret (replacing an unconfirmed one); nothing changes at sign-in yet. */
export function startTwoFactor(deps: TwoFactorDeps, userId: number): { secret: string; otpauthUrl: string; qrSvg: string } {
  const existing = factorOf(deps, userId)
  if (existing?.verifiedAt) throw new AppError(409, 'TWO_FACTOR_ON', TWO_FACTOR_TEXT.alreadyOn)
  const user = getUser(deps, userId)
  const secret = newSecret()
  deps.db
    .insert(authFactors)
    .values({ userId, factorType: TOTP, secret, createdAt: deps.now() })
    .onConflictDoUpdate({ target: [authFactors.userId, authFactors.factorType], set: { secret, verifiedAt: null, lastUsedStep: null, createdAt: deps.now() } })
    .run()
  const url = otpauthUrl(deps.config.appName, user.email, secret)
  return { secret, otpauthUrl: url, qrSvg: renderSVG(url, { border: 4 }) }
}

function normaliseRecovery(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

function newRecoveryCode(): string {
  // 10 characters of Crockford-like base32 without look-alikes, shown as xxxxx-xxxxx
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
  const bytes = randomBytes(10)
  const raw = [...bytes].map((b) => alphabet[b % alphabet.length]).join('')
  return `${raw.slice(0, 5)}-${raw.slice(5)}`
}

/** Step 2: a current code turns it on; returns the recovery codes (shown once, stored hashed). */
export function enableTwoFactor(deps: TwoFactorDeps, userId: number, code: unknown): { recoveryCodes: string[] } {
  const factor = factorOf(deps, userId)
  if (factor === undefined) throw badRequest(TWO_FACTOR_TEXT.notStarted, 'TWO_FACTOR_NOT_STARTED')
  if (factor.verifiedAt) throw new AppError(409, 'TWO_FACTOR_ON', TWO_FACTOR_TEXT.alreadyOn)
  const step = typeof code === 'string' ? matchStep(factor.secret, code.trim(), deps.now().getTime()) : null
  if (step === null) throw badRequest(TWO_FACTOR_TEXT.invalid, 'INVALID_TOTP')
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  deps.db.transaction((tx) => {
    tx.update(authFactors).set({ verifiedAt: deps.now(), lastUsedStep: step }).where(eq(authFactors.id, factor.id)).run()
    tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run()
    for (const c of codes)
      tx.insert(recoveryCodes)
        .values({ userId, codeHash: hashToken(normaliseRecovery(c)), createdAt: deps.now() })
        .run()
  })
  notify(deps, userId, 'enabled')
  return { recoveryCodes: codes }
}

/** Turns it off: the password proves the owner (an account without one proves it with a current code). */
export async function disableTwoFactor(deps: TwoFactorDeps, userId: number, input: { password?: unknown; code?: unknown }) {
  const factor = factorOf(deps, userId)
  if (!factor?.verifiedAt) throw badRequest(TWO_FACTOR_TEXT.notOn, 'TWO_FACTOR_OFF')
  const user = getUser(deps, userId)
  if (user.passwordHash !== null) {
    if (typeof input.password !== 'string' || !input.password) throw badRequest('Please enter your password.', 'PASSWORD_REQUIRED')
    if (!(await verifyPassword(input.password, user.passwordHash))) throw badRequest('Current password is incorrect.', 'INVALID_PASSWORD')
  } else if (!consumeTotp(deps, userId, input.code)) throw badRequest(TWO_FACTOR_TEXT.invalid, 'INVALID_TOTP')
  deps.db.transaction((tx) => {
    tx.delete(authFactors).where(eq(authFactors.userId, userId)).run()
    tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run()
  })
  notify(deps, userId, 'disabled')
}

/** Operator reset (lost phone and recovery codes): two-factor off, every session ended, the owner told. */
export function resetTwoFactor(deps: TwoFactorDeps, userId: number): boolean {
  if (factorOf(deps, userId) === undefined) return false
  deps.db.transaction((tx) => {
    tx.delete(authFactors).where(eq(authFactors.userId, userId)).run()
    tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run()
  })
  invalidateUserSessions(deps, userId)
  notify(deps, userId, 'disabled')
  return true
}

/** A current, not yet used code: accepted once (the step is recorded in the same statement). */
function consumeTotp(deps: Pick<Deps, 'db' | 'now'>, userId: number, code: unknown): boolean {
  const factor = factorOf(deps, userId)
  if (!factor?.verifiedAt || typeof code !== 'string') return false
  const step = matchStep(factor.secret, code.trim(), deps.now().getTime())
  if (step === null) return false
  const res = deps.db
    .update(authFactors)
    .set({ lastUsedStep: step })
    .where(and(eq(authFactors.id, factor.id), or(isNull(authFactors.lastUsedStep), lt(authFactors.lastUsedStep, step))))
    .run() as unknown as { changes: number }
  return res.changes === 1
}

function consumeRecoveryCode(deps: TwoFactorDeps, userId: number, code: unknown): boolean {
  if (typeof code !== 'string' || !code.trim()) return false
  const res = deps.db
    .update(recoveryCodes)
    .set({ usedAt: deps.now() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashToken(normaliseRecovery(code))), isNull(recoveryCodes.usedAt)))
    .run() as unknown as { changes: number }
  if (res.changes !== 1) return false
  const left = deps.db
    .select({ n: sql<number>`count(*)` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .get()!.n
  notify(deps, userId, 'recovery_used', left)
  return true
}

/**
 * The second step of a sign-in: 'ok', or 'required' (no code given), or 'invalid'. Accounts
 * without two-factor sign-in pass ('ok').
 */
export function checkSecondFactor(deps: TwoFactorDeps, userId: number, input: { code?: unknown; recoveryCode?: unknown }): 'ok' | 'required' | 'invalid' {
  if (!hasTwoFactor(deps, userId)) return 'ok'
  const code = typeof input.code === 'string' && input.code.trim() ? input.code : null
  const recovery = typeof input.recoveryCode === 'string' && input.recoveryCode.trim() ? input.recoveryCode : null
  if (code === null && recovery === null) return 'required'
  if (code !== null) return consumeTotp(deps, userId, code) ? 'ok' : 'invalid'
  return consumeRecoveryCode(deps, userId, recovery) ? 'ok' : 'invalid'
}

export const secondFactorRequired = () => new AppError(401, 'TOTP_REQUIRED', TWO_FACTOR_TEXT.required, { title: 'Two-factor code' })
export const secondFactorInvalid = () => new AppError(401, 'INVALID_TOTP', TWO_FACTOR_TEXT.invalid)

/** For account lists: users with two-factor on. */
export function usersWithTwoFactor(deps: Pick<Deps, 'db'>): Set<number> {
  return new Set(
    deps.db
      .select({ userId: authFactors.userId })
      .from(authFactors)
      .where(isNotNull(authFactors.verifiedAt))
      .all()
      .map((r) => r.userId),
  )
}
