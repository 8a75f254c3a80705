// What the owners' async database (src/db/async-sqlite.ts, issue 29 §2) costs on SQLite beside today's
// synchronous drizzle handle, on the same connection and file, in the same run: 5,000 inserts and
// 20,000 reads by primary key each way. Target: the async form within 2× the synchronous one (the
// step toward PostgreSQL must not make the SQLite default slow).
import { eq } from 'drizzle-orm'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asyncSqlite } from '../src/db/async-sqlite'
import { openDb } from '../src/db/client'
import { users } from '../src/db/schema'

const dir = mkdtempSync(join(tmpdir(), 'dibs-bench-async-'))
const opened = openDb(join(dir, 'dibs.db'))
const sync = opened.db
const adb = asyncSqlite(opened.sqlite)
const INSERTS = 5_000
const READS = 20_000

function time(fn: () => void) {
  const t = performance.now()
  fn()
  return performance.now() - t
}
async function timeAsync(fn: () => Promise<void>) {
  const t = performance.now()
  await fn()
  return performance.now() - t
}

const rows: string[] = []
for (let round = 0; round < 2; round++) {
  const syncInsert = time(() => {
    for (let i = 0; i < INSERTS; i++)
      sync
        .insert(users)
        .values({ email: `s${round}-${i}@example.com` })
        .run()
  })
  const asyncInsert = await timeAsync(async () => {
    for (let i = 0; i < INSERTS; i++) await adb.insert(users).values({ email: `a${round}-${i}@example.com` })
  })
  const syncRead = time(() => {
    for (let i = 0; i < READS; i++)
      sync
        .select()
        .from(users)
        .where(eq(users.id, (i % INSERTS) + 1))
        .get()
  })
  const asyncRead = await timeAsync(async () => {
    for (let i = 0; i < READS; i++)
      await adb
        .select()
        .from(users)
        .where(eq(users.id, (i % INSERTS) + 1))
  })
  rows.push(
    `round ${round + 1}: insert sync ${((syncInsert * 1000) / INSERTS).toFixed(1)} µs, async ${((asyncInsert * 1000) / INSERTS).toFixed(1)} µs (${(asyncInsert / syncInsert).toFixed(2)}×); ` +
      `read sync ${((syncRead * 1000) / READS).toFixed(1)} µs, async ${((asyncRead * 1000) / READS).toFixed(1)} µs (${(asyncRead / syncRead).toFixed(2)}×)`,
  )
  if (round === 1) {
    const worst = Math.max(asyncInsert / syncInsert, asyncRead / syncRead)
    rows.push(`worst ratio ${worst.toFixed(2)}× (target ≤ 2×) ${worst <= 2 ? 'ok' : 'MISSED'}`)
    if (worst > 2) process.exitCode = 1
  }
}
opened.close()
rmSync(dir, { recursive: true, force: true })
console.log(rows.join('\n'))
