// Account reads shared by the auth routes and /api/me: the user row and its public view.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRows } from '../db/raw'
import { authFactors, authIdentities, users, type User } from '../db/schema'
import { AppError } from '../lib/errors'
import { chunksOf } from '../lib/id-lists'

export type PublicUser = {
  id: number
  email: string
  name: string
  emailConfirmedAt: string | null
  createdAt: string
  hasPassword: boolean
  providers: string[]
  /** two-factor sign-in is on */
  twoFactorEnabled: boolean
  /** the spec's auth-user factors */
  factors: { id: number; factor_type: 'totp'; status: 'verified' | 'unverified' }[]
}

/** The spec's auth-user `factors` list (two-factor sign-in itself is ./two-factor.ts). */
export async function factorsOf(deps: OwnerDb, userId: number): Promise<PublicUser['factors']> {
  const [f] = await asAsync(deps.db)
    .select({ id: authFactors.id, verifiedAt: authFactors.verifiedAt })
    .from(authFactors)
    .where(eq(authFactors.userId, userId))
    .limit(1)
  return f ? [{ id: f.id, factor_type: 'totp', status: f.verifiedAt ? 'verified' : 'unverified' }] : []
}

export async function publicUser(deps: OwnerDb, user: User): Promise<PublicUser> {
  const providers = await asAsync(deps.db).select({ provider: authIdentities.provider }).from(authIdentities).where(eq(authIdentities.userId, user.id))
  const factors = await factorsOf(deps, user.id)
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailConfirmedAt: user.emailConfirmedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    hasPassword: user.passwordHash !== null,
    providers: [...new Set(providers.map((p) => p.provider))],
    twoFactorEnabled: factors.some((f) => f.status === 'verified'),
    factors,
  }
}

export async function findUser(deps: OwnerDb, userId: number): Promise<User | undefined> {
  return (await asAsync(deps.db).select().from(users).where(eq(users.id, userId)).limit(1))[0]
}

export async function getUser(deps: OwnerDb, userId: number): Promise<User> {
  const user = await findUser(deps, userId)
  if (user === undefined) throw new AppError(401, 'UNAUTHORIZED', 'Please sign in to continue.')
  return user
}

const DAY_MS = 86_400_000

/** Accounts created since `sinceMs` per UTC day (ms since the epoch / DAY_MS, floored), key 'all' (Admin → Trends). */
export async function accountsPerDay(deps: OwnerDb, sinceMs: number): Promise<{ day: number; key: string; n: number }[]> {
  const day = sql`CAST(${users.createdAt} / ${DAY_MS} AS INTEGER)`
  const rows = await rawRows<{ day: number | string; n: number | string }>(
    deps.db,
    sql`SELECT ${day} AS day, count(*) AS n FROM ${users} WHERE ${users.createdAt} >= ${sinceMs} GROUP BY ${day}`,
  )
  // PostgreSQL answers count(*) (a bigint) as text
  return rows.map((r) => ({ day: Number(r.day), key: 'all', n: Number(r.n) }))
}

/** The email address of each of `ids` that still has an account (Admin → Alerts: whom a failed message was for). */
export async function emailsOf(deps: OwnerDb, ids: readonly number[]): Promise<Map<number, string>> {
  const db = asAsync(deps.db)
  const out = new Map<number, string>()
  for (const chunk of chunksOf([...new Set(ids)]))
    for (const r of await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, chunk))) out.set(r.id, r.email)
  return out
}

// ── Reads of the alert path (src/notify/digest.ts, src/explain/: issue 29 §1, one owner per table) ──

/** Every account's id, ascending (the digest job picks its users among them). */
export async function allUserIds(deps: OwnerDb): Promise<number[]> {
  return (await asAsync(deps.db).select({ id: users.id }).from(users).orderBy(asc(users.id))).map((r) => r.id)
}

// Writes and checks of a users row for other folders (the profile, the demo seed, feed URLs).

/** A new account with its password hash already made (the demo seed); its id. */
export async function insertUser(
  deps: OwnerDb,
  u: { email: string; name: string; passwordHash: string; emailConfirmedAtMs: number; createdAtMs: number },
): Promise<number> {
  const [row] = await asAsync(deps.db)
    .insert(users)
    .values({
      email: u.email,
      name: u.name,
      passwordHash: u.passwordHash,
      emailConfirmedAt: new Date(u.emailConfirmedAtMs),
      createdAt: new Date(u.createdAtMs),
    })
    .returning({ id: users.id })
  return row!.id
}

/** The user's new display name (already checked). */
export async function renameUser(deps: OwnerDb, userId: number, name: string, at: Date): Promise<void> {
  await asAsync(deps.db).update(users).set({ name, updatedAt: at }).where(eq(users.id, userId))
}

/** Deletes the account; ON DELETE CASCADE removes every row that belongs to it. */
export async function deleteUser(deps: OwnerDb, userId: number): Promise<void> {
  await asAsync(deps.db).delete(users).where(eq(users.id, userId))
}

/** Whether the account exists and is not banned. */
export async function isActiveUser(deps: OwnerDb, userId: number): Promise<boolean> {
  const rows = await asAsync(deps.db)
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.bannedAt)))
    .limit(1)
  return rows.length > 0
}
