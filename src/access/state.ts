// Who a user is and what they may do, read from the database: a user's account fields (the users
// columns of ../auth/user-rows.ts, a pure leaf: auth/ imports access/, never the other way) with
// their user_access row (userWithAccess / usersWithAccess), and the row → AccessState reading, where
// ADMIN_EMAILS make an account admin whatever its stored role.
import { inArray } from 'drizzle-orm'
import type { Config } from '../config'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { userAccess } from '../db/schema'
import type { Deps } from '../deps'
import { accountUser, accountUsers, type AccountUser } from '../auth/user-rows'
import { chunksOf } from '../lib/id-lists'
import type { AccessState, Role } from './rules'

export type AccessRow = { role: string; subscriptionStatus: string | null; accessExpiresAt: Date | null; stripeCustomerId: string | null }
export type { AccountUser }
export type UserWithAccess = { user: AccountUser; access: AccessState }

/** Admins come from ADMIN_EMAILS as well as the stored role. */
export function accessStateOf(deps: { config: Pick<Config, 'adminEmails'> }, email: string, row: AccessRow | null): AccessState {
  const admin = deps.config.adminEmails.includes(email.toLowerCase())
  return {
    role: (admin ? 'admin' : (row?.role ?? 'none')) as Role,
    subscriptionStatus: row?.subscriptionStatus ?? null,
    accessExpiresAt: row?.accessExpiresAt ?? null,
    stripeCustomerId: row?.stripeCustomerId ?? null,
  }
}

/** The access rows of `ids` (in chunks: SQLite bounds the number of parameters), or of every account: user id → row. */
export async function accessRowsOf(deps: OwnerDb, ids?: readonly number[]): Promise<Map<number, AccessRow>> {
  const db = asAsync(deps.db)
  const columns = {
    userId: userAccess.userId,
    role: userAccess.role,
    subscriptionStatus: userAccess.subscriptionStatus,
    accessExpiresAt: userAccess.accessExpiresAt,
    stripeCustomerId: userAccess.stripeCustomerId,
  }
  const rows = ids === undefined ? await db.select(columns).from(userAccess) : []
  if (ids !== undefined) for (const chunk of chunksOf(ids)) rows.push(...(await db.select(columns).from(userAccess).where(inArray(userAccess.userId, chunk))))
  return new Map(rows.map(({ userId, ...row }) => [userId, row]))
}

/** One account's access row, or null without one (the session and token checks read it beside their users row). */
export async function accessRowOf(deps: OwnerDb, userId: number): Promise<AccessRow | null> {
  return (await accessRowsOf(deps, [userId])).get(userId) ?? null
}

export async function userWithAccess(deps: OwnerDb & Pick<Deps, 'config'>, userId: number): Promise<UserWithAccess | null> {
  const user = await accountUser(deps.db, userId)
  return user === undefined ? null : { user, access: accessStateOf(deps, user.email, await accessRowOf(deps, userId)) }
}

/** Every account by id, or those among `ids`. */
export async function usersWithAccess(deps: OwnerDb & Pick<Deps, 'config'>, ids?: number[]): Promise<UserWithAccess[]> {
  const users = await accountUsers(deps.db, ids)
  const rows = await accessRowsOf(deps, ids === undefined ? undefined : users.map((u) => u.id))
  return users.map((user) => ({ user, access: accessStateOf(deps, user.email, rows.get(user.id) ?? null) }))
}
