// Re-check bench: the scanner's live cadence with and without re-check load. Runs the real jobs
// (jobList → the scan's precise timer + the `recheck-posts` job on the cron tick → RedditClient with
// its rate budget) against the fake Reddit, in public and OAuth modes, with RECHECK_BUDGET_SHARE 0
// (off) and the default 0.2, while thousands of stored posts are always due a re-read (the heaviest
// load the re-check can meet). It reports the listing requests' gaps as the fake Reddit saw them, the
// /api/info requests, the most requests of each kind in any 60 s (by send time, as the budget counts), and the ratio of the live gaps with
// load to those without.
//
// Time scale: as bench/scan-latency.ts, one virtual clock for the scanner's timers, its budget and
// the fake Reddit, `scale` times faster than real time (one scan interval ≈ --real-interval-ms). The
// cron tick of the re-check job stays at one real second, i.e. `scale` virtual seconds apart, which
// only makes it ask less often than in production; the budget's side share still decides.
//
// Usage: bun bench/recheck.ts [--intervals 24] [--real-interval-ms 1000] [--due 3000]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadConfig } from '../src/config'
import { openDb } from '../src/db/client'
import type { SqliteDeps } from '../src/deps'
import { toForumPost } from '../src/forums/listing'
import { storePosts } from '../src/forums/store'
import { JOB } from '../src/jobs/log'
import { startJobs } from '../src/jobs/schedule'
import { EventBus } from '../src/lib/bus'
import { setLogLevel } from '../src/lib/log'
import { createServices, jobList, type AppContext } from '../src/services'
import { startFakeReddit } from '../tests/fakes/reddit'
import { benchOptions } from './ingest-setup'
import { virtualClock } from './virtual-clock'

const o = benchOptions({ intervals: 24, 'real-interval-ms': 1000, due: 3000 })
const loadBefore = loadavg()[0]!
setLogLevel('silent')

type Variant = { mode: 'public' | 'oauth'; share: number }
const VARIANTS: Variant[] = [
  { mode: 'public', share: 0 },
  { mode: 'public', share: 0.2 },
  { mode: 'oauth', share: 0 },
  { mode: 'oauth', share: 0.2 },
]

// Reddit's window and ours: (t − 60 s, t]
const maxIn60s = (times: number[]) => Math.max(0, ...times.map((s) => times.filter((t) => t > s - 60_000 && t <= s).length))

async function run(v: Variant) {
  const clock = virtualClock()
  const { now: vnow, timers } = clock
  const fake = await startFakeReddit({ now: vnow })
  const dataDir = mkdtempSync(join(tmpdir(), 'dibs-bench-recheck-'))
  const reddit =
    v.mode === 'oauth'
      ? { REDDIT_BASE_URL: fake.oauthUrl, REDDIT_AUTH_URL: fake.authUrl, REDDIT_CLIENT_ID: fake.clientId, REDDIT_CLIENT_SECRET: fake.clientSecret }
      : { REDDIT_BASE_URL: fake.url }
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', RECHECK_BUDGET_SHARE: String(v.share), ...reddit })
  const opened = openDb(config.dbPath)
  const deps: SqliteDeps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: () => new Date(vnow()) }

  // `due` posts on Reddit and stored, all past their first checkpoint: the re-check always has a full batch.
  const old = Math.floor(vnow() / 1000) - 3600
  const seeded = fake.publishMany(o.due, { created_utc: old })
  await storePosts(
    deps,
    seeded.map((p) => toForumPost(p)!),
  )
  const refill = () => deps.sqlite.run(`UPDATE posts SET ingested_at = ${Math.round(vnow()) - 180_000}, recheck_count = 0`)
  refill()

  const ctx: AppContext = { ...deps, ...(await createServices(deps)) }
  const budget = ctx.source.budget!
  const interval = budget.recommendedIntervalMs()
  // send times as the budget noted them (what the cap and the share are about; arrival times at the
  // fake Reddit carry HTTP latency × scale)
  const sent: { at: number; side: boolean }[] = []
  const [note, noteSide] = [budget.noteRequest.bind(budget), budget.noteSideRequest.bind(budget)]
  budget.noteRequest = (t) => (sent.push({ at: t, side: false }), note(t))
  budget.noteSideRequest = (t) => (sent.push({ at: t, side: true }), noteSide(t))
  clock.speedUp(Math.max(1, interval / o['real-interval-ms']))
  const jobs = startJobs(
    ctx,
    jobList(ctx).filter((j) => j.name === JOB.scan || j.name === JOB.recheck),
    timers,
  )
  const until = vnow() + o.intervals * interval
  while (vnow() < until) {
    fake.publish({ title: `[WTS] bench post ${Math.round(vnow())} - $100` })
    refill()
    await Bun.sleep(o['real-interval-ms'] / 2)
  }
  await jobs.stop()

  const listing = fake.listingRequests().map((r) => r.at)
  const infoServed = fake.infoRequests().length
  const info = sent.filter((x) => x.side).map((x) => x.at)
  const gaps = listing.slice(1).map((t, i) => t - listing[i]!)
  const all = sent.map((x) => x.at)
  await fake.stop()
  opened.close()
  rmSync(dataDir, { recursive: true, force: true })
  const cap = ctx.source.budget!.capPerMinute
  return {
    mode: v.mode,
    share: v.share,
    intervalMs: interval,
    scale: +clock.scale.toFixed(2),
    listingRequests: listing.length,
    infoRequests: infoServed,
    gapMs: { mean: Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length), max: Math.round(Math.max(...gaps)) },
    maxListingIn60s: maxIn60s(sent.filter((x) => !x.side).map((x) => x.at)),
    maxInfoIn60s: maxIn60s(info),
    maxAllIn60s: maxIn60s(all),
    capPerMinute: cap,
    sideAllowedPerMinute: +(cap * v.share).toFixed(1),
  }
}

const rows: Awaited<ReturnType<typeof run>>[] = []
for (const v of VARIANTS) rows.push(await run(v))
const base = (r: (typeof rows)[number]) => rows.find((x) => x.mode === r.mode && x.share === 0)!
const result = rows.map((r) => ({
  ...r,
  gapRatioMean: +(r.gapMs.mean / base(r).gapMs.mean).toFixed(3),
  gapRatioMax: +(r.gapMs.max / base(r).gapMs.max).toFixed(3),
}))

console.log(
  `re-check load: ${o.due} stored posts always due, ${o.intervals} scan intervals per variant; virtual clock, one interval ≈ ${o['real-interval-ms']} ms real`,
)
const load = { before: +loadBefore.toFixed(2), after: +loadavg()[0]!.toFixed(2) }
console.log(`machine: Bun ${Bun.version}, load average (1 min) ${load.before} before, ${load.after} after`)
console.table(
  result.map((r) => ({
    mode: r.mode,
    RECHECK_BUDGET_SHARE: r.share,
    'interval s': r.intervalMs / 1000,
    scans: r.listingRequests,
    'gap mean/max ms': `${r.gapMs.mean} / ${r.gapMs.max}`,
    'gap ratio mean/max': `${r.gapRatioMean} / ${r.gapRatioMax}`,
    'info requests': r.infoRequests,
    'info max in 60 s': `${r.maxInfoIn60s} / ${r.sideAllowedPerMinute}`,
    'all max in 60 s': `${r.maxAllIn60s} / cap ${r.capPerMinute}`,
  })),
)
// The live cadence holds when the gaps with load are those without (within 5 %), the re-check stays
// within its share, and the two together never pass the cap.
const ok = result.every((r) => r.gapRatioMean <= 1.05 && r.maxInfoIn60s <= Math.max(1, Math.ceil(r.sideAllowedPerMinute)) && r.maxAllIn60s <= r.capPerMinute)
console.log(`live cadence unchanged under re-check load, re-check within its share, cap never passed: ${ok ? 'yes' : 'NO'}`)
const out = join(import.meta.dir, 'results', 'recheck.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), bun: Bun.version, load, options: o, rows: result }, null, 2) + '\n')
process.exit(ok ? 0 : 1)
