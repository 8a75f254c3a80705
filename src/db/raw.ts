// SQL text an owner cannot say with drizzle's builders (aggregates over expressions, window
// functions, engine-specific clauses), run the same way on every handle an owner may hold
// (issue 29 §2): today's synchronous SQLite handle, `asyncSqlite` (./async-sqlite.ts) and
// PostgreSQL (./pg-client.ts). Write the text as a drizzle `sql` template — values as `${v}`,
// tables and columns as `${table}` / `${table.column}` — so each dialect writes its own
// placeholders and quotes; where the SQL itself differs, branch on `engineOf(db)`.
//
// Rows come back as objects keyed by the names the query gives (`AS name`), with the driver's raw
// values: epoch milliseconds, 0/1 on SQLite (booleans on PostgreSQL), JSON as text. Prefer the
// builders where they do the job: they map columns to their types on both engines.
import type { SQL } from 'drizzle-orm'
import { engineOf, type AsyncDb } from './async-db'
import type { Db } from './client'

type AnyDb = Db | AsyncDb
type Raw = {
  /** rows of a query as objects (asyncSqlite: through its transaction gate) */
  all<T>(query: SQL): Promise<T[]>
  /** a statement's changed-row count */
  run(query: SQL): Promise<number>
}

/** asyncSqlite attaches its raw runner here (it knows its gate); the synchronous handle and PostgreSQL are read as they are. */
export const RAW = Symbol.for('dibs.raw')

function rawOf(db: AnyDb): Raw {
  const attached = (db as unknown as { [RAW]?: Raw })[RAW]
  if (attached) return attached
  if (engineOf(db) === 'postgres') {
    // drizzle's postgres-js database: `execute` answers a row list with the command's count
    const pg = db as unknown as { execute(q: SQL): Promise<unknown[] & { count: number }> }
    return {
      all: async <T>(query: SQL) => [...(await pg.execute(query))] as T[],
      run: async (query: SQL) => (await pg.execute(query)).count,
    }
  }
  // today's synchronous bun:sqlite handle: its `all` answers objects, `run` the changes
  const sync = db as Db
  return {
    all: async <T>(query: SQL) => sync.all<T>(query),
    run: async (query: SQL) => (sync.run(query) as unknown as { changes: number }).changes,
  }
}

/** The rows of `query`, as objects. */
export function rawRows<T>(db: AnyDb, query: SQL): Promise<T[]> {
  return rawOf(db).all<T>(query)
}

/** The first row of `query`, or undefined. */
export async function rawRow<T>(db: AnyDb, query: SQL): Promise<T | undefined> {
  return (await rawOf(db).all<T>(query))[0]
}

/** Runs `query`; answers how many rows it changed. */
export function rawRun(db: AnyDb, query: SQL): Promise<number> {
  return rawOf(db).run(query)
}
