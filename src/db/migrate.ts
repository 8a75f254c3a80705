// Applies the embedded drizzle-kit migrations in journal order. Foreign keys are switched off
// around them: SQLite table rebuilds (create new, copy, drop old) would otherwise cascade-delete
// children. A foreign_key_check afterwards refuses a migration that broke references.
import type { Database } from 'bun:sqlite'
import { migrations as embedded } from './migrations'

export type MigrationResult = { applied: string[]; total: number }

export function applyMigrations(sqlite: Database, migrations = embedded): MigrationResult {
  sqlite.run(`CREATE TABLE IF NOT EXISTS __migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`)
  const done = new Set(appliedMigrationTags(sqlite))
  const pending = migrations.filter((m) => !done.has(m.tag))
  if (pending.length === 0) return { applied: [], total: migrations.length }

  sqlite.run('PRAGMA foreign_keys = OFF')
  try {
    for (const m of pending) {
      sqlite.transaction(() => {
        for (const stmt of m.sql.split('--> statement-breakpoint')) if (stmt.trim()) sqlite.run(stmt)
        const broken = sqlite.query('PRAGMA foreign_key_check').all()
        if (broken.length > 0) throw new Error(`migration ${m.tag} left ${broken.length} broken foreign key reference(s)`)
        sqlite.run('INSERT INTO __migrations (tag, applied_at) VALUES (?, ?)', [m.tag, Date.now()])
      })()
    }
  } finally {
    sqlite.run('PRAGMA foreign_keys = ON')
  }
  return { applied: pending.map((m) => m.tag), total: migrations.length }
}

/** The tags of the migrations applied to this database (throws when it has no `__migrations` table). */
export function appliedMigrationTags(sqlite: Database): string[] {
  return sqlite
    .query<{ tag: string }, []>('SELECT tag FROM __migrations')
    .all()
    .map((r) => r.tag)
}

/** The database has the `__migrations` table (a database no Dibs migrated has none). */
export function hasMigrationsTable(sqlite: Database): boolean {
  return sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__migrations'").get() !== null
}
