// Opens the SQLite database with the pragmas DESIGN names and applies pending migrations.
import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'
import { applyMigrations, type MigrationResult } from './migrate'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }

export type OpenedDb = { db: Db; sqlite: Database; migrations: MigrationResult; close(): void }

export function openDb(path: string, opts: { migrate?: boolean; readonly?: boolean } = {}): OpenedDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new Database(path, opts.readonly ? { readonly: true } : { create: true, readwrite: true })
  sqlite.run('PRAGMA busy_timeout = 5000')
  if (!opts.readonly) {
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('PRAGMA synchronous = NORMAL')
  }
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
