// Table reads of the tests that run on both engines (tests/postgres-suites.txt): through drizzle's
// builders on the async handle, so values come back typed the same on SQLite and PostgreSQL.
import { count, type SQL } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { AsyncDb } from '../src/db/async-db'
import { asAsync } from '../src/db/async-sqlite'
import type { Db } from '../src/db/client'

/** How many rows of `table` there are (those `where` keeps). */
export async function rowCount(deps: { db: Db | AsyncDb }, table: SQLiteTable, where?: SQL): Promise<number> {
  const [row] = await asAsync(deps.db).select({ n: count() }).from(table).where(where)
  return row!.n
}
