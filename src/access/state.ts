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

/** Every account (or those among `ids`), by id. */
export function usersWithAccess(deps: Pick<Deps, 'db' | 'config'>, ids?: number[]): UserWithAccess[] {
  const rows = []
  if (ids === undefined) rows.push(...joined(deps).orderBy(asc(users.id)).all())
  else
    for (let i = 0; i < ids.length; i += 500)
      rows.push(
        ...joined(deps)
          .where(inArray(users.id, ids.slice(i, i + 500)))
          .all(),
      )
  return rows.map((r) => ({ user: r.user, access: accessStateOf(deps, r.user.email, r.access) }))
}
