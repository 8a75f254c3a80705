// Two-factor sign-in with TOTP (RFC 6238) and one-time recovery codes (issue 11 item 13).
//   start   → a new secret (not active yet), its otpauth:// URL and a QR code made here (uqr, SVG)
//   enable  → a current code proves the app has the secret: active, 10 recovery codes shown once
//   disable → needs the password (or, for an account without one, a current code)
//   verify  → at sign-in: a code within ±1 step whose step is newer than the last accepted one
//             (so each code signs in once), or an unused recovery code (then it is spent)
// The routes enrol through ./enrolment.ts (the password again, other sessions ended). Secrets are
// sealed at rest (./totp-secret.ts), recovery codes hashed (./recovery-codes.ts). Enabling, disabling,
// spending a recovery code and a right code used a second time (once per burst) email the owner.
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm'
import { renderSVG } from 'uqr'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { authFactors, recoveryCodes } from '../db/schema'
import type { Deps } from '../deps'
import { AppError, badRequest } from '../lib/errors'
import { log } from '../lib/log'
import { enqueueEmail } from '../outbox/queue'
import { twoFactorEmail, type TwoFactorEvent } from './emails'
import { verifyPassword } from './passwords'
import { newRecoveryCode, RECOVERY_CODE_COUNT, spendRecoveryCode, storeRecoveryCodes, unusedRecoveryCodes, upgradeOldRecoveryCodes } from './recovery-codes'
import { invalidateUserSessions } from './session'
import { matchStep, newSecret, otpauthUrl } from './totp'
import { isSealed, openSecret, sealSecret } from './totp-secret'
import { getUser } from './users'

export { RECOVERY_CODE_COUNT }
const TOTP = 'totp'
/** A right code used again is emailed to the owner at most this often (one email per burst). */
export const REUSE_ALERT_EVERY_MS = 60 * 60 * 1000

export const TWO_FACTOR_TEXT = {
  required: 'Enter the 6-digit code from your authenticator app.',
  invalid: 'Invalid two-factor code. Please try again.',
  alreadyOn: 'Two-factor authentication is already on.',
  notStarted: 'Start two-factor setup first.',
  notOn: 'Two-factor authentication is not on.',
  adminRequired: 'Admins must turn on two-factor authentication (Settings → Account) before opening the admin pages.',
  adminSignInAgain: 'Sign in again with your two-factor code to open the admin pages.',
} as const

type TwoFactorDeps = Pick<Deps, 'db' | 'now' | 'config' | 'bus'>

async function factorOf(deps: OwnerDb, userId: number) {
  const [factor] = await asAsync(deps.db)
    .select()
    .from(authFactors)
    .where(and(eq(authFactors.userId, userId), eq(authFactors.factorType, TOTP)))
    .limit(1)
  return factor
}

/** Is two-factor sign-in on for this user (a verified factor)? */
export async function hasTwoFactor(deps: OwnerDb, userId: number): Promise<boolean> {
  return (await factorOf(deps, userId))?.verifiedAt != null
}

/** Deletes the user's factor and recovery codes, in one transaction. */
async function removeTwoFactor(deps: OwnerDb, userId: number): Promise<void> {
  await asAsync(deps.db).transaction(async (tx) => {
    await tx.delete(authFactors).where(eq(authFactors.userId, userId))
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
  })
}

/** The factor's base32 secret, or null when it does not open (TOTP_ENCRYPTION_KEY changed: no code can match). */
function secretOf(deps: Pick<Deps, 'config'>, factor: { userId: number; secret: string }): string | null {
  const secret = openSecret(deps.config.secrets.totpKey, factor.userId, factor.secret)
  if (secret === null) log.error('two-factor secret does not open with this TOTP_ENCRYPTION_KEY', { userId: factor.userId })
  return secret
}

async function notify(deps: TwoFactorDeps, userId: number, event: TwoFactorEvent, remaining?: number): Promise<void> {
  const user = await getUser(deps, userId)
  await enqueueEmail(deps, `2fa_${event}`, twoFactorEmail(deps.config, user.email, event, `${deps.config.appUrl}/settings/account`, remaining), { userId })
}

/**
 * Step 1: a fresh secret (replacing an unconfirmed one); nothing changes at sign-in yet. One statement
 * replaces only an unverified factor: a factor enabled meanwhile (another tab) stays on and the answer
 * is 409 (docs/atomicity-audit.md B4).
 */
export async function startTwoFactor(deps: TwoFactorDeps, userId: number): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
  const user = await getUser(deps, userId)
  const secret = newSecret()
  const sealed = sealSecret(deps.config.secrets.totpKey, userId, secret)
  const stored = await asAsync(deps.db)
    .insert(authFactors)
    .values({ userId, factorType: TOTP, secret: sealed, createdAt: deps.now() })
    .onConflictDoUpdate({
      target: [authFactors.userId, authFactors.factorType],
      set: { secret: sealed, verifiedAt: null, lastUsedStep: null, replayAlertedAt: null, createdAt: deps.now() },
      setWhere: isNull(authFactors.verifiedAt),
    })
    .returning({ id: authFactors.id })
  if (stored.length === 0) throw new AppError(409, 'TWO_FACTOR_ON', TWO_FACTOR_TEXT.alreadyOn)
  const url = otpauthUrl(deps.config.appName, user.email, secret)
  return { secret, otpauthUrl: url, qrSvg: renderSVG(url, { border: 4 }) }
}

/**
 * Step 2: a current code turns it on; returns the recovery codes (shown once, stored hashed). The
 * factor is turned on only if it still holds the secret the code was checked against and is still
 * off, with its codes in the same transaction (docs/atomicity-audit.md B5): a secret replaced
 * meanwhile answers "invalid code", a concurrent enable 409.
 */
export async function enableTwoFactor(deps: TwoFactorDeps, userId: number, code: unknown): Promise<{ recoveryCodes: string[] }> {
  const factor = await factorOf(deps, userId)
  if (factor === undefined) throw badRequest(TWO_FACTOR_TEXT.notStarted, 'TWO_FACTOR_NOT_STARTED')
  if (factor.verifiedAt) throw new AppError(409, 'TWO_FACTOR_ON', TWO_FACTOR_TEXT.alreadyOn)
  const secret = secretOf(deps, factor)
  const step = typeof code === 'string' && secret !== null ? matchStep(secret, code.trim(), deps.now().getTime()) : null
  if (step === null) throw badRequest(TWO_FACTOR_TEXT.invalid, 'INVALID_TOTP')
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  const enabled = await asAsync(deps.db).transaction(async (tx) => {
    const [on] = await tx
      .update(authFactors)
      .set({ verifiedAt: deps.now(), lastUsedStep: step })
      .where(and(eq(authFactors.id, factor.id), isNull(authFactors.verifiedAt), eq(authFactors.secret, factor.secret)))
      .returning({ id: authFactors.id })
    if (on === undefined) return false
    await storeRecoveryCodes({ db: tx }, userId, codes, deps.now())
    return true
  })
  if (!enabled) {
    if ((await factorOf(deps, userId))?.verifiedAt) throw new AppError(409, 'TWO_FACTOR_ON', TWO_FACTOR_TEXT.alreadyOn)
    throw badRequest(TWO_FACTOR_TEXT.invalid, 'INVALID_TOTP')
  }
  await notify(deps, userId, 'enabled')
  return { recoveryCodes: codes }
}

/** Turns it off: the password proves the owner (an account without one proves it with a current code). */
export async function disableTwoFactor(deps: TwoFactorDeps, userId: number, input: { password?: unknown; code?: unknown }) {
  const factor = await factorOf(deps, userId)
  if (!factor?.verifiedAt) throw badRequest(TWO_FACTOR_TEXT.notOn, 'TWO_FACTOR_OFF')
  const user = await getUser(deps, userId)
  if (user.passwordHash !== null) {
    if (typeof input.password !== 'string' || !input.password) throw badRequest('Please enter your password.', 'PASSWORD_REQUIRED')
    if (!(await verifyPassword(input.password, user.passwordHash))) throw badRequest('Current password is incorrect.', 'INVALID_PASSWORD')
  } else if (!(await consumeTotp(deps, userId, input.code))) throw badRequest(TWO_FACTOR_TEXT.invalid, 'INVALID_TOTP')
  await removeTwoFactor(deps, userId)
  await notify(deps, userId, 'disabled')
}

/** Operator reset (lost phone and recovery codes): two-factor off, every session ended, the owner told. */
export async function resetTwoFactor(deps: TwoFactorDeps, userId: number): Promise<boolean> {
  if ((await factorOf(deps, userId)) === undefined) return false
  await removeTwoFactor(deps, userId)
  await invalidateUserSessions(deps, userId)
  await notify(deps, userId, 'disabled')
  return true
}

/**
 * A current, not yet used code: accepted once (the step is recorded in the same statement). A right
 * code whose step was already accepted is refused the same way, and also logged and emailed (ASVS
 * 2.8.5): someone replayed a code they saw, or knows the secret.
 */
async function consumeTotp(deps: TwoFactorDeps, userId: number, code: unknown): Promise<boolean> {
  const factor = await factorOf(deps, userId)
  if (!factor?.verifiedAt || typeof code !== 'string') return false
  const secret = secretOf(deps, factor)
  const step = secret === null ? null : matchStep(secret, code.trim(), deps.now().getTime())
  if (step === null) return false
  const accepted = await asAsync(deps.db)
    .update(authFactors)
    .set({ lastUsedStep: step })
    .where(and(eq(authFactors.id, factor.id), or(isNull(authFactors.lastUsedStep), lt(authFactors.lastUsedStep, step))))
    .returning({ id: authFactors.id })
  if (accepted.length === 1) return true
  await noteReusedCode(deps, factor.id, userId, step)
  return false
}

/** Logs every reuse; emails the owner when the last such email is REUSE_ALERT_EVERY_MS old (or none was sent). */
async function noteReusedCode(deps: TwoFactorDeps, factorId: number, userId: number, step: number): Promise<void> {
  log.warn('two-factor code reused', { userId, step })
  const quietSince = new Date(deps.now().getTime() - REUSE_ALERT_EVERY_MS)
  const alerted = await asAsync(deps.db)
    .update(authFactors)
    .set({ replayAlertedAt: deps.now() })
    .where(and(eq(authFactors.id, factorId), or(isNull(authFactors.replayAlertedAt), lt(authFactors.replayAlertedAt, quietSince))))
    .returning({ id: authFactors.id })
  if (alerted.length === 1) await notify(deps, userId, 'code_reused')
}

async function consumeRecoveryCode(deps: TwoFactorDeps, userId: number, code: string): Promise<boolean> {
  if (!(await spendRecoveryCode(deps, userId, code))) return false
  await notify(deps, userId, 'recovery_used', await unusedRecoveryCodes(deps, userId))
  return true
}

/**
 * The second step of a sign-in: 'ok' (a code or recovery code was presented: the session records it),
 * 'required' (no code given) or 'invalid'. Accounts without two-factor sign-in pass as 'off'.
 */
export async function checkSecondFactor(
  deps: TwoFactorDeps,
  userId: number,
  input: { code?: unknown; recoveryCode?: unknown },
): Promise<'off' | 'ok' | 'required' | 'invalid'> {
  if (!(await hasTwoFactor(deps, userId))) return 'off'
  const code = typeof input.code === 'string' && input.code.trim() ? input.code : null
  const recovery = typeof input.recoveryCode === 'string' && input.recoveryCode.trim() ? input.recoveryCode : null
  if (code === null && recovery === null) return 'required'
  if (code !== null) return (await consumeTotp(deps, userId, code)) ? 'ok' : 'invalid'
  return (await consumeRecoveryCode(deps, userId, recovery!)) ? 'ok' : 'invalid'
}

export const secondFactorRequired = () => new AppError(401, 'TOTP_REQUIRED', TWO_FACTOR_TEXT.required, { title: 'Two-factor code' })
export const secondFactorInvalid = () => new AppError(401, 'INVALID_TOTP', TWO_FACTOR_TEXT.invalid)

/** For account lists: users with two-factor on. */
export async function usersWithTwoFactor(deps: OwnerDb): Promise<Set<number>> {
  const rows = await asAsync(deps.db).select({ userId: authFactors.userId }).from(authFactors).where(isNotNull(authFactors.verifiedAt))
  return new Set(rows.map((r) => r.userId))
}

/**
 * At startup (src/server.ts): secrets stored in clear before sealing are sealed, and old short recovery
 * codes' unsalted hashes become argon2id. Idempotent; returns what it changed.
 */
export async function upgradeTwoFactorStorage(deps: OwnerDb & Pick<Deps, 'config'>): Promise<{ secrets: number; recoveryCodes: number }> {
  const db = asAsync(deps.db)
  const clear = (await db.select({ id: authFactors.id, userId: authFactors.userId, secret: authFactors.secret }).from(authFactors)).filter(
    (f) => !isSealed(f.secret),
  )
  for (const f of clear)
    await db
      .update(authFactors)
      .set({ secret: sealSecret(deps.config.secrets.totpKey, f.userId, f.secret) })
      .where(and(eq(authFactors.id, f.id), eq(authFactors.secret, f.secret)))
  return { secrets: clear.length, recoveryCodes: await upgradeOldRecoveryCodes(deps) }
}
