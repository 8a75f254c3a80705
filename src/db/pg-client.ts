// PostgreSQL for the data layer (issue 29 §2): postgres.js (the maintained `postgres` driver, with
// LISTEN/NOTIFY and custom type parsers) under drizzle's PostgreSQL dialect.
//
// The owners keep ONE set of table objects, src/db/schema.ts: drizzle's PostgreSQL dialect builds
// its SQL from any table's names and columns, and each column's own mapping turns values to and from
// what the driver gives. So the driver here gives what SQLite's driver gives for the same columns —
// int8 as a JS number (ids, counts and epoch milliseconds: all below 2^53), JSON as its text — and
// the SQLite columns' mappings (Date ↔ milliseconds, boolean ↔ 1/0, JSON ↔ text) hold on both
// engines. PostgreSQL's own column types (src/db/schema-pg.ts: bigint, boolean, jsonb) accept those
// values and store them natively.
//
// The answer is typed as drizzle's async SQLite database (`AsyncDb`, ./async-db.ts): the query builders an owner
// writes — `await db.select()…`, `insert … onConflictDoNothing … returning`, `update`, `delete`,
// `db.transaction(async (tx) => …)` — are the same on both dialects. What only SQLite has
// (`.all()`, `.get()`, `.run()`, `.values()`) an owner does not call on an `AsyncDb`; every suite
// running on both engines is what holds the two in step.
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { applyPgMigrations } from './migrate-pg'
import type { AsyncDb } from './async-db'
import type { MigrationResult } from './migrate'

/**
 * The driver's parsers: int8 → number (it is a string by default), json/jsonb → their text (SQLite's JSON columns parse it).
 * bool: the SQLite boolean columns hand the driver 1/0, and the driver's own serializer writes 't' for `true` alone
 * (1 became 'f': every `true` written or compared through a builder was false); it reads back as a boolean.
 */
const TYPES = {
  int8: { to: 20, from: [20], serialize: (v: unknown) => String(v), parse: (v: string) => Number(v) },
  bool: { to: 16, from: [16], serialize: (v: unknown) => (v === true || v === 1 || v === '1' || v === 't' ? 't' : 'f'), parse: (v: string) => v === 't' },
  json: { to: 3802, from: [114, 3802], serialize: (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)), parse: (v: string) => v },
}

export type OpenedPg = { db: AsyncDb; client: postgres.Sql; migrations: MigrationResult; close(): Promise<void> }

/** Connects to `url` (postgres://…), applies the pending migrations (once among nodes starting together), and answers the database. */
export async function openPg(url: string, opts: { migrate?: boolean; max?: number } = {}): Promise<OpenedPg> {
  const client = postgres(url, { types: TYPES, max: opts.max ?? 10, onnotice: () => {} })
  const migrations = opts.migrate === false ? { applied: [], total: 0 } : await applyPgMigrations(client)
  const db = drizzle(client) as unknown as AsyncDb
  return { db, client, migrations, close: () => client.end({ timeout: 5 }) }
}
