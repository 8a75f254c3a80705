// The process's database by the configuration (src/db/open.ts): SQLite in DATA_DIR without
// DATABASE_URL, PostgreSQL with it (migrations applied once, the raw SQLite connection absent, the
// password never shown).
import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asAsync } from '../../../src/db/async-sqlite'
import { engineOf } from '../../../src/db/async-db'
import { openDatabase } from '../../../src/db/open'
import { withoutPassword } from '../../../src/lib/urls'
import { migrations as pgMigrations } from '../../../src/db/migrations-pg'
import { users } from '../../../src/db/schema'
import { usePostgres } from '../../pg'

const pg = usePostgres()
const dir = mkdtempSync(join(tmpdir(), 'dibs-open-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('without DATABASE_URL: SQLite in DATA_DIR, with its raw connection', async () => {
  const dbPath = join(dir, 'dibs.db')
  const opened = await openDatabase({ databaseUrl: null, dbPath })
  expect(opened.engine).toBe('sqlite')
  expect(engineOf(opened.db)).toBe('sqlite')
  expect(opened.sqlite).not.toBeNull()
  expect(opened.where).toBe(dbPath)
  expect(existsSync(dbPath)).toBe(true)
  await asAsync(opened.db).insert(users).values({ email: 'a@example.com' })
  expect((await asAsync(opened.db).select().from(users)).map((u) => u.email)).toEqual(['a@example.com'])
  await opened.close()
})

test('with DATABASE_URL: PostgreSQL, migrations applied once, no SQLite connection, no file in DATA_DIR', async () => {
  const url = await pg.server.newDatabase()
  const dbPath = join(dir, 'unused.db')
  const first = await openDatabase({ databaseUrl: url, dbPath })
  expect(first.engine).toBe('postgres')
  expect(engineOf(first.db)).toBe('postgres')
  expect(first.sqlite).toBeNull()
  expect(first.migrations.applied).toEqual(pgMigrations.map((m) => m.tag))
  await asAsync(first.db).insert(users).values({ email: 'b@example.com' })
  const second = await openDatabase({ databaseUrl: url, dbPath })
  expect(second.migrations.applied).toEqual([])
  expect((await second.db.select().from(users)).map((u) => u.email)).toEqual(['b@example.com'])
  expect(existsSync(dbPath)).toBe(false)
  await first.close()
  await second.close()
}, 60_000)

test('the URL as shown hides its password', () => {
  expect(withoutPassword('postgres://dibs:s3cret@db.example:5432/dibs')).toBe('postgres://dibs:…@db.example:5432/dibs')
  expect(withoutPassword('postgres://db.example/dibs')).toBe('postgres://db.example/dibs')
})
