// Bytes per stored post (docs/SCALING.md): the demo corpus replayed into a real SQLite file
// through the production store (storePosts: classification, FTS-free columns, indexes), then
// VACUUMed and measured with dbstat per table and index. `bun bench/db-size.ts [posts]`.
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config'
import { openDb } from '../src/db/client'
import { createDemoSource } from '../src/demo/source'
import { storePosts } from '../src/forums/store'

const n = Number(process.argv[2] ?? 20_000)
const dir = mkdtempSync(join(tmpdir(), 'dibs-size-'))
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' })
const opened = openDb(config.dbPath)
const deps = { db: opened.db, sqlite: opened.sqlite, config, now: () => new Date() }
const size = (sqlite: Database) => {
  sqlite.run('VACUUM')
  sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)') // VACUUM in WAL mode lands in the -wal first
  return statSync(config.dbPath).size
}
const empty = size(opened.sqlite)
const start = Date.now() - n * 180_000
const source = createDemoSource({ accessories: config.forums.accessories, deals: config.forums.deals, now: () => start, backlog: n, backlogMs: n * 180_000 })
for (let k = 0; k < n; k += 500)
  await storePosts(
    deps,
    Array.from({ length: Math.min(500, n - k) }, (_, i) => source.postAt(k + i)),
  )
const stored = opened.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM posts').get()!.n
const full = size(opened.sqlite)
let byTable: Record<string, number> = {}
try {
  const rows = opened.sqlite
    .query<{ name: string; bytes: number }, []>("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE '%post%' GROUP BY name ORDER BY bytes DESC")
    .all()
  byTable = Object.fromEntries(rows.map((r) => [r.name, r.bytes]))
} catch {}
const perPost = (full - empty) / stored
const avgTitle = opened.sqlite.query<{ t: number; c: number }, []>('SELECT avg(length(title)) AS t, avg(length(content)) AS c FROM posts').get()!
console.log(
  JSON.stringify(
    {
      posts: stored,
      emptyBytes: empty,
      fullBytes: full,
      bytesPerPost: Math.round(perPost),
      avgTitleChars: Math.round(avgTitle.t),
      avgContentChars: Math.round(avgTitle.c),
      byTable,
    },
    null,
    2,
  ),
)
opened.close()
rmSync(dir, { recursive: true, force: true })
