// Accounts: sign-up, email confirmation, resend, sign-in, forgot/reset password, ban, and the
// operator's direct creation. Plain functions over Deps (no Elysia), so routes, CLI and tests
// share them. Enumeration: signup and forgot answer the same whether or not the email has an
// account; login says the same for an unknown email and a wrong password, after the same work.
import { eq } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { users, type User } from '../db/schema'
import type { Deps } from '../deps'
import { AppError, badRequest } from '../lib/errors'
import { log } from '../lib/log'
import { enqueueEmail } from '../outbox/queue'
import { startAccess, setRole } from '../access/service'
import { ensureAccessRow } from '../access/accounts'
import { isRole } from '../access/rules'
import { accountExistsEmail, confirmationEmail, resetEmail } from './emails'
import { consumeToken, issueToken } from './one-time-tokens'
import { hashPassword, passwordProblem, verifyPassword } from './passwords'
import type { MailGate } from './limits'
import { invalidateUserSessions } from './session'
import { findUser } from './users'

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const MAX_NAME_LENGTH = 100

export const TEXT = {
  allFieldsRequired: 'All fields are required',
  credentialsRequired: 'You must provide either an email or phone number and a password',
  invalidEmail: 'Please enter a valid email address.',
  invalidCredentials: 'Invalid login credentials. Please check your email and password.',
  notConfirmedTitle: 'Email not confirmed',
  notConfirmed: 'Please check your email and confirm your account before logging in.',
  unknownEmailTitle: 'Email address unknown',
  unknownEmail: 'Please return to the signup page and try again.',
  resentTitle: 'Confirmation email resent',
  resent: 'Please check your inbox and spam folder.',
  resetInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  banned: 'This account has been suspended. Please contact support.',
} as const

export function normaliseEmail(email: unknown): string {
  return typeof email === 'string' ? email.trim().toLowerCase() : ''
}

export function isEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_RE.test(email)
}

export async function findUserByEmail(deps: OwnerDb, email: string): Promise<User | undefined> {
  const [user] = await asAsync(deps.db)
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)))
    .limit(1)
  return user
}

function link(deps: Pick<Deps, 'config'>, path: string) {
  return `${deps.config.appUrl}${path}`
}

async function sendConfirmation(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, user: User): Promise<void> {
  const token = await issueToken(deps, user.id, 'confirm')
  const url = link(deps, `/api/auth/confirm?token=${encodeURIComponent(token)}`)
  await enqueueEmail(deps, 'confirm', confirmationEmail(deps.config, user.email, user.name, url), { userId: user.id })
}

/**
 * Creates the account and emails its confirmation link. An address that already has an account gets
 * the same answer, and its owner an email (a new confirmation link, or "You already have an account").
 * `mayMail` caps those emails per recipient: over the cap nothing is sent and the answer is the same.
 */
export async function signup(
  deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>,
  input: { name?: unknown; email?: unknown; password?: unknown },
  mayMail: MailGate,
) {
  const name = typeof input.name === 'string' ? input.name.trim() : ''
  const email = normaliseEmail(input.email)
  const password = typeof input.password === 'string' ? input.password : ''
  if (!name || !email || !password) throw badRequest(TEXT.allFieldsRequired, 'VALIDATION')
  if (name.length > MAX_NAME_LENGTH) throw badRequest(`Name must be at most ${MAX_NAME_LENGTH} characters long`, 'VALIDATION')
  if (!isEmail(email)) throw badRequest(TEXT.invalidEmail, 'INVALID_EMAIL')
  const problem = passwordProblem(password)
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD')

  // Hash first in every case so an existing email costs the same time as a new one.
  const passwordHash = await hashPassword(password)
  const existing = await findUserByEmail(deps, email)
  if (existing !== undefined) {
    // Same answer as a new account; the owner hears about it by email instead (within the cap).
    if (!mayMail(existing.email)) return
    if (existing.emailConfirmedAt === null) await sendConfirmation(deps, existing)
    else
      await enqueueEmail(deps, 'account_exists', accountExistsEmail(deps.config, existing.email, link(deps, '/login'), link(deps, '/forgot-password')), {
        userId: existing.id,
      })
    return
  }
  const user = await insertUser(deps, { email, name, passwordHash, createdAt: deps.now(), updatedAt: deps.now() })
  if (user === undefined) return // a concurrent signup with the same email won the race
  if (mayMail(user.email)) await sendConfirmation(deps, user)
  log.info('account created', { userId: user.id })
}

export type ConfirmResult = { status: 'success' | 'expired' | 'invalid'; userId: number | null; signIn: boolean }

/** The emailed link: confirms once, starts the trial (or default plan); a repeat click of a used link still reads as success. */
export async function confirmEmail(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, token: string | null | undefined): Promise<ConfirmResult> {
  const check = await consumeToken(deps, token, 'confirm')
  if (check.status === 'invalid') return { status: 'invalid', userId: null, signIn: false }
  const user = await findUser(deps, check.userId)
  if (user === undefined || user.bannedAt !== null) return { status: 'invalid', userId: null, signIn: false }
  if (check.status === 'used')
    return user.emailConfirmedAt !== null ? { status: 'success', userId: user.id, signIn: false } : { status: 'invalid', userId: null, signIn: false }
  if (check.status === 'expired') return { status: user.emailConfirmedAt !== null ? 'success' : 'expired', userId: user.id, signIn: false }
  if (user.emailConfirmedAt === null)
    await asAsync(deps.db).update(users).set({ emailConfirmedAt: deps.now(), updatedAt: deps.now() }).where(eq(users.id, user.id))
  await startAccess(deps, user.id)
  return { status: 'success', userId: user.id, signIn: true }
}

/**
 * Resend (spec §5): an unknown email gets 'Email address unknown'. That names which addresses have
 * accounts, so the route is rate limited tightly; a confirmed account answers like a resend. The
 * email itself shares sign-up's cap per recipient (`mayMail`); over it, the answer is the same.
 */
export async function resendConfirmation(
  deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>,
  emailInput: unknown,
  mayMail: MailGate,
): Promise<{ title: typeof TEXT.resentTitle; message: typeof TEXT.resent }> {
  const email = normaliseEmail(emailInput)
  if (!email) throw badRequest('Email is required', 'VALIDATION')
  const user = await findUserByEmail(deps, email)
  if (user === undefined) throw new AppError(404, 'EMAIL_UNKNOWN', TEXT.unknownEmail, { title: TEXT.unknownEmailTitle })
  if (user.emailConfirmedAt === null && user.bannedAt === null && mayMail(user.email)) await sendConfirmation(deps, user)
  return { title: TEXT.resentTitle, message: TEXT.resent }
}

export async function login(deps: OwnerDb, input: { email?: unknown; password?: unknown }): Promise<User> {
  const email = normaliseEmail(input.email)
  const password = typeof input.password === 'string' ? input.password : ''
  if (!email || !password) throw badRequest(TEXT.credentialsRequired, 'VALIDATION')
  const user = await findUserByEmail(deps, email)
  const ok = await verifyPassword(password, user?.passwordHash)
  if (user === undefined || !ok) throw new AppError(401, 'INVALID_CREDENTIALS', TEXT.invalidCredentials)
  // Only a correct password learns that the account is unconfirmed or suspended.
  if (user.emailConfirmedAt === null) throw new AppError(403, 'EMAIL_NOT_CONFIRMED', TEXT.notConfirmed, { title: TEXT.notConfirmedTitle })
  if (user.bannedAt !== null) throw new AppError(403, 'ACCOUNT_SUSPENDED', TEXT.banned)
  return user
}

/** Always answers the same; a reset link goes out only when the account exists. */
export async function forgotPassword(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, emailInput: unknown): Promise<{ message: string }> {
  const email = normaliseEmail(emailInput)
  if (!email) throw badRequest('Email is required', 'VALIDATION')
  if (!isEmail(email)) throw badRequest(TEXT.invalidEmail, 'INVALID_EMAIL')
  const user = await findUserByEmail(deps, email)
  if (user !== undefined && user.bannedAt === null) {
    const token = await issueToken(deps, user.id, 'reset')
    await enqueueEmail(deps, 'reset', resetEmail(deps.config, user.email, link(deps, `/reset-password?token=${encodeURIComponent(token)}`)), {
      userId: user.id,
    })
  }
  return { message: 'If an account exists for that email, we sent a link to reset its password.' }
}

/** Sets the new password, revokes every session; the emailed link also proves the address. */
export async function resetPassword(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, input: { token?: unknown; password?: unknown }) {
  const password = typeof input.password === 'string' ? input.password : ''
  const problem = passwordProblem(password)
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD')
  const check = await consumeToken(deps, typeof input.token === 'string' ? input.token : null, 'reset')
  if (check.status !== 'valid') throw new AppError(400, 'RESET_TOKEN_INVALID', TEXT.resetInvalid)
  const user = await findUser(deps, check.userId)
  if (user === undefined || user.bannedAt !== null) throw new AppError(400, 'RESET_TOKEN_INVALID', TEXT.resetInvalid)
  const passwordHash = await hashPassword(password)
  await asAsync(deps.db)
    .update(users)
    .set({ passwordHash, emailConfirmedAt: user.emailConfirmedAt ?? deps.now(), updatedAt: deps.now() })
    .where(eq(users.id, user.id))
  if (user.emailConfirmedAt === null) await startAccess(deps, user.id)
  await invalidateUserSessions(deps, user.id)
}

/** Changes a password and revokes every session of the user. */
export async function changePassword(deps: Pick<Deps, 'db' | 'now' | 'bus'>, userId: number, current: unknown, next: unknown) {
  const newPassword = typeof next === 'string' ? next : ''
  const problem = passwordProblem(newPassword)
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD')
  const user = await findUser(deps, userId)
  if (user === undefined) throw new AppError(401, 'UNAUTHORIZED', 'Please sign in to continue.')
  // A Google-only account has no current password: it sets its first one here.
  if (user.passwordHash !== null && !(await verifyPassword(typeof current === 'string' ? current : '', user.passwordHash)))
    throw badRequest('Current password is incorrect.', 'INVALID_PASSWORD')
  const passwordHash = await hashPassword(newPassword)
  await asAsync(deps.db).update(users).set({ passwordHash, updatedAt: deps.now() }).where(eq(users.id, userId))
  await invalidateUserSessions(deps, userId)
}

/** Suspends an account (admin): its sessions end at once and sign-in is refused. */
export async function banUser(deps: OwnerDb & Pick<Deps, 'now' | 'bus'>, userId: number, banned = true): Promise<void> {
  await asAsync(deps.db)
    .update(users)
    .set({ bannedAt: banned ? deps.now() : null, updatedAt: deps.now() })
    .where(eq(users.id, userId))
  if (banned) await invalidateUserSessions(deps, userId)
  deps.bus.emit('access.changed', { userId })
}

/** A new account row, or undefined when the email is taken (Admin → Users → Add user checks first and answers 409). */
export async function insertUser(deps: OwnerDb, values: typeof users.$inferInsert): Promise<User | undefined> {
  return (await asAsync(deps.db).insert(users).values(values).onConflictDoNothing().returning())[0]
}

/** Operator creation (CLI): optionally confirmed (then access starts, or the given role is set). */
export async function createUser(
  deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>,
  input: { email: string; password: string; name?: string; role?: string; confirmed?: boolean },
): Promise<User> {
  const email = normaliseEmail(input.email)
  if (!isEmail(email)) throw badRequest(TEXT.invalidEmail, 'INVALID_EMAIL')
  const problem = passwordProblem(input.password)
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD')
  if (input.role !== undefined && input.role !== 'none' && !isRole(input.role)) throw badRequest(`Unknown role "${input.role}"`, 'VALIDATION')
  const taken = () => new AppError(409, 'EMAIL_TAKEN', `An account for ${email} already exists.`)
  if ((await findUserByEmail(deps, email)) !== undefined) throw taken()
  // The hash is awaited, so another process (the server) may create the account meanwhile: the insert
  // does nothing then, and the answer is the same 409 (docs/atomicity-audit.md D7).
  const passwordHash = await hashPassword(input.password)
  const now = deps.now()
  const [user] = await asAsync(deps.db)
    .insert(users)
    .values({ email, name: input.name?.trim() ?? '', passwordHash, emailConfirmedAt: input.confirmed ? now : null, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: users.email })
    .returning()
  if (user === undefined) throw taken()
  if (input.role !== undefined) await setRole(deps, user.id, input.role as never, 'cli')
  else if (input.confirmed) await startAccess(deps, user.id)
  else await ensureAccessRow(deps, user.id)
  return user
}
