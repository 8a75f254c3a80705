// SQL text on every handle an owner may hold (src/db/raw.ts): the synchronous SQLite handle,
// asyncSqlite (through its transaction gate) and PostgreSQL answer the same rows and counts.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { asAsync, asyncSqlite } from '../../../src/db/async-sqlite'
import { rawRow, rawRows, rawRun } from '../../../src/db/raw'
import { blockedSellers } from '../../../src/db/schema'
import { heldTransaction, useDbHandles } from './handles'

const { sqliteFile, handles } = useDbHandles('raw')

describe.each(handles)('raw SQL on %s', (_name, open) => {
  test('rows as objects by their names, changed-row counts, values as parameters', async () => {
    const db = await open()
    const at = new Date('2026-11-28T01:00:00Z')
    await asAsync(db)
      .insert(blockedSellers)
      .values([
        { name: 'a', reason: 'x', createdAt: at },
        { name: "b'; DROP TABLE users; --", reason: 'y', createdAt: at },
      ])
    const rows = await rawRows<{ name: string; n: number }>(
      db,
      sql`SELECT ${blockedSellers.name} AS name, count(*) AS n FROM ${blockedSellers} WHERE ${blockedSellers.reason} IN (${'x'}, ${'y'}) GROUP BY ${blockedSellers.name} ORDER BY ${blockedSellers.name}`,
    )
    expect(rows.map((r) => [r.name, Number(r.n)])).toEqual([
      ['a', 1],
      ["b'; DROP TABLE users; --", 1],
    ])
    expect(await rawRow(db, sql`SELECT ${blockedSellers.name} AS name FROM ${blockedSellers} WHERE ${blockedSellers.name} = ${'zz'}`)).toBeUndefined()
    expect(await rawRun(db, sql`DELETE FROM ${blockedSellers} WHERE ${blockedSellers.name} = ${'a'}`)).toBe(1)
    expect(await rawRun(db, sql`DELETE FROM ${blockedSellers} WHERE ${blockedSellers.name} = ${'a'}`)).toBe(0)
  }, 60_000)
})

test('on asyncSqlite, SQL text from outside waits for an open transaction instead of joining it', async () => {
  const db = asyncSqlite(sqliteFile().sqlite)
  const tx = await heldTransaction(db)
  const outside = rawRun(db, sql`INSERT INTO ${blockedSellers} (name, reason, created_at) VALUES (${'outside'}, ${'x'}, ${Date.now()})`)
  await Bun.sleep(5)
  tx.rollBack()
  expect(await tx.ended).toBe('rolled back')
  expect(await outside).toBe(1)
  expect((await rawRows<{ name: string }>(db, sql`SELECT name FROM ${blockedSellers}`)).map((r) => r.name)).toEqual(['outside'])
})
