// What src/db answers about its own `__migrations` table for /readyz and `dibs doctor` (issue 29 §1:
// they no longer query it themselves).
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { applyMigrations, appliedMigrationTags, hasMigrationsTable } from '../../../src/db/migrate'
import { migrations } from '../../../src/db/migrations'

test('a database no Dibs migrated has no __migrations table; reading its tags throws', () => {
  const db = new Database(':memory:')
  expect(hasMigrationsTable(db)).toBe(false)
  expect(() => appliedMigrationTags(db)).toThrow()
  db.close()
})

test('after the migrations: the table is there and holds every embedded tag', () => {
  const db = new Database(':memory:')
  applyMigrations(db)
  expect(hasMigrationsTable(db)).toBe(true)
  expect(appliedMigrationTags(db).sort()).toEqual(migrations.map((m) => m.tag).sort())
  db.close()
})
