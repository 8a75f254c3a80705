// The admin's list of sellers Dibs never alerts on (Admin → Alerts → Blocked sellers; audited): the match runner
// drops posts by them before anything is stored, and "Why didn't I get an alert?" says so. Owner of blocked_sellers.
import type { Database } from 'bun:sqlite'
import { normalizeAuthor } from '../matching/prepare'

export type BlockedSeller = { name: string; reason: string; createdAt: string }

/** A Reddit-style user name: letters, digits, _ and -, 3–40 characters (forum names may be longer than Reddit's 20). */
const NAME = /^[a-z0-9_-]{2,40}$/

/** The stored form of a name ("u/Foo" → "foo"), or null when it cannot be a user name. */
export function sellerName(raw: string): string | null {
  const n = normalizeAuthor(raw)
  return NAME.test(n) ? n : null
}

export function listBlockedSellers(sqlite: Database): BlockedSeller[] {
  return sqlite
    .query<{ name: string; reason: string; created_at: number }, []>('SELECT name, reason, created_at FROM blocked_sellers ORDER BY name')
    .all()
    .map((r) => ({ name: r.name, reason: r.reason, createdAt: new Date(r.created_at).toISOString() }))
}

/** Adds (or re-words) a seller; true when the name is new to the list. */
export function blockSeller(sqlite: Database, name: string, reason: string, by: number | null, at: number): boolean {
  const known = sqlite.query<{ n: number }, [string]>('SELECT count(*) AS n FROM blocked_sellers WHERE name = ?').get(name)!.n > 0
  sqlite
    .query('INSERT INTO blocked_sellers (name, reason, created_by, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET reason = excluded.reason')
    .run(name, reason, by, at)
  return !known
}

export function unblockSeller(sqlite: Database, name: string): boolean {
  return sqlite.query('DELETE FROM blocked_sellers WHERE name = ?').run(name).changes > 0
}

/** The blocked names, for one run of the matcher. */
export function blockedSellerSet(sqlite: Database): Set<string> {
  return new Set(
    sqlite
      .query<{ name: string }, []>('SELECT name FROM blocked_sellers')
      .all()
      .map((r) => r.name),
  )
}

export function blockedSeller(sqlite: Database, author: string | null | undefined): BlockedSeller | null {
  const name = normalizeAuthor(author)
  if (!name) return null
  const r = sqlite
    .query<{ name: string; reason: string; created_at: number }, [string]>('SELECT name, reason, created_at FROM blocked_sellers WHERE name = ?')
    .get(name)
  return r ? { name: r.name, reason: r.reason, createdAt: new Date(r.created_at).toISOString() } : null
}
