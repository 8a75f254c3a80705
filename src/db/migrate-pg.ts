// Applies the embedded PostgreSQL migrations (drizzle-pg/, src/db/migrations-pg.ts) in journal order,
// each in its own transaction (PostgreSQL's DDL is transactional: a migration applies whole or not at
// all). Several nodes may start at once on one database: each migration first takes a transaction-level
// advisory lock and re-reads `__migrations`, so exactly one node applies it and the others see it done.
import type postgres from 'postgres'
import { migrations as embedded } from './migrations-pg'
import { LOCKS } from '../cluster/locks'
import type { MigrationResult } from './migrate'

const MIGRATION_LOCK = LOCKS.migrations

export async function applyPgMigrations(sql: postgres.Sql, migrations = embedded): Promise<MigrationResult> {
  // Two nodes creating the table at once collide on PostgreSQL's catalog even with IF NOT EXISTS.
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
    await tx`CREATE TABLE IF NOT EXISTS __migrations (tag text PRIMARY KEY, applied_at bigint NOT NULL)`
  })
  const applied: string[] = []
  for (const m of migrations) {
    const done = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      const [row] = await tx`SELECT 1 AS done FROM __migrations WHERE tag = ${m.tag}`
      if (row) return false
      for (const stmt of m.sql.split('--> statement-breakpoint')) if (stmt.trim()) await tx.unsafe(stmt)
      await tx`INSERT INTO __migrations (tag, applied_at) VALUES (${m.tag}, ${Date.now()})`
      return true
    })
    if (done) applied.push(m.tag)
  }
  return { applied, total: migrations.length }
}
