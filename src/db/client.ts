// Opens the SQLite database with the pragmas DESIGN names and applies pending migrations. The
// database holds password hashes, emails and push keys: the file and its -wal/-shm are 600.
import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { log } from '../lib/log'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'
import { applyMigrations, type MigrationResult } from './migrate'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }

export type OpenedDb = { db: Db; sqlite: Database; migrations: MigrationResult; close(): void }

/**
 * Makes the database file and its -wal/-shm 600. SQLite creates -wal/-shm later, with the mode of
 * the database file, so a 600 database gives 600 companions; files left 644 by an older version
 * are tightened here too.
 */
function makePrivate(path: string) {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(f).mode & 0o077) !== 0) chmodSync(f, 0o600)
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') log.warn(`could not make ${f} private (mode 600)`, { error: String(err) })
    }
  }
}

export function openDb(path: string, opts: { migrate?: boolean; readonly?: boolean } = {}): OpenedDb {
  const file = path !== ':memory:' && !opts.readonly
  if (file) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    closeSync(openSync(path, 'a', 0o600)) // SQLite would create it with 644 & ~umask
    makePrivate(path)
  }
  const sqlite = new Database(path, opts.readonly ? { readonly: true } : { create: true, readwrite: true })
  sqlite.run('PRAGMA busy_timeout = 5000')
  if (!opts.readonly) {
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('PRAGMA synchronous = NORMAL')
  }
  if (file) makePrivate(path)
  sqlite.run('PRAGMA foreign_keys = ON')
  const migrations = opts.migrate === false || opts.readonly ? { applied: [], total: 0 } : applyMigrations(sqlite)
  const db = drizzle(sqlite, { schema }) as Db
  return {
    db,
    sqlite,
    migrations,
    close() {
      try {
        if (!opts.readonly) sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
      } finally {
        sqlite.close()
      }
    },
  }
}
