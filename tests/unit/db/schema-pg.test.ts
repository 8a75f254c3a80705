// The PostgreSQL form of the schema (issue 29 §2): derived from src/db/schema.ts, generated into
// drizzle-pg/, applied to a real PostgreSQL server from Debian's packages (tests/pg.ts), and in step
// with the SQLite database the same build migrates: same tables, columns, nullability, keys, indexes.
import postgres from 'postgres'
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { eq, sql } from 'drizzle-orm'
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api'
import { readFileSync } from 'node:fs'
import { applyMigrations } from '../../../src/db/migrate'
import { applyPgMigrations } from '../../../src/db/migrate-pg'
import { openPg } from '../../../src/db/pg-client'
import { matches, outbox, posts, users } from '../../../src/db/schema'
import { migrations as pgMigrations } from '../../../src/db/migrations-pg'
import { PG_DEFAULTS, pgFromSqlite, pgSchema } from '../../../src/db/schema-pg'
import { usePostgres } from '../../pg'

const pg = usePostgres()

type Col = { table: string; column: string; type: string; notNull: boolean }

/** The SQLite side: every table and column of a database migrated by the build, as SQLite reports them. */
function sqliteColumns(): { cols: Col[]; indexes: string[] } {
  const db = new Database(':memory:')
  applyMigrations(db)
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__migrations'")
    .all()
    .map((r) => r.name)
  const cols = tables.flatMap((t) =>
    db
      .query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info("${t}")`)
      .all()
      .map((c) => ({ table: t, column: c.name, type: c.type.toLowerCase(), notNull: c.notnull === 1 || c.pk > 0 })),
  )
  const indexes = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    .all()
    .map((r) => r.name)
  db.close()
  return { cols, indexes }
}

const TYPE_OF: Record<string, string[]> = { integer: ['bigint', 'boolean'], text: ['text', 'jsonb'], real: ['double precision'] }

describe('the schema on PostgreSQL', () => {
  test("drizzle-pg/ holds today's schema (no change without its migration: bun run db:generate)", async () => {
    const journal = JSON.parse(readFileSync('drizzle-pg/meta/_journal.json', 'utf8')) as { entries: { tag: string }[] }
    const last = journal.entries.at(-1)!
    const snapshot = JSON.parse(readFileSync(`drizzle-pg/meta/${last.tag.slice(0, 4)}_snapshot.json`, 'utf8'))
    expect(await generateMigration(snapshot, generateDrizzleJson(pgSchema, snapshot.id))).toEqual([])
    expect(pgMigrations.map((m) => m.tag)).toEqual(journal.entries.map((e) => e.tag))
  })

  test('a SQLite default with no PostgreSQL form is refused, not copied', () => {
    const t = sqliteTable('probe', { id: integer('id').primaryKey(), at: integer('at').default(sql`(strftime('%s', 'now'))`) })
    expect(() => pgFromSqlite(t)).toThrow("probe.at: the SQLite default (strftime('%s', 'now')) has no PostgreSQL form in PG_DEFAULTS")
    expect(Object.keys(PG_DEFAULTS)).toContain("(unixepoch('subsec') * 1000)")
  })

  test('the migrations apply to an empty database once; three nodes starting together apply each once', async () => {
    const url = await pg.server.newDatabase()
    const nodes = [postgres(url, { onnotice: () => {} }), postgres(url, { onnotice: () => {} }), postgres(url, { onnotice: () => {} })]
    const results = await Promise.all(nodes.map((n) => applyPgMigrations(n)))
    expect(results.flatMap((r) => r.applied).sort()).toEqual(pgMigrations.map((m) => m.tag).sort())
    expect((await applyPgMigrations(nodes[0]!)).applied).toEqual([])
    const rows = await nodes[0]!`SELECT count(*)::int AS n FROM __migrations`
    expect(rows[0].n).toBe(pgMigrations.length)
    await Promise.all(nodes.map((n) => n.end()))
  }, 60_000)

  test('every SQLite table and column exists on PostgreSQL with the mapped type and the same nullability and indexes', async () => {
    const url = await pg.server.newDatabase()
    const client = postgres(url, { onnotice: () => {} })
    await applyPgMigrations(client)
    const pgCols = (await client`
      SELECT table_name AS "table", column_name AS "column", data_type AS type, is_nullable = 'NO' AS "notNull"
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '__migrations'`) as unknown as Col[]
    const pgIndexes = ((await client`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`) as unknown as { indexname: string }[]).map(
      (r) => r.indexname,
    )
    await client.end()
    const lite = sqliteColumns()
    const key = (c: Col) => `${c.table}.${c.column}`
    expect(pgCols.map(key).sort()).toEqual(lite.cols.map(key).sort())
    const byKey = new Map(pgCols.map((c) => [key(c), c]))
    const wrong = lite.cols.flatMap((c) => {
      const p = byKey.get(key(c))!
      const types = TYPE_OF[c.type] ?? []
      return types.includes(p.type) && p.notNull === c.notNull ? [] : [`${key(c)}: SQLite ${c.type} ${c.notNull} → PostgreSQL ${p.type} ${p.notNull}`]
    })
    expect(wrong).toEqual([])
    // Every named SQLite index is on PostgreSQL (which adds its own for primary keys and unique columns).
    expect(lite.indexes.filter((i) => !pgIndexes.includes(i))).toEqual([])
  }, 60_000)

  test('the SQLite tables run on PostgreSQL through openPg: the same values back (Dates, booleans, JSON, numbers), defaults, conflicts, foreign keys', async () => {
    const { db, close, migrations } = await openPg(await pg.server.newDatabase())
    expect(migrations.applied).toEqual(pgMigrations.map((m) => m.tag))
    const confirmed = new Date('2026-11-27T10:02:05.123Z')
    const [u] = await db.insert(users).values({ email: 'a@example.com', emailConfirmedAt: confirmed }).returning()
    expect(u!.id).toBe(1)
    expect(u!.emailConfirmedAt).toEqual(confirmed)
    expect(u!.createdAt).toBeInstanceOf(Date)
    expect(Number.isNaN(u!.createdAt.getTime())).toBe(false)
    expect(u!.name).toBe('')
    // a conflict does nothing and returns nothing, as on SQLite
    expect(await db.insert(users).values({ email: 'a@example.com' }).onConflictDoNothing({ target: users.email }).returning()).toEqual([])
    const [p] = await db
      .insert(posts)
      .values({ redditId: 't3_abc', forum: 'product', subreddit: 'x', title: '[WTS] PMAG', url: 'https://example.com/p', createdAt: confirmed, price: 12.5 })
      .returning()
    const [m] = await db
      .insert(matches)
      .values({
        userId: u!.id,
        postId: p!.id,
        category: 'wts',
        matchedTerms: ['pmag'],
        postTitle: p!.title,
        postUrl: p!.url,
        priceDrop: { from: 15, to: 12.5 },
      })
      .returning()
    expect([m!.isNew, m!.matchedTerms, m!.priceDrop]).toEqual([true, ['pmag'], { from: 15, to: 12.5 }])
    await db.update(matches).set({ isNew: false }).where(eq(matches.id, m!.id))
    const [read] = await db.select().from(matches).where(eq(matches.isNew, false))
    expect([read!.id, read!.isNew]).toEqual([m!.id, false])
    expect((await db.select().from(posts).where(eq(posts.id, p!.id)))[0]!.price).toBe(12.5)
    const [row] = await db
      .insert(outbox)
      .values({ channel: 'email', kind: 'confirm', payload: { to: 'a@example.com' } })
      .returning()
    expect([row!.status, row!.payload, row!.nextAttemptAt instanceof Date]).toEqual(['pending', { to: 'a@example.com' }, true])
    // ON DELETE SET NULL and CASCADE as on SQLite
    await db.delete(posts).where(eq(posts.id, p!.id))
    expect((await db.select().from(matches))[0]!.postId).toBeNull()
    await db.delete(users).where(eq(users.id, u!.id))
    expect(await db.select().from(matches)).toEqual([])
    await close()
  }, 60_000)
})
