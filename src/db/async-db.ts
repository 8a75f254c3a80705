// The database as the owners will see it on either engine (issue 29 §2): drizzle's async SQLite
// database type over the one set of tables (src/db/schema.ts). On SQLite it is `asyncSqlite()`
// (src/db/async-sqlite.ts) over the process's one connection; on PostgreSQL `openPg()`
// (src/db/pg-client.ts). Owners write `await db.select()…` and `await db.transaction(async (tx) => …)`,
// never the SQLite-only `.all()` / `.get()` / `.run()` / `.values()`.
import { entityKind } from 'drizzle-orm'
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import type { Db } from './client'
import type * as schema from './schema'

export type AsyncDb = BaseSQLiteDatabase<'async', unknown, typeof schema>
export type Engine = 'sqlite' | 'postgres'

/** The engine behind a database (for the few statements whose SQL differs), by its dialect's kind: the SQLite server never loads drizzle's pg-core for it. */
export function engineOf(db: Db | AsyncDb): Engine {
  const dialect = (db as unknown as { dialect: { constructor: { [entityKind]?: string } } }).dialect
  return dialect.constructor[entityKind] === 'PgDialect' ? 'postgres' : 'sqlite'
}

/** What an owner's function takes while callers move: the synchronous handle (which `asAsync` turns into the connection's `asyncSqlite`), an `AsyncDb`, or a transaction's `tx`. */
export type OwnerDb = { db: Db | AsyncDb }
