// The SQLite connection as an `AsyncDb` (./async-db.ts), the form owners take on both engines
// (issue 29 §2): drizzle's sqlite-proxy driver over the process's one bun:sqlite connection, with
// transactions that may await.
//
// One connection means one transaction at a time, and a statement issued while another flow's
// transaction is open would run inside it (and be rolled back with it). So: `transaction(fn)` takes
// a lock (first come, first served), runs `fn` inside an AsyncLocalStorage scope between BEGIN
// IMMEDIATE and COMMIT (ROLLBACK when it throws), and every statement from outside that scope waits
// until the lock is free. Inside the scope, `transaction` again is a SAVEPOINT. Statements run
// synchronously on the connection (bun:sqlite), so a flow without a transaction pays one check.
//
// The synchronous handles (`deps.db`, `deps.sqlite`) share the connection and do not wait: code moves
// from them to this one owner by owner (docs/SCALING.md "Where this stands").
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/sqlite-proxy'
import { AsyncLocalStorage } from 'node:async_hooks'
import type { SQL } from 'drizzle-orm'
import type { AsyncDb } from './async-db'
import type { Db } from './client'
import { runRows } from './bulk'
import { RAW } from './raw'
import * as schema from './schema'

type Method = 'run' | 'all' | 'values' | 'get'

export function asyncSqlite(sqlite: Database): AsyncDb {
  const scope = new AsyncLocalStorage<symbol>()
  /** the open transaction's token, and the promise that settles when it ends */
  let open: { token: symbol; done: Promise<void> } | null = null
  /** the tail of the queue of transactions */
  let tail: Promise<void> = Promise.resolve()
  let savepoints = 0

  const mine = () => open !== null && scope.getStore() === open.token
  const free = async () => {
    while (open !== null && !mine()) await open.done
  }

  const exec = (text: string, params: unknown[], method: Method) => {
    const stmt = sqlite.query(text)
    const args = params as never[]
    if (method === 'run') {
      stmt.run(...args)
      return { rows: [] }
    }
    if (method === 'get') return { rows: stmt.values(...args)[0] as unknown[] }
    return { rows: stmt.values(...args) as unknown[][] }
  }

  const db = drizzle(
    async (text, params, method) => {
      if (open !== null && !mine()) await free()
      return exec(text, params, method as Method)
    },
    { schema },
  ) as unknown as AsyncDb

  const transaction = async <T>(fn: (tx: AsyncDb) => Promise<T>): Promise<T> => {
    if (mine()) {
      const name = `dibs_sp${++savepoints}`
      sqlite.run(`SAVEPOINT ${name}`)
      try {
        const result = await fn(db)
        sqlite.run(`RELEASE ${name}`)
        return result
      } catch (err) {
        sqlite.run(`ROLLBACK TO ${name}`)
        sqlite.run(`RELEASE ${name}`)
        throw err
      }
    }
    const before = tail
    let end!: () => void
    const done = new Promise<void>((resolve) => (end = resolve))
    tail = before.then(() => done)
    await before
    const token = Symbol('transaction')
    open = { token, done }
    try {
      return await scope.run(token, async () => {
        sqlite.run('BEGIN IMMEDIATE')
        try {
          const result = await fn(db)
          sqlite.run('COMMIT')
          return result
        } catch (err) {
          sqlite.run('ROLLBACK')
          throw err
        }
      })
    } finally {
      open = null
      end()
    }
  }
  ;(db as unknown as { transaction: typeof transaction }).transaction = transaction
  // ./raw.ts: SQL text through the same gate, rows as objects
  const compile = (query: SQL) => (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query)
  ;(db as unknown as { [RAW]: unknown })[RAW] = {
    all: async <T>(query: SQL): Promise<T[]> => {
      if (open !== null && !mine()) await free()
      const q = compile(query)
      return sqlite.query(q.sql).all(...(q.params as never[])) as T[]
    },
    run: async (query: SQL): Promise<number> => {
      if (open !== null && !mine()) await free()
      const q = compile(query)
      return sqlite.query(q.sql).run(...(q.params as never[])).changes
    },
    // ./bulk.ts: one prepared statement run once per row
    statements: {
      rows: async (text: string, rows: unknown[][], answer: boolean) => {
        if (open !== null && !mine()) await free()
        return runRows(sqlite, text, rows, answer)
      },
    },
  }
  return db
}

/**
 * The handle an owner's async code runs on. While callers move (docs/SCALING.md, phase 1), an owner
 * may still be given today's synchronous SQLite handle: it answers the connection's one
 * `asyncSqlite` (./async-sqlite.ts, made once per connection), so the owner's statements and
 * `transaction(async (tx) => …)` go through its gate and are atomic. An `AsyncDb` is answered as is.
 */
export function asAsync(db: Db | AsyncDb): AsyncDb {
  const client = (db as { $client?: unknown }).$client
  if (!(client instanceof Database)) return db as AsyncDb
  let async = ASYNC_OF.get(client)
  if (!async) ASYNC_OF.set(client, (async = asyncSqlite(client)))
  return async
}

const ASYNC_OF = new WeakMap<Database, AsyncDb>()
