// The process's database, by the configuration (issue 29 §2): DATABASE_URL=postgres://… runs on
// PostgreSQL (./pg-client.ts, migrations of drizzle-pg/ applied once among nodes starting together);
// without it SQLite in DATA_DIR as always (./client.ts). The server and the CLI open it here and
// hold the answer as `deps.db` (and `deps.sqlite`, the raw SQLite connection — null on PostgreSQL —
// for what only SQLite has: PRAGMAs, `VACUUM INTO` backups, page figures).
import type { Database } from 'bun:sqlite'
import type { Config } from '../config'
import type { AsyncDb, Engine } from './async-db'
import { openDb, type Db } from './client'
import type { MigrationResult } from './migrate'
import { openPg } from './pg-client'
import { withoutPassword } from '../lib/urls'

export type OpenedDatabase = {
  engine: Engine
  db: Db | AsyncDb
  /** SQLite's own connection; null on PostgreSQL */
  sqlite: Database | null
  migrations: MigrationResult
  /** where it is, for the log and doctor: the file, or the URL without its password */
  where: string
  close(): Promise<void>
}

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dbPath'>): Promise<OpenedDatabase> {
  if (config.databaseUrl !== null) {
    const pg = await openPg(config.databaseUrl)
    return { engine: 'postgres', db: pg.db, sqlite: null, migrations: pg.migrations, where: withoutPassword(config.databaseUrl), close: pg.close }
  }
  const opened = openDb(config.dbPath)
  return { engine: 'sqlite', db: opened.db, sqlite: opened.sqlite, migrations: opened.migrations, where: config.dbPath, close: async () => opened.close() }
}
