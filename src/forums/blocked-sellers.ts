// The admin's list of sellers Dibs never alerts on (Admin → Alerts → Blocked sellers; audited): the match runner
// drops posts by them before anything is stored, and "Why didn't I get an alert?" says so. Owner of blocked_sellers.
import { asc, eq } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { blockedSellers } from '../db/schema'
import { normalizeAuthor } from '../matching/prepare'

export type BlockedSeller = { name: string; reason: string; createdAt: string }

/** A Reddit-style user name: letters, digits, _ and -, 3–40 characters (forum names may be longer than Reddit's 20). */
const NAME = /^[a-z0-9_-]{2,40}$/

/** The stored form of a name ("u/Foo" → "foo"), or null when it cannot be a user name. */
export function sellerName(raw: string): string | null {
  const n = normalizeAuthor(raw)
  return NAME.test(n) ? n : null
}

const view = (r: { name: string; reason: string; createdAt: Date }): BlockedSeller => ({ name: r.name, reason: r.reason, createdAt: r.createdAt.toISOString() })

export async function listBlockedSellers(deps: OwnerDb): Promise<BlockedSeller[]> {
  const rows = await asAsync(deps.db)
    .select({ name: blockedSellers.name, reason: blockedSellers.reason, createdAt: blockedSellers.createdAt })
    .from(blockedSellers)
    .orderBy(asc(blockedSellers.name))
  return rows.map(view)
}

/**
 * Adds (or re-words) a seller; true when the name is new to the list. The look-up and the write are one
 * transaction (docs/atomicity-audit.md D3), so of two admins adding one name at once only one is told "added".
 */
export async function blockSeller(deps: OwnerDb, name: string, reason: string, by: number | null, at: number): Promise<boolean> {
  return asAsync(deps.db).transaction(async (tx) => {
    const known = (await tx.select({ name: blockedSellers.name }).from(blockedSellers).where(eq(blockedSellers.name, name)).limit(1)).length > 0
    await tx
      .insert(blockedSellers)
      .values({ name, reason, createdBy: by, createdAt: new Date(at) })
      .onConflictDoUpdate({ target: blockedSellers.name, set: { reason } })
    return !known
  })
}

export async function unblockSeller(deps: OwnerDb, name: string): Promise<boolean> {
  return (await asAsync(deps.db).delete(blockedSellers).where(eq(blockedSellers.name, name)).returning({ name: blockedSellers.name })).length > 0
}

/** The blocked names, for one run of the matcher. */
export async function blockedSellerSet(deps: OwnerDb): Promise<Set<string>> {
  return new Set((await asAsync(deps.db).select({ name: blockedSellers.name }).from(blockedSellers)).map((r) => r.name))
}

export async function blockedSeller(deps: OwnerDb, author: string | null | undefined): Promise<BlockedSeller | null> {
  const name = normalizeAuthor(author)
  if (!name) return null
  const [r] = await asAsync(deps.db)
    .select({ name: blockedSellers.name, reason: blockedSellers.reason, createdAt: blockedSellers.createdAt })
    .from(blockedSellers)
    .where(eq(blockedSellers.name, name))
    .limit(1)
  return r ? view(r) : null
}
