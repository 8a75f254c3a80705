// The users columns that access/ reads beside its user_access rows (who a user is, for ADMIN_EMAILS,
// bans and the admin account lists). This folder owns `users` (src/db/owners.json); access/ sits
// below auth/ (auth imports access), so this file imports nothing outside src/auth, src/lib and src/db (plain SQL
// through `rawRows` on the caller's handle, no schema import): a pure leaf, read across folders without a folder
// edge (docs/ARCHITECTURE.md, "Import rules"), like src/metrics/latency.ts.
import { sql, type SQL } from 'drizzle-orm'
import type { AsyncDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Db } from '../db/client'
import { rawRows } from '../db/raw'
import { chunksOf } from '../lib/id-lists'

/** The database (or a transaction of it) the caller reads through. */
export type UsersReader = Db | AsyncDb

/** The account fields access decisions need (not the whole row: this runs for every matched user of a scan). */
export type AccountUser = { id: number; email: string; emailConfirmedAt: Date | null; bannedAt: Date | null }
/** An account as the admin lists show it. */
export type ListedUser = AccountUser & { name: string; createdAt: Date }

type Raw = { id: number; email: string; name: string; email_confirmed_at: number | null; banned_at: number | null; created_at: number }
const date = (ms: number | null) => (ms === null ? null : new Date(ms))
const account = (r: Raw): AccountUser => ({ id: r.id, email: r.email, emailConfirmedAt: date(r.email_confirmed_at), bannedAt: date(r.banned_at) })
const listed = (r: Raw): ListedUser => ({ ...account(r), name: r.name, createdAt: new Date(r.created_at) })

const ACCOUNT = sql`SELECT id, email, email_confirmed_at, banned_at FROM users`
const LISTED = sql`SELECT id, email, name, email_confirmed_at, banned_at, created_at FROM users`

/** One account, or undefined. */
export async function accountUser(db: UsersReader, userId: number): Promise<AccountUser | undefined> {
  const row = (await rawRows<Raw>(asAsync(db), sql`${ACCOUNT} WHERE id = ${userId}`))[0]
  return row === undefined ? undefined : account(row)
}

/** Every account by id, or those among `ids` in the database's order, in chunks of 500. */
export async function accountUsers(db: UsersReader, ids?: readonly number[]): Promise<AccountUser[]> {
  const adb = asAsync(db)
  if (ids === undefined) return (await rawRows<Raw>(adb, sql`${ACCOUNT} ORDER BY id ASC`)).map(account)
  const out: AccountUser[] = []
  for (const chunk of chunksOf(ids)) out.push(...(await rawRows<Raw>(adb, sql`${ACCOUNT} WHERE id IN ${chunk}`)).map(account))
  return out
}

/**
 * Accounts for the admin lists: `search` (lowercase) keeps those whose email or name contains it
 * (LIKE, its wildcards escaped); `newestFirst` orders by id descending, otherwise the database's order;
 * `userId` reads that one account.
 */
export async function listedUsers(db: UsersReader, opts: { search?: string; newestFirst?: boolean; userId?: number } = {}): Promise<ListedUser[]> {
  const where: SQL[] = []
  if (opts.userId !== undefined) where.push(sql`id = ${opts.userId}`)
  if (opts.search) {
    const pattern = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    where.push(sql`(email like ${pattern} escape '\\' or name like ${pattern} escape '\\')`)
  }
  const filter = where.length === 0 ? sql`` : sql` WHERE ${sql.join(where, sql` AND `)}`
  return (await rawRows<Raw>(asAsync(db), sql`${LISTED}${filter}${opts.newestFirst ? sql` ORDER BY id DESC` : sql``}`)).map(listed)
}
