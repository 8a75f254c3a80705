// Account lists for the admin pages (Users, Revenue): each account with its stored user_access row
// as it is (no ADMIN_EMAILS applied: the caller decides with ./state.ts accessStateOf), and the
// access history. This folder owns user_access and access_history (src/db/owners.json); the users
// columns are read in the same join as ./state.ts does.
import { asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import { accessHistory, userAccess, users } from '../db/schema'
import type { Deps } from '../deps'

export type AccountRow = {
  id: number
  email: string
  name: string
  emailConfirmedAt: Date | null
  bannedAt: Date | null
  createdAt: Date
  /** null fields: the account has no user_access row */
  role: string | null
  subscriptionStatus: string | null
  accessExpiresAt: Date | null
  stripeCustomerId: string | null
  stripeSubscriptionId: string | null
  grantedBy: string | null
}

const select = (deps: Pick<Deps, 'db'>) =>
  deps.db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      emailConfirmedAt: users.emailConfirmedAt,
      bannedAt: users.bannedAt,
      createdAt: users.createdAt,
      role: userAccess.role,
      subscriptionStatus: userAccess.subscriptionStatus,
      accessExpiresAt: userAccess.accessExpiresAt,
      stripeCustomerId: userAccess.stripeCustomerId,
      stripeSubscriptionId: userAccess.stripeSubscriptionId,
      grantedBy: userAccess.grantedBy,
    })
    .from(users)
    .leftJoin(userAccess, eq(userAccess.userId, users.id))

/**
 * Every account with its access row: `search` (lowercase) keeps those whose email or name contains it;
 * `newestFirst` orders by id descending, otherwise the database's order.
 */
export function accountRows(deps: Pick<Deps, 'db'>, opts: { search?: string; newestFirst?: boolean } = {}): AccountRow[] {
  let where: SQL | undefined
  if (opts.search) {
    const pattern = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    where = or(sql`${users.email} like ${pattern} escape '\\'`, sql`${users.name} like ${pattern} escape '\\'`)
  }
  const q = select(deps).where(where)
  return opts.newestFirst ? q.orderBy(desc(users.id)).all() : q.all()
}

/** One account with its access row, or undefined. */
export function accountRow(deps: Pick<Deps, 'db'>, userId: number): AccountRow | undefined {
  return select(deps).where(eq(users.id, userId)).get()
}

/** One account's stored user_access row, or null without one. */
export function storedAccess(deps: Pick<Deps, 'db'>, userId: number) {
  return deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get() ?? null
}

/** An account without access yet gets its row (role none) unless it has one; no history row, no event. */
export function ensureAccessRow(deps: Pick<Deps, 'db'>, userId: number): void {
  deps.db.insert(userAccess).values({ userId, role: 'none' }).onConflictDoNothing().run()
}

/** Every write to user_access ever recorded, oldest first. */
export function accessHistoryRows(deps: Pick<Deps, 'db'>) {
  return deps.db.select().from(accessHistory).orderBy(asc(accessHistory.at), asc(accessHistory.id)).all()
}

/** Access rows, all or those whose subscription status or role is one of the given (the dashboard's KPIs). */
export function countAccess(deps: Pick<Deps, 'db'>, where: { statuses?: readonly string[]; roles?: readonly string[] } = {}): number {
  const filter = where.statuses
    ? inArray(userAccess.subscriptionStatus, [...where.statuses])
    : where.roles
      ? inArray(userAccess.role, [...where.roles])
      : undefined
  return deps.db
    .select({ n: sql<number>`count(*)` })
    .from(userAccess)
    .where(filter)
    .get()!.n
}
