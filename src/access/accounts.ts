// Account lists for the admin pages (Users, Revenue): each account with its stored user_access row
// as it is (no ADMIN_EMAILS applied: the caller decides with ./state.ts accessStateOf), and the
// access history. This folder owns user_access and access_history (src/db/owners.json); the users
// columns come from ../auth/user-rows.ts (a pure leaf), as in ./state.ts.
import { asc, eq, inArray, sql } from 'drizzle-orm'
import { accessHistory, userAccess } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { listedUsers, type ListedUser } from '../auth/user-rows'

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

export type StoredAccess = typeof userAccess.$inferSelect

/** Each listed account with its access row (null fields without one). */
function withAccess(users: ListedUser[], rows: Map<number, StoredAccess>): AccountRow[] {
  return users.map(({ id, email, name, emailConfirmedAt, bannedAt, createdAt }) => {
    const a = rows.get(id)
    return {
      id,
      email,
      name,
      emailConfirmedAt,
      bannedAt,
      createdAt,
      role: a?.role ?? null,
      subscriptionStatus: a?.subscriptionStatus ?? null,
      accessExpiresAt: a?.accessExpiresAt ?? null,
      stripeCustomerId: a?.stripeCustomerId ?? null,
      stripeSubscriptionId: a?.stripeSubscriptionId ?? null,
      grantedBy: a?.grantedBy ?? null,
    }
  })
}

/**
 * Every account with its access row: `search` (lowercase) keeps those whose email or name contains it;
 * `newestFirst` orders by id descending, otherwise the database's order.
 */
export async function accountRows(deps: Pick<Deps, 'db'>, opts: { search?: string; newestFirst?: boolean } = {}): Promise<AccountRow[]> {
  const users = await listedUsers(deps.db, opts)
  const rows = await asAsync(deps.db).select().from(userAccess)
  return withAccess(users, new Map(rows.map((r) => [r.userId, r])))
}

/** One account with its access row, or undefined. */
export async function accountRow(deps: Pick<Deps, 'db'>, userId: number): Promise<AccountRow | undefined> {
  const access = await storedAccess(deps, userId)
  return withAccess(await listedUsers(deps.db, { userId }), new Map(access === null ? [] : [[userId, access]]))[0]
}

/** One account's stored user_access row, or null without one. */
export async function storedAccess(deps: OwnerDb, userId: number): Promise<StoredAccess | null> {
  return (await asAsync(deps.db).select().from(userAccess).where(eq(userAccess.userId, userId)).limit(1))[0] ?? null
}

/** An account without access yet gets its row (role none) unless it has one; no history row, no event. */
export async function ensureAccessRow(deps: OwnerDb, userId: number): Promise<void> {
  await asAsync(deps.db).insert(userAccess).values({ userId, role: 'none' }).onConflictDoNothing()
}

/** An active access row written as it is (the demo seed's accounts): no history row, no event. */
export async function insertActiveAccess(deps: OwnerDb, userId: number, role: string, grantedBy: string, atMs: number): Promise<void> {
  await asAsync(deps.db)
    .insert(userAccess)
    .values({ userId, role, subscriptionStatus: 'active', grantedBy, updatedAt: new Date(atMs) })
}

/** Every write to user_access ever recorded, oldest first. */
export async function accessHistoryRows(deps: OwnerDb) {
  return asAsync(deps.db).select().from(accessHistory).orderBy(asc(accessHistory.at), asc(accessHistory.id))
}

/** Access rows, all or those whose subscription status or role is one of the given (the dashboard's KPIs). */
export async function countAccess(deps: OwnerDb, where: { statuses?: readonly string[]; roles?: readonly string[] } = {}): Promise<number> {
  const filter = where.statuses
    ? inArray(userAccess.subscriptionStatus, [...where.statuses])
    : where.roles
      ? inArray(userAccess.role, [...where.roles])
      : undefined
  const [row] = await asAsync(deps.db)
    .select({ n: sql<number>`count(*)` })
    .from(userAccess)
    .where(filter)
  return Number(row!.n)
}
