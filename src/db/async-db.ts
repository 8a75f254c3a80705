// The database as the owners will see it on either engine (issue 29 §2): drizzle's async SQLite
// database type over the one set of tables (src/db/schema.ts). On SQLite it is `asyncSqlite()`
// (src/db/async-sqlite.ts) over the process's one connection; on PostgreSQL `openPg()`
// (src/db/pg-client.ts). Owners write `await db.select()…` and `await db.transaction(async (tx) => …)`,
// never the SQLite-only `.all()` / `.get()` / `.run()` / `.values()`.
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import type * as schema from './schema'

export type AsyncDb = BaseSQLiteDatabase<'async', unknown, typeof schema>
