// Who a user is and what they may do, read from the database: the one users ⋈ user_access query
// (userWithAccess / usersWithAccess) and the row → AccessState reading, where ADMIN_EMAILS make
// an account admin whatever its stored role.
import { asc, eq, inArray } from 'drizzle-orm'
import type { Config } from '../config'
import { userAccess, users } from '../db/schema'
import type { Deps } from '../deps'
import type { AccessState, Role } from './rules'

type AccessRow = { role: string; subscriptionStatus: string | null; accessExpiresAt: Date | null; stripeCustomerId: string | null }
/** The account fields access decisions need (not the whole row: this runs for every matched user of a scan). */
export type AccountUser = { id: number; email: string; emailConfirmedAt: Date | null; bannedAt: Date | null }
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

const joined = (deps: Pick<Deps, 'db'>) =>
  deps.db
    .select({
      user: { id: users.id, email: users.email, emailConfirmedAt: users.emailConfirmedAt, bannedAt: users.bannedAt },
      access: {
        role: userAccess.role,
        subscriptionStatus: userAccess.subscriptionStatus,
        accessExpiresAt: userAccess.accessExpiresAt,
        stripeCustomerId: userAccess.stripeCustomerId,
      },
    })
    .from(users)
    .leftJoin(userAccess, eq(userAccess.userId, users.id))

export function userWithAccess(deps: Pick<Deps, 'db' | 'config'>, userId: number): UserWithAccess | null {
  const row = joined(deps).where(eq(users.id, userId)).get()
  return row === undefined ? null : { user: row.user, access: accessStateOf(deps, row.user.email, row.access) }
}

const chunks = <T>(list: T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size))

/** Every account by id, or those among `ids` (in chunks: SQLite bounds the number of parameters). */
export function usersWithAccess(deps: Pick<Deps, 'db' | 'config'>, ids?: number[]): UserWithAccess[] {
  const rows =
    ids === undefined ? joined(deps).orderBy(asc(users.id)).all() : chunks(ids, 500).flatMap((chunk) => joined(deps).where(inArray(users.id, chunk)).all())
  return rows.map((r) => ({ user: r.user, access: accessStateOf(deps, r.user.email, r.access) }))
}
