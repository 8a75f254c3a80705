// The database handles an owner may hold, for the tests of src/db that run the same code on each:
// SQLite files (closed and removed after the file's tests) and throwaway PostgreSQL databases
// (tests/pg.ts). Call at the top of a test file: it registers the cleanup.
import { afterAll } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AsyncDb } from '../../../src/db/async-db'
import { asyncSqlite } from '../../../src/db/async-sqlite'
import { openDb, type Db } from '../../../src/db/client'
import { openPg } from '../../../src/db/pg-client'
import { blockedSellers } from '../../../src/db/schema'
import { usePostgres } from '../../pg'

export function useDbHandles(prefix: string) {
  const pg = usePostgres()
  const dirs: string[] = []
  const closers: (() => unknown)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })
  /** a migrated SQLite file */
  const sqliteFile = () => {
    const dir = mkdtempSync(join(tmpdir(), `dibs-${prefix}-`))
    dirs.push(dir)
    const opened = openDb(join(dir, 'dibs.db'))
    closers.push(() => opened.close())
    return opened
  }
  /** a migrated PostgreSQL database of its own */
  const postgres = async (): Promise<AsyncDb> => {
    const opened = await openPg(await pg.server.newDatabase())
    closers.push(() => opened.close())
    return opened.db
  }
  /** every handle an owner may hold, by name */
  const handles: [string, () => Promise<Db | AsyncDb>][] = [
    ['the synchronous SQLite handle', async () => sqliteFile().db],
    ['asyncSqlite', async () => asyncSqlite(sqliteFile().sqlite)],
    ['PostgreSQL', postgres],
  ]
  return { sqliteFile, postgres, handles }
}

/**
 * A transaction on `db` that has written the row 'inside' of blocked_sellers and waits: `rollBack()`
 * ends it with a throw, and `ended` resolves to 'rolled back'. Resolves once the row is written (the
 * gate tests: a statement from outside must wait for it, not join it).
 */
export async function heldTransaction(db: AsyncDb): Promise<{ rollBack(): void; ended: Promise<string> }> {
  let rollBack!: () => void
  let entered!: () => void
  const held = new Promise<void>((r) => (rollBack = r))
  const inside = new Promise<void>((r) => (entered = r))
  const ended = db
    .transaction(async (t) => {
      await t.insert(blockedSellers).values({ name: 'inside', reason: 'x', createdAt: new Date() })
      entered()
      await held
      throw new Error('roll back')
    })
    .catch(() => 'rolled back')
  await inside
  return { rollBack, ended }
}
