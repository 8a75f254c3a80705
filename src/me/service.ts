// The signed-in user's own account: profile view, name change, password change, deletion.
import type { User } from '../db/schema'
import type { Deps } from '../deps'
import { AppError, badRequest } from '../lib/errors'
import { MAX_NAME_LENGTH } from '../auth/service'
import { verifyPassword } from '../auth/passwords'
import { deleteUser, getUser, renameUser } from '../auth/users'
import { isFreshSignIn } from '../auth/session'

export async function updateName(deps: Pick<Deps, 'db' | 'now'>, userId: number, nameInput: unknown): Promise<User> {
  if (typeof nameInput !== 'string') throw badRequest('Name is required', 'VALIDATION')
  const name = nameInput.trim()
  if (!name) throw badRequest('Please enter your name.', 'VALIDATION')
  if (name.length > MAX_NAME_LENGTH) throw badRequest(`Name must be at most ${MAX_NAME_LENGTH} characters long`, 'VALIDATION')
  await renameUser(deps, userId, name, deps.now())
  return await getUser(deps, userId)
}

/**
 * Deletes the account and, through ON DELETE CASCADE, every row that belongs to it (terms,
 * matches, sessions, preferences, push subscriptions, access). Needs the password, or — for an
 * account without one (Google-only) — a sign-in within the last 10 minutes.
 */
export async function deleteAccount(deps: Pick<Deps, 'db' | 'now' | 'bus'>, userId: number, sessionId: string, password: unknown) {
  const user = await getUser(deps, userId)
  if (user.passwordHash !== null) {
    if (typeof password !== 'string' || !password) throw badRequest('Please enter your password to delete your account.', 'PASSWORD_REQUIRED')
    if (!(await verifyPassword(password, user.passwordHash))) throw badRequest('Current password is incorrect.', 'INVALID_PASSWORD')
  } else {
    if (!(await isFreshSignIn(deps, sessionId)))
      throw new AppError(403, 'REAUTH_REQUIRED', 'Please sign in again, then delete your account within 10 minutes.', { title: 'Sign in again' })
  }
  await removeAccount(deps, userId)
}

/** Deletes the account and all its rows (ON DELETE CASCADE); its open sockets are closed. Also the admin Users page's delete. */
export async function removeAccount(deps: Pick<Deps, 'db' | 'bus'>, userId: number): Promise<void> {
  await deleteUser(deps, userId)
  deps.bus.emit('sessions.revoked', { userId })
}
