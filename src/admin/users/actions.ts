// What an admin can do to an account from the Users page — everything `dibs users` does and more:
// role, gifted plan, trial extend/end, ban/unban, password-reset email, sign out everywhere,
// two-factor reset, delete, and creating an account (confirmed with a password, or invited by email).
// Plain functions over Deps; the routes (./users.ts) wrap each in an audit row. Access writes go
// through src/access/service.ts with grantedBy = the admin's email (access_history source 'admin').
import { ensureAccessRow, storedAccess } from '../../access/accounts'
import { grantPlan, setRole, startAccess, writeAccessFrom } from '../../access/service'
import { hasActiveAccess, type Role } from '../../access/rules'
import { accessStateOf } from '../../access/state'
import { banUser, forgotPassword, insertUser, isEmail, MAX_NAME_LENGTH, normaliseEmail, findUserByEmail } from '../../auth/service'
import { invalidateUserSessions } from '../../auth/session'
import { resetTwoFactor } from '../../auth/two-factor'
import { issueToken } from '../../auth/one-time-tokens'
import { hashPassword, passwordProblem } from '../../auth/passwords'
import { findUser } from '../../auth/users'
import type { User } from '../../db/schema'
import type { Deps } from '../../deps'
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors'
import { composeEmail } from '../../lib/email-layout'
import { enqueueEmail } from '../../outbox/queue'
import { removeAccount } from '../../me/service'
import type { PlanId } from '../../access/plans'

const DAY_MS = 24 * 60 * 60 * 1000
/** How long an invitation link works (a password-reset link works 1 hour; an invitation may wait in an inbox). */
export const INVITE_TTL_MS = 7 * DAY_MS

export type Admin = { id: number; email: string }
type ActionDeps = Pick<Deps, 'db' | 'now' | 'bus' | 'config'>

export const USER_TEXT = {
  notSelf: 'You cannot do this to your own account. Ask another admin.',
  adminByConfig: 'This account is an admin through ADMIN_EMAILS. Remove it from that setting to change its role.',
  confirmMismatch: "Type the account's email address to confirm the deletion.",
  banned: 'This account is banned. Unban it first.',
  noTwoFactor: 'This account has no two-factor sign-in.',
  notTrial: 'This account is not on a trial.',
  alreadyBanned: 'This account is already banned.',
  notBanned: 'This account is not banned.',
}

export async function accountOrFail(deps: Pick<Deps, 'db'>, userId: number): Promise<User> {
  const user = await findUser(deps, userId)
  if (user === undefined) throw notFound('No account with that id.', 'USER_NOT_FOUND')
  return user
}

function notSelf(admin: Admin, userId: number) {
  if (admin.id === userId) throw forbidden(USER_TEXT.notSelf, 'SELF_ACTION')
}

/** Role/tier change. Admins cannot demote themselves; ADMIN_EMAILS accounts stay admins whatever is stored. */
export async function changeRole(deps: ActionDeps, admin: Admin, userId: number, role: Role | 'none') {
  const user = await accountOrFail(deps, userId)
  if (admin.id === userId && role !== 'admin') throw forbidden(USER_TEXT.notSelf, 'SELF_ACTION')
  if (deps.config.adminEmails.includes(user.email) && role !== 'admin') throw conflict(USER_TEXT.adminByConfig, 'ADMIN_BY_CONFIG')
  const before = (await storedAccess(deps, userId))?.role ?? 'none'
  await setRole(deps, userId, role, admin.email)
  return { from: before, to: role }
}

/** Gifted access to a plan until `until` (status 'gifted'). */
export async function grantGift(deps: ActionDeps, admin: Admin, userId: number, plan: PlanId, until: Date) {
  const user = await accountOrFail(deps, userId)
  if (admin.id === userId) throw forbidden(USER_TEXT.notSelf, 'SELF_ACTION')
  if (deps.config.adminEmails.includes(user.email)) throw conflict(USER_TEXT.adminByConfig, 'ADMIN_BY_CONFIG')
  await grantPlan(deps, userId, plan, until, admin.email)
  return { plan, until: until.toISOString() }
}

/**
 * Adds days to a trial, from its current end or from now when it already ended (an expired
 * trial comes back). Only accounts whose stored role is app_trial or trial_expired.
 */
export async function extendTrial(deps: ActionDeps, admin: Admin, userId: number, days: number) {
  await accountOrFail(deps, userId)
  // The row is read in the write's transaction: a subscription or another extension committed
  // meanwhile is seen (docs/atomicity-audit.md B1).
  const until = await writeAccessFrom(deps, userId, (row) => {
    if (row === null || (row.role !== 'app_trial' && row.role !== 'trial_expired')) throw conflict(USER_TEXT.notTrial, 'NOT_TRIAL')
    const now = deps.now().getTime()
    const from = Math.max(now, row.role === 'app_trial' ? (row.accessExpiresAt?.getTime() ?? now) : now)
    const until = new Date(from + days * DAY_MS)
    return { write: { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: until, grantedBy: admin.email, source: 'admin' }, result: until }
  })
  return { days, until: until!.toISOString() }
}

/** Ends a running trial now: the account reads 'Trial Expired' and sees the plan prompt. */
export async function endTrial(deps: ActionDeps, admin: Admin, userId: number) {
  const user = await accountOrFail(deps, userId)
  // read and written in one transaction (docs/atomicity-audit.md B1)
  await writeAccessFrom(deps, userId, (row) => {
    if (row === null || row.role !== 'app_trial' || !hasActiveAccess(accessStateOf(deps, user.email, row), deps.now()))
      throw conflict(USER_TEXT.notTrial, 'NOT_TRIAL')
    return { write: { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: deps.now(), grantedBy: admin.email, source: 'admin' }, result: true }
  })
  return { endedAt: deps.now().toISOString() }
}

/** Ban: sign-in refused and every session ends at once (open tabs are signed out through their socket). */
export async function setBanned(deps: ActionDeps, admin: Admin, userId: number, banned: boolean) {
  const user = await accountOrFail(deps, userId)
  notSelf(admin, userId)
  if (banned && user.bannedAt !== null) throw conflict(USER_TEXT.alreadyBanned, 'ALREADY_BANNED')
  if (!banned && user.bannedAt === null) throw conflict(USER_TEXT.notBanned, 'NOT_BANNED')
  await banUser(deps, userId, banned)
  return { banned }
}

/** The same email as 'Forgot password?' (a link valid 1 hour). */
export async function sendPasswordReset(deps: ActionDeps, userId: number) {
  const user = await accountOrFail(deps, userId)
  if (user.bannedAt !== null) throw conflict(USER_TEXT.banned, 'BANNED')
  await forgotPassword(deps, user.email)
  return { email: user.email }
}

export async function signOutEverywhere(deps: ActionDeps, userId: number) {
  await accountOrFail(deps, userId)
  await invalidateUserSessions(deps, userId)
  return {}
}

export async function adminResetTwoFactor(deps: ActionDeps, userId: number) {
  await accountOrFail(deps, userId)
  if (!(await resetTwoFactor(deps, userId))) throw conflict(USER_TEXT.noTwoFactor, 'TWO_FACTOR_OFF')
  return {}
}

/** Deletes the account and all its rows (ON DELETE CASCADE); `confirm` must be its email. */
export async function deleteUser(deps: ActionDeps, admin: Admin, userId: number, confirm: unknown) {
  const user = await accountOrFail(deps, userId)
  notSelf(admin, userId)
  if (normaliseEmail(confirm) !== user.email) throw badRequest(USER_TEXT.confirmMismatch, 'CONFIRMATION_MISMATCH')
  await removeAccount(deps, userId)
  return { email: user.email }
}

export type NewUser = { email?: unknown; name?: unknown; password?: unknown; mode?: unknown; role?: unknown }

function inviteEmail(deps: ActionDeps, to: string, name: string, link: string) {
  const app = deps.config.appName
  return composeEmail(to, `You are invited to ${app}`, {
    appName: app,
    heading: `Welcome to ${app}`,
    blocks: [
      name ? `Hi ${name},` : 'Hi,',
      `An administrator created a ${app} account for this email address. Set a password to sign in.`,
      'This link works for 7 days and can be used once.',
      'If you did not expect this, ignore this email.',
    ],
    button: { label: 'Set Your Password', href: link },
  })
}

/**
 * 'Add user'. mode 'confirmed': with a password, signs in at once; mode 'invited': no password
 * yet, an email with a link to set one (confirming the address). `role` (optional) is set now;
 * without it a confirmed account starts like a confirmed sign-up (trial, or DEFAULT_PLAN while
 * billing is off) and an invited one when the link is used.
 */
export async function addUser(deps: ActionDeps, admin: Admin, input: NewUser, role: Role | 'none' | null) {
  const email = normaliseEmail(input.email)
  const name = typeof input.name === 'string' ? input.name.trim() : ''
  if (input.mode !== 'confirmed' && input.mode !== 'invited') throw badRequest("Please choose 'Confirmed, with a password' or 'Invite by email'.", 'VALIDATION')
  if (!email) throw badRequest('Email is required', 'VALIDATION')
  if (!isEmail(email)) throw badRequest('Please enter a valid email address.', 'INVALID_EMAIL')
  if (name.length > MAX_NAME_LENGTH) throw badRequest(`Name must be at most ${MAX_NAME_LENGTH} characters long`, 'VALIDATION')
  let passwordHash: string | null = null
  if (input.mode === 'confirmed') {
    const password = typeof input.password === 'string' ? input.password : ''
    const problem = passwordProblem(password)
    if (problem) throw badRequest(problem, 'WEAK_PASSWORD')
    passwordHash = await hashPassword(password)
  }
  if ((await findUserByEmail(deps, email)) !== undefined) throw new AppError(409, 'EMAIL_TAKEN', `An account for ${email} already exists.`)
  const now = deps.now()
  const user = await insertUser(deps, { email, name, passwordHash, emailConfirmedAt: input.mode === 'confirmed' ? now : null, createdAt: now, updatedAt: now })
  if (user === undefined) throw new AppError(409, 'EMAIL_TAKEN', `An account for ${email} already exists.`)
  if (role !== null) await setRole(deps, user.id, role, admin.email)
  else if (input.mode === 'confirmed') await startAccess(deps, user.id)
  else await ensureAccessRow(deps, user.id)
  if (input.mode === 'invited') {
    // A reset token (the /reset-password page sets the password and confirms the address), valid longer than a reset.
    const token = await issueToken(deps, user.id, 'reset', { ttlMs: INVITE_TTL_MS })
    const link = `${deps.config.appUrl}/reset-password?token=${encodeURIComponent(token)}`
    await enqueueEmail(deps, 'invite', inviteEmail(deps, email, name, link), { userId: user.id })
  }
  return { id: user.id, email, mode: input.mode as 'confirmed' | 'invited', role: role ?? null }
}
