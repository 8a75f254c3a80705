// Ingest bench: a listing arrives from (fake) Reddit → posts stored → matches stored in one
// transaction → match.new on the event bus. Measures that processing part per scan (from the
// moment the listing body is in hand, so parsing counts; the poll wait and the HTTP round trip do
// not), on a real SQLite file with U users × T terms and realistic vocabulary.
// The baseline, measured in the same run: SQLite's own work for each scan, the floor of this path —
// the scan's stored posts, match rows and term links copied into a second file of the same schema
// and subscribers with prepared bun:sqlite statements in one transaction. The target is a ratio of
// the two p95s (docs/development.md "Ingest").
// Usage: bun bench/ingest.ts [--users 2000] [--terms 20] [--scans 300] [--posts 2] [--seed 7]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadConfig } from '../src/config'
import { openDb } from '../src/db/client'
import type { SqliteDeps } from '../src/deps'
import { setLogLevel } from '../src/lib/log'
import { EventBus } from '../src/lib/bus'
import { MatchingService } from '../src/matches/matcher'
import { runScan } from '../src/scanner/scan'
import { startFakeReddit } from '../tests/fakes/reddit'
import { benchOptions, pct, seedSubscribers, timedRedditClient } from './ingest-setup'
import { makePost } from './vocabulary'

const o = benchOptions({ users: 2000, terms: 20, scans: 300, posts: 2, seed: 7 })
setLogLevel('silent')

const dataDir = mkdtempSync(join(tmpdir(), 'dibs-bench-ingest-'))
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' })
const opened = openDb(config.dbPath)
const base: SqliteDeps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: () => new Date() }
/** pipeline p95 ≤ this × the floor's p95 */
const TARGET_RATIO = 3.5

// Users with a plan and their terms, written straight into the database.
const t0 = performance.now()
const { r } = seedSubscribers(base, o)
// The floor's file: the same subscribers and terms (same seed, so the same ids).
const floorDb = openDb(join(dataDir, 'floor.db'))
seedSubscribers({ ...base, db: floorDb.db, sqlite: floorDb.sqlite }, o)
/** Copies a scan's rows (posts after `postsAfter`, their matches and links; a match moved to a repost replaces its row) into the floor's file; answers the ms it took. */
function floorOf(postsAfter: number): number {
  const rows = (table: string, where: string, arg: number) => opened.sqlite.query(`SELECT * FROM ${table} WHERE ${where}`).all(arg) as Record<string, unknown>[]
  const postRows = rows('posts', 'id > ?', postsAfter)
  const matchRows = rows('matches', 'post_id > ?', postsAfter)
  const linkRows = rows('match_terms', 'match_id IN (SELECT id FROM matches WHERE post_id > ?)', postsAfter)
  const insert = (table: string, list: Record<string, unknown>[]) => {
    if (list.length === 0) return
    const cols = Object.keys(list[0]!)
    const stmt = floorDb.sqlite.query(`INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
    for (const row of list) stmt.run(...(cols.map((c) => row[c]) as never[]))
  }
  const t = performance.now()
  floorDb.sqlite.transaction(() => {
    insert('posts', postRows)
    insert('matches', matchRows)
    insert('match_terms', linkRows)
  })()
  return performance.now() - t
}
const matcher = await new MatchingService(base).load() // after seeding: the index loads the seeded terms
console.log(`setup: ${o.users} users × ${o.terms} terms = ${matcher.size} terms indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

// Fake Reddit; the client's fetch notes when each listing body has arrived.
const fake = await startFakeReddit()
const { client, receivedAt } = timedRedditClient(fake.url, base, 'ingest bench', () => performance.now())
const deps = { ...base, matcher, source: client }
let lastAlertAt = 0
let firstAlertAt = 0
deps.bus.on('match.new', () => {
  const t = performance.now()
  if (firstAlertAt === 0) firstAlertAt = t
  lastAlertAt = t
})

fake.publish({ title: '[WTS] warm-up' })
await runScan(deps, client)
const all: number[] = []
const first: number[] = []
const floor: number[] = []
let matches = 0
for (let s = 0; s < o.scans; s++) {
  for (let i = 0; i < o.posts; i++) {
    const p = makePost(r)
    fake.publish({ title: p.title, selftext: p.content, subreddit: p.category === 'gd' ? config.forums.deals : config.forums.accessories })
  }
  firstAlertAt = lastAlertAt = 0
  const postsAfter = (opened.sqlite.query('SELECT coalesce(max(id), 0) AS id FROM posts').get() as { id: number }).id
  const out = await runScan(deps, client)
  if (out.status !== 'success') throw new Error(`scan ${s} ${out.status}: ${out.error}`)
  matches += out.matchesCreated
  if (out.matchesCreated > 0) {
    all.push(lastAlertAt - receivedAt())
    first.push(firstAlertAt - receivedAt())
    floor.push(floorOf(postsAfter))
  }
}
all.sort((a, b) => a - b)
first.sort((a, b) => a - b)
floor.sort((a, b) => a - b)
const ratio = +(pct(all, 95) / pct(floor, 95)).toFixed(2)
const result = {
  users: o.users,
  terms: matcher.size,
  scans: o.scans,
  postsPerScan: o.posts,
  scansWithMatches: all.length,
  matchesCreated: matches,
  matchesPerScan: Math.round(matches / Math.max(1, all.length)),
  firstAlertMs: { p50: +pct(first, 50).toFixed(2), p95: +pct(first, 95).toFixed(2) },
  allAlertsMs: { p50: +pct(all, 50).toFixed(2), p95: +pct(all, 95).toFixed(2), p99: +pct(all, 99).toFixed(2), max: +all.at(-1)!.toFixed(2) },
  floorMs: { p50: +pct(floor, 50).toFixed(2), p95: +pct(floor, 95).toFixed(2) },
  ratioP95: ratio,
  targetRatio: TARGET_RATIO,
}
console.log(`scans with matches: ${all.length}/${o.scans}, ${matches} matches (${result.matchesPerScan} per scan)`)
console.log('listing received → stored → match.new   p50      p95      p99      max')
console.log(`  first alert of the scan (ms)          ${result.firstAlertMs.p50.toFixed(2).padStart(6)}   ${result.firstAlertMs.p95.toFixed(2).padStart(6)}`)
console.log(
  `  every alert of the scan (ms)          ${result.allAlertsMs.p50.toFixed(2).padStart(6)}   ${result.allAlertsMs.p95.toFixed(2).padStart(6)}   ${result.allAlertsMs.p99.toFixed(2).padStart(6)}   ${result.allAlertsMs.max.toFixed(2).padStart(6)}`,
)
console.log(`  floor: SQLite storing the same rows    ${result.floorMs.p50.toFixed(2).padStart(6)}   ${result.floorMs.p95.toFixed(2).padStart(6)}`)
const ok = ratio <= TARGET_RATIO
console.log(`target p95 ≤ ${TARGET_RATIO} × the floor's p95: ${ratio}× — ${ok ? 'met' : 'MISSED'}`)
const out = join(import.meta.dir, 'results', 'ingest.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, JSON.stringify({ ...result, at: new Date().toISOString(), bun: Bun.version }, null, 2) + '\n')

await fake.stop()
opened.close()
floorDb.close()
rmSync(dataDir, { recursive: true, force: true })
process.exit(ok ? 0 : 1)
