// Many rows at once (src/db/bulk.ts) on every handle an owner may hold: values mapped by their
// columns (dates, JSON, booleans), database defaults for columns left out, conflicts skipped,
// returned columns mapped back, and on asyncSqlite the transaction gate kept.
import { describe, expect, test } from 'bun:test'
import { asc, like } from 'drizzle-orm'
import { asAsync, asyncSqlite } from '../../../src/db/async-sqlite'
import { insertMany } from '../../../src/db/bulk'
import { blockedSellers, maintenanceLogs, sources } from '../../../src/db/schema'
import { heldTransaction, useDbHandles } from './handles'

const { sqliteFile, handles } = useDbHandles('bulk')

describe.each(handles)('insertMany on %s', (_name, open) => {
  test('maps values by their columns, answers the returned columns mapped back, skips conflicting rows', async () => {
    const db = await open()
    const at = new Date('2026-11-28T04:00:00.123Z')
    const back = await insertMany(
      db,
      maintenanceLogs,
      [
        { jobName: 'a', status: 'success', executedAt: at, durationMs: 5, details: { n: 1, list: ['x'] } },
        { jobName: "b'; DROP TABLE users; --", status: 'failed', executedAt: at, details: null },
      ],
      { returning: { id: maintenanceLogs.id, at: maintenanceLogs.executedAt, details: maintenanceLogs.details, ms: maintenanceLogs.durationMs } },
    )
    expect(back.map((r) => [r.at, r.details, r.ms])).toEqual([
      [at, { n: 1, list: ['x'] }, 5],
      [at, null, 0], // durationMs left out: the column's default
    ])
    expect(back[1]!.id).toBeGreaterThan(back[0]!.id)
    const stored = await asAsync(db).select().from(maintenanceLogs).orderBy(asc(maintenanceLogs.id))
    expect(stored.map((r) => [r.jobName, r.executedAt, r.details])).toEqual([
      ['a', at, { n: 1, list: ['x'] }],
      ["b'; DROP TABLE users; --", at, null],
    ])

    // booleans and a default of true; rows of two shapes in one call
    await insertMany(db, sources, [
      { forum: 'accessories', kind: 'feed', name: 'on by default' },
      { forum: 'accessories', kind: 'feed', name: 'off', enabled: false },
      { forum: 'accessories', kind: 'feed', name: 'on', enabled: true },
    ])
    await asAsync(db).insert(sources).values({ forum: 'deals', kind: 'feed', name: 'on, one row', enabled: true })
    const src = await asAsync(db).select({ name: sources.name, enabled: sources.enabled }).from(sources).orderBy(asc(sources.id))
    expect(src).toEqual([
      { name: 'on by default', enabled: true },
      { name: 'off', enabled: false },
      { name: 'on', enabled: true },
      { name: 'on, one row', enabled: true },
    ])

    // on conflict do nothing: a row already there answers nothing and keeps its values
    await insertMany(db, blockedSellers, [{ name: 'kept', reason: 'first', createdAt: at }])
    const added = await insertMany(
      db,
      blockedSellers,
      [
        { name: 'kept', reason: 'second', createdAt: at },
        { name: 'new', reason: 'x', createdAt: at },
      ],
      { onConflictDoNothing: [blockedSellers.name], returning: { name: blockedSellers.name } },
    )
    expect(added).toEqual([{ name: 'new' }])
    const sellers = await asAsync(db)
      .select({ name: blockedSellers.name, reason: blockedSellers.reason })
      .from(blockedSellers)
      .orderBy(asc(blockedSellers.name))
    expect(sellers).toEqual([
      { name: 'kept', reason: 'first' },
      { name: 'new', reason: 'x' },
    ])
    await insertMany(db, blockedSellers, [{ name: 'kept', reason: 'third', createdAt: at }], { onConflictDoNothing: true })
    // text an array literal must escape (PostgreSQL's unnest path): quotes, backslashes, braces, commas, the word NULL
    const odd = ['a"b\\c{d},e', 'NULL', '', 'ünï “q” \\"']
    await insertMany(
      db,
      blockedSellers,
      odd.map((reason, i) => ({ name: `odd${i}`, reason, createdAt: at })),
    )
    const back2 = await asAsync(db)
      .select({ reason: blockedSellers.reason })
      .from(blockedSellers)
      .where(like(blockedSellers.name, 'odd%'))
      .orderBy(asc(blockedSellers.name))
    expect(back2.map((r) => r.reason)).toEqual(odd)
    expect(await insertMany(db, blockedSellers, [], { returning: { name: blockedSellers.name } })).toEqual([])
  }, 60_000)

  test('inside a transaction: rolled back with it', async () => {
    const db = await open()
    await asAsync(db)
      .transaction(async (tx) => {
        await insertMany(tx, blockedSellers, [{ name: 'gone', reason: 'x', createdAt: new Date() }])
        throw new Error('roll back')
      })
      .catch(() => null)
    expect(await asAsync(db).select().from(blockedSellers)).toEqual([])
  }, 60_000)
})

test('on asyncSqlite, rows inserted from outside wait for an open transaction instead of joining it', async () => {
  const db = asyncSqlite(sqliteFile().sqlite)
  const tx = await heldTransaction(db)
  const outside = insertMany(db, blockedSellers, [{ name: 'outside', reason: 'x', createdAt: new Date() }])
  await Bun.sleep(5)
  tx.rollBack()
  expect(await tx.ended).toBe('rolled back')
  await outside
  expect((await db.select({ name: blockedSellers.name }).from(blockedSellers)).map((r) => r.name)).toEqual(['outside'])
})
