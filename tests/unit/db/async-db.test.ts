// The owners' database on both engines (issue 29 §2): the same code through `AsyncDb` on SQLite
// (src/db/async-sqlite.ts over a real file) and on PostgreSQL (src/db/pg-client.ts on a real server from
// Debian's packages) gives the same answers; SQLite's async transactions are atomic and serialized on
// its one connection.
import { describe, expect, test } from 'bun:test'
import { asc, eq, sql } from 'drizzle-orm'
import { engineOf, type AsyncDb } from '../../../src/db/async-db'
import { asyncSqlite } from '../../../src/db/async-sqlite'
import { matches, posts, systemSettings, users } from '../../../src/db/schema'
import { useDbHandles } from './handles'

const { sqliteFile, postgres } = useDbHandles('async')

function sqliteDb() {
  const opened = sqliteFile()
  return { db: asyncSqlite(opened.sqlite), sqlite: opened.sqlite }
}

const ENGINES: [string, () => Promise<AsyncDb>][] = [
  ['SQLite', async () => sqliteDb().db],
  ['PostgreSQL', postgres],
]

describe.each(ENGINES)('AsyncDb on %s', (name, open) => {
  test('rows, defaults, conflicts, joins and mapped values are the same', async () => {
    const db = await open()
    expect(engineOf(db)).toBe(name === 'SQLite' ? 'sqlite' : 'postgres')
    const at = new Date('2026-11-27T10:02:05.123Z')
    const [u] = await db.insert(users).values({ email: 'a@example.com', emailConfirmedAt: at }).returning()
    expect([u!.id, u!.email, u!.name, u!.emailConfirmedAt]).toEqual([1, 'a@example.com', '', at])
    expect(await db.insert(users).values({ email: 'a@example.com' }).onConflictDoNothing({ target: users.email }).returning()).toEqual([])
    const [p] = await db
      .insert(posts)
      .values({ redditId: 't3_a', forum: 'product', subreddit: 'x', title: '[WTS] PMAG', url: 'https://example.com/a', createdAt: at, price: 12.5 })
      .returning({ id: posts.id })
    await db
      .insert(matches)
      .values({ userId: u!.id, postId: p!.id, category: 'wts', matchedTerms: ['pmag', 'mag'], postTitle: '[WTS] PMAG', postUrl: 'https://example.com/a' })
    const joined = await db
      .select({ email: users.email, terms: matches.matchedTerms, isNew: matches.isNew, price: posts.price, created: posts.createdAt })
      .from(matches)
      .innerJoin(users, eq(users.id, matches.userId))
      .innerJoin(posts, eq(posts.id, matches.postId))
    expect(joined).toEqual([{ email: 'a@example.com', terms: ['pmag', 'mag'], isNew: true, price: 12.5, created: at }])
    await db.update(matches).set({ isNew: false }).where(eq(matches.userId, u!.id))
    const [{ n }] = (await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(matches)
      .where(eq(matches.isNew, false))) as [{ n: number }]
    expect(n).toBe(1)
    await db.insert(systemSettings).values({ name: 'x', value: { active: true } })
    await db
      .insert(systemSettings)
      .values({ name: 'x', value: { active: false } })
      .onConflictDoUpdate({ target: systemSettings.name, set: { value: { active: false } } })
    expect((await db.select().from(systemSettings))[0]!.value).toEqual({ active: false })
  }, 60_000)

  test('a transaction commits whole, or rolls back whole when it throws (after awaiting)', async () => {
    const db = await open()
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'kept@example.com' })
      await Bun.sleep(5)
      await tx.insert(users).values({ email: 'kept2@example.com' })
    })
    const refused = await db
      .transaction(async (tx) => {
        await tx.insert(users).values({ email: 'gone@example.com' })
        await Bun.sleep(5)
        throw new Error('refused')
      })
      .catch((err: Error) => err.message)
    expect(refused).toBe('refused')
    expect((await db.select({ email: users.email }).from(users).orderBy(asc(users.id))).map((r) => r.email)).toEqual(['kept@example.com', 'kept2@example.com'])
  }, 60_000)
})

describe('AsyncDb on SQLite: one connection, one transaction at a time', () => {
  test('a statement from outside waits for the open transaction, and is not rolled back with it', async () => {
    const { db } = sqliteDb()
    let outsideDone = false
    const tx = db.transaction(async (t) => {
      await t.insert(users).values({ email: 'inside@example.com' })
      await Bun.sleep(30)
      // the outside insert was issued meanwhile, and has not run
      expect(outsideDone).toBe(false)
      throw new Error('rolled back')
    })
    await Bun.sleep(5)
    const outside = db
      .insert(users)
      .values({ email: 'outside@example.com' })
      .then(() => (outsideDone = true))
    expect(await tx.catch((err: Error) => err.message)).toBe('rolled back')
    await outside
    expect((await db.select({ email: users.email }).from(users)).map((r) => r.email)).toEqual(['outside@example.com'])
  })

  test('concurrent read-modify-write transactions serialize: no update is lost', async () => {
    const { db } = sqliteDb()
    await db.insert(systemSettings).values({ name: 'counter', value: { active: true, n: 0 } })
    const bump = () =>
      db.transaction(async (tx) => {
        const [row] = await tx.select().from(systemSettings).where(eq(systemSettings.name, 'counter'))
        await Bun.sleep(1)
        await tx
          .update(systemSettings)
          .set({ value: { active: true, n: (row!.value.n as number) + 1 } })
          .where(eq(systemSettings.name, 'counter'))
      })
    await Promise.all(Array.from({ length: 20 }, bump))
    expect((await db.select().from(systemSettings))[0]!.value.n).toBe(20)
  })

  test('a transaction inside a transaction is a savepoint: its failure undoes only its own writes', async () => {
    const { db } = sqliteDb()
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: 'outer@example.com' })
      const refused = await tx
        .transaction(async (inner) => {
          await inner.insert(users).values({ email: 'inner@example.com' })
          throw new Error('inner refused')
        })
        .catch((err: Error) => err.message)
      expect(refused).toBe('inner refused')
    })
    expect((await db.select({ email: users.email }).from(users)).map((r) => r.email)).toEqual(['outer@example.com'])
  })
})
