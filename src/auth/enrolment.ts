// Turning two-factor sign-in on from a signed-in session (security review item 1, ASVS 3.3.3):
//   begin    → the password again (an account without one, Google only: a sign-in within the last
//              FRESH_SIGN_IN_MS), so whoever holds only a session cannot enrol an app of their own
//   complete → a current code turns it on; this session has now presented a code (the admin gate
//              counts it), and every other session of the account ends
import { AppError, badRequest } from '../lib/errors'
import type { Deps } from '../deps'
import { verifyPassword } from './passwords'
import { FRESH_SIGN_IN_MS, invalidateUserSessions, isFreshSignIn, markSecondFactor } from './session'
import { enableTwoFactor, startTwoFactor } from './two-factor'
import { getUser } from './users'

type EnrolDeps = Pick<Deps, 'db' | 'now' | 'config' | 'bus'>

export const REAUTH_TEXT = `Please sign in again, then turn on two-factor authentication within ${FRESH_SIGN_IN_MS / 60_000} minutes.`

export async function beginEnrolment(deps: EnrolDeps, userId: number, sessionId: string, password: unknown) {
  const user = await getUser(deps, userId)
  if (user.passwordHash !== null) {
    if (typeof password !== 'string' || !password) throw badRequest('Please enter your password.', 'PASSWORD_REQUIRED')
    if (!(await verifyPassword(password, user.passwordHash))) throw badRequest('Current password is incorrect.', 'INVALID_PASSWORD')
  } else if (!(await isFreshSignIn(deps, sessionId))) throw new AppError(403, 'REAUTH_REQUIRED', REAUTH_TEXT, { title: 'Sign in again' })
  return await startTwoFactor(deps, userId)
}

export async function completeEnrolment(deps: EnrolDeps, userId: number, sessionId: string, code: unknown) {
  const result = await enableTwoFactor(deps, userId, code)
  await markSecondFactor(deps, sessionId)
  await invalidateUserSessions(deps, userId, sessionId)
  return { ...result, message: 'Two-factor authentication is on. Other devices have been signed out.' }
}
