// Account reads shared by the auth routes and /api/me: the user row and its public view.
import { eq } from 'drizzle-orm'
import { authFactors, authIdentities, users, type User } from '../db/schema'
import type { Deps } from '../deps'
import { AppError } from '../lib/errors'
import { chunksOf, placeholders } from '../lib/id-lists'

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
export function factorsOf(deps: Pick<Deps, 'db'>, userId: number): PublicUser['factors'] {
  const f = deps.db.select({ id: authFactors.id, verifiedAt: authFactors.verifiedAt }).from(authFactors).where(eq(authFactors.userId, userId)).get()
  return f ? [{ id: f.id, factor_type: 'totp', status: f.verifiedAt ? 'verified' : 'unverified' }] : []
}

export function publicUser(deps: Pick<Deps, 'db'>, user: User): PublicUser {
  const providers = deps.db.select({ provider: authIdentities.provider }).from(authIdentities).where(eq(authIdentities.userId, user.id)).all()
  const factors = factorsOf(deps, user.id)
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

export function findUser(deps: Pick<Deps, 'db'>, userId: number): User | undefined {
  return deps.db.select().from(users).where(eq(users.id, userId)).get()
}

export function getUser(deps: Pick<Deps, 'db'>, userId: number): User {
  const user = deps.db.select().from(users).where(eq(users.id, userId)).get()
  if (user === undefined) throw new AppError(401, 'UNAUTHORIZED', 'Please sign in to continue.')
  return user
}

const DAY_MS = 86_400_000

/** Accounts created since `sinceMs` per UTC day (ms since the epoch / DAY_MS, floored), key 'all' (Admin → Trends). */
export function accountsPerDay(deps: Pick<Deps, 'sqlite'>, sinceMs: number): { day: number; key: string; n: number }[] {
  return deps.sqlite
    .query<{ day: number; key: string; n: number }, [number, number]>(
      "SELECT CAST(created_at / ?1 AS INTEGER) AS day, 'all' AS key, count(*) AS n FROM users WHERE created_at >= ?2 GROUP BY day",
    )
    .all(DAY_MS, sinceMs)
}

/** The email address of each of `ids` that still has an account (Admin → Alerts: whom a failed message was for). */
export function emailsOf(deps: Pick<Deps, 'sqlite'>, ids: readonly number[]): Map<number, string> {
  const unique = [...new Set(ids)]
  const out = new Map<number, string>()
  for (const chunk of chunksOf(unique))
    for (const r of deps.sqlite
      .query<{ id: number; email: string }, number[]>(`SELECT id, email FROM users WHERE id IN (${placeholders(chunk.length)})`)
      .all(...chunk))
      out.set(r.id, r.email)
  return out
}

// ── Reads of the alert path (src/notify/digest.ts, src/explain/: issue 29 §1, one owner per table) ──

/** Every account's id, ascending (the digest job picks its users among them). */
export function allUserIds(deps: Pick<Deps, 'sqlite'>): number[] {
  return deps.sqlite
    .query<{ id: number }, []>('SELECT id FROM users ORDER BY id')
    .all()
    .map((r) => r.id)
}

// Writes and checks of a users row for other folders (the profile, the demo seed, feed URLs).

/** A new account with its password hash already made (the demo seed); its id. */
export function insertUser(
  deps: Pick<Deps, 'sqlite'>,
  u: { email: string; name: string; passwordHash: string; emailConfirmedAtMs: number; createdAtMs: number },
): number {
  return deps.sqlite
    .query<{ id: number }, [string, string, string, number, number]>(
      'INSERT INTO users (email, name, password_hash, email_confirmed_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
    )
    .get(u.email, u.name, u.passwordHash, u.emailConfirmedAtMs, u.createdAtMs)!.id
}

/** The user's new display name (already checked). */
export function renameUser(deps: Pick<Deps, 'db'>, userId: number, name: string, at: Date): void {
  deps.db.update(users).set({ name, updatedAt: at }).where(eq(users.id, userId)).run()
}

/** Deletes the account; ON DELETE CASCADE removes every row that belongs to it. */
export function deleteUser(deps: Pick<Deps, 'db'>, userId: number): void {
  deps.db.delete(users).where(eq(users.id, userId)).run()
}

/** Whether the account exists and is not banned. */
export function isActiveUser(deps: Pick<Deps, 'sqlite'>, userId: number): boolean {
  return deps.sqlite.query<{ one: number }, [number]>('SELECT 1 AS one FROM users WHERE id = ? AND banned_at IS NULL').get(userId) !== null
}
