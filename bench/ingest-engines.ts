// Ingest on both engines, side by side (issue 29): the path of bench/ingest.ts — a listing from the fake
// Reddit arrives → posts parsed, classified and stored → matches stored in one transaction → `match.new`
// on the bus — once on a SQLite file and once on PostgreSQL from Debian's packages (tests/pg.ts), with the
// same subscribers, terms and posts (same seed). The scans alternate between the engines, so both see the
// same load on a shared machine. Target: PostgreSQL's p95 within 2 × SQLite's, measured in the same run.
// Usage: bun bench/ingest-engines.ts [--users 2000] [--terms 20] [--scans 100] [--posts 2] [--seed 7]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadConfig } from '../src/config'
import { insertMany } from '../src/db/bulk'
import { openDatabase, type OpenedDatabase } from '../src/db/open'
import { searchTerms, userAccess, users } from '../src/db/schema'
import type { Deps } from '../src/deps'
import { EventBus } from '../src/lib/bus'
import { setLogLevel } from '../src/lib/log'
import { MatchingService } from '../src/matches/matcher'
import { runScan } from '../src/scanner/scan'
import { startFakeReddit, type FakeReddit } from '../tests/fakes/reddit'
import { SHARED_TEST_SECRETS } from '../tests/engine'
import { startPostgres } from '../tests/pg'
import { benchOptions, pct, timedRedditClient } from './ingest-setup'
import { makePost, makeTerm, rng } from './vocabulary'

const o = benchOptions({ users: 2000, terms: 20, scans: 100, posts: 2, seed: 7 })
const TARGET_RATIO = 2
setLogLevel('silent')

type Side = { name: string; opened: OpenedDatabase; deps: Deps & { matcher: MatchingService }; fake: FakeReddit; scan: () => Promise<number | null> }

/** U subscribers with the bundle plan and T terms each, written through the owners' bulk insert (either engine). */
async function seed(db: Deps['db']) {
  const r = rng(o.seed)
  const termStart = new Date(Date.now() - 3600_000)
  const made = await insertMany(
    db,
    users,
    Array.from({ length: o.users }, (_, u) => ({ email: `bench${u}@example.com`, name: 'Bench', emailConfirmedAt: termStart })),
    { returning: { id: users.id } },
  )
  await insertMany(
    db,
    userAccess,
    made.map((u) => ({ userId: u.id, role: 'product+gd', subscriptionStatus: 'active' })),
  )
  const terms = made.flatMap((u) =>
    Array.from({ length: o.terms }, (_, k) => ({ userId: u.id, category: (['wts', 'wtb', 'gd'] as const)[k % 3], term: makeTerm(r), createdAt: termStart })),
  )
  await insertMany(db, searchTerms, terms, { onConflictDoNothing: true })
}

async function side(name: string, env: Record<string, string>): Promise<Side> {
  const dataDir = mkdtempSync(join(tmpdir(), `dibs-bench-${name}-`))
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...env })
  const opened = await openDatabase(config)
  const base: Deps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: () => new Date() }
  await seed(base.db)
  const matcher = await new MatchingService(base).load()
  const fake = await startFakeReddit()
  const { client, receivedAt } = timedRedditClient(fake.url, base, `ingest ${name}`, () => performance.now())
  const deps = { ...base, matcher, source: client }
  let last = 0
  deps.bus.on('match.new', () => void (last = performance.now()))
  fake.publish({ title: '[WTS] warm-up' })
  await runScan(deps, client)
  return {
    name,
    opened,
    deps,
    fake,
    async scan() {
      last = 0
      const out = await runScan(deps, client)
      if (out.status !== 'success') throw new Error(`${name} scan ${out.status}: ${out.error}`)
      return out.matchesCreated > 0 ? last - receivedAt() : null
    },
  }
}

const pg = await startPostgres()
let failed = false
try {
  const t0 = performance.now()
  const sides = [await side('sqlite', {}), await side('postgres', { DATABASE_URL: await pg.newDatabase(), ...SHARED_TEST_SECRETS })]
  console.log(`setup: ${o.users} users × ${o.terms} terms on each engine in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const times = new Map<string, number[]>(sides.map((s) => [s.name, []]))
  const r = rng(o.seed + 1)
  for (let s = 0; s < o.scans; s++) {
    const posts = Array.from({ length: o.posts }, () => makePost(r))
    for (const x of s % 2 === 0 ? sides : [...sides].reverse()) {
      for (const p of posts)
        x.fake.publish({ title: p.title, selftext: p.content, subreddit: p.category === 'gd' ? x.deps.config.forums.deals : x.deps.config.forums.accessories })
      const ms = await x.scan()
      if (ms !== null) times.get(x.name)!.push(ms)
    }
  }
  const figures = Object.fromEntries(
    [...times].map(([name, list]) => {
      list.sort((a, b) => a - b)
      return [name, { scans: list.length, p50: +pct(list, 50).toFixed(2), p95: +pct(list, 95).toFixed(2), p99: +pct(list, 99).toFixed(2) }]
    }),
  ) as Record<'sqlite' | 'postgres', { scans: number; p50: number; p95: number; p99: number }>
  const ratio = +(figures.postgres.p95 / figures.sqlite.p95).toFixed(2)
  console.log('listing received → stored → every match.new   p50      p95      p99')
  for (const [name, f] of Object.entries(figures))
    console.log(`  ${name.padEnd(44)}${f.p50.toFixed(2).padStart(6)}   ${f.p95.toFixed(2).padStart(6)}   ${f.p99.toFixed(2).padStart(6)}`)
  failed = !(ratio <= TARGET_RATIO)
  console.log(`target: PostgreSQL p95 ≤ ${TARGET_RATIO} × SQLite's: ${ratio}× — ${failed ? 'MISSED' : 'met'}`)
  const out = join(import.meta.dir, 'results', 'ingest-engines.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(
    out,
    JSON.stringify({ ...o, ...figures, ratioP95: ratio, targetRatio: TARGET_RATIO, at: new Date().toISOString(), bun: Bun.version }, null, 2) + '\n',
  )
  for (const x of sides) {
    await x.fake.stop()
    await x.opened.close()
    rmSync(x.deps.config.dataDir, { recursive: true, force: true })
  }
} finally {
  await pg.stop()
}
process.exit(failed ? 1 : 0)
