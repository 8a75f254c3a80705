// Scan latency bench: how long a post waits between being published on (fake) Reddit and being stored
// (and its match stored), as a multiple of the scan interval. Runs the real scan job (jobList →
// startJobs' precise timer → runScan → RedditClient with its rate budget) against the fake Reddit
// (tests/fakes/reddit.ts), in Atom mode (no key: the www feed, 10 requests/min) and OAuth mode, with
// posts published at random moments.
//
// Time scale: Reddit's 60 s window would make an Atom run take many minutes, so the scanner's
// clock, its timers, its rate budget and the fake Reddit all run on one virtual clock that goes
// `scale` times faster than real time (one interval lasts --real-interval-ms, default 1 s). Each
// scan's processing (HTTP, SQLite, matching) takes real time, so in virtual time it weighs `scale`
// times more than it would in production. The target allows for it: published → stored p95 ≤ 1.1 ×
// interval + p95 processing (virtual). --realtime 1 runs unscaled (slow: about 5 min per Atom variant).
// Baseline, from the same posts: an ideal scanner that requests exactly every interval and takes no
// time. With uniformly random posts its p50 is about 0.5 × interval and its p95 about 0.95 ×.
//
// Usage: bun bench/scan-latency.ts [--intervals 30] [--posts 4] [--real-interval-ms 1000] [--users 200] [--seed 7] [--realtime 0]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { loadConfig } from '../src/config'
import { openDb } from '../src/db/client'
import type { SqliteDeps } from '../src/deps'
import { JOB } from '../src/jobs/log'
import { startJobs } from '../src/jobs/schedule'
import { EventBus } from '../src/lib/bus'
import { log, setLogLevel } from '../src/lib/log'
import { createServices, jobList, type AppContext } from '../src/services'
import { startFakeReddit } from '../tests/fakes/reddit'
import { benchOptions, pct, seedSubscribers } from './ingest-setup'
import { rng } from './vocabulary'
import { virtualClock } from './virtual-clock'

const o = benchOptions({ intervals: 30, posts: 4, 'real-interval-ms': 1000, users: 200, seed: 7, realtime: 0 })
const loadBefore = loadavg()[0]!
setLogLevel('silent')

type Variant = { name: string; mode: 'atom' | 'oauth'; env: Record<string, string> }
const VARIANTS: Variant[] = [
  { name: 'Atom, adaptive', mode: 'atom', env: {} },
  { name: 'Atom, SCAN_INTERVAL_SECONDS=2', mode: 'atom', env: { SCAN_INTERVAL_SECONDS: '2' } },
  { name: 'OAuth, adaptive', mode: 'oauth', env: {} },
  { name: 'OAuth, SCAN_INTERVAL_SECONDS=1', mode: 'oauth', env: { SCAN_INTERVAL_SECONDS: '1' } },
]

async function run(v: Variant) {
  // One virtual clock for the scanner, its timers, its budget and the fake Reddit.
  const clock = virtualClock()
  const { now: vnow, timers } = clock

  const fake = await startFakeReddit({ now: vnow })
  const dataDir = mkdtempSync(join(tmpdir(), 'dibs-bench-scan-'))
  const reddit =
    v.mode === 'oauth'
      ? { REDDIT_BASE_URL: fake.oauthUrl, REDDIT_AUTH_URL: fake.authUrl, REDDIT_CLIENT_ID: fake.clientId, REDDIT_CLIENT_SECRET: fake.clientSecret }
      : { REDDIT_BASE_URL: fake.url }
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...reddit, ...v.env })
  const opened = openDb(config.dbPath)
  const deps: SqliteDeps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: () => new Date(vnow()) }

  // Subscribers with realistic terms, and one probe term that every bench post matches.
  const { ids } = seedSubscribers(deps, { users: o.users, terms: 20, seed: o.seed })
  deps.sqlite.query("INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, 'wts', 'latency probe', ?)").run(ids[0]!, vnow() - 3600_000)
  const ctx: AppContext = { ...deps, ...(await createServices(deps)) }
  if (ctx.source.mode !== v.mode) throw new Error(`${v.name}: the source runs in ${ctx.source.mode} mode`)
  const interval = ctx.source.budget!.recommendedIntervalMs()
  clock.speedUp(o.realtime ? 1 : Math.max(1, interval / o['real-interval-ms']))

  const matchedAt = new Map<string, number>()
  deps.bus.on('match.new', ({ match }) => void matchedAt.set(match.title, vnow()))
  const storedAt = new Map<string, number>()
  deps.bus.on('post.new', ({ post }) => void storedAt.set(post.title, vnow()))
  const warnings: string[] = []
  const warn = log.warn
  log.warn = (msg) => void warnings.push(msg)
  const jobs = startJobs(
    ctx,
    jobList(ctx).filter((j) => j.name === JOB.scan),
    timers,
  )
  log.warn = warn
  const startedAt = vnow()

  // Posts at uniformly random moments over `intervals` intervals, after the first (empty database) scan.
  const r = rng(o.seed)
  const from = startedAt + 1.5 * interval
  const span = o.intervals * interval
  const times = Array.from({ length: o.intervals * o.posts }, () => from + r() * span).sort((a, b) => a - b)
  const publishedAt = new Map<string, number>()
  for (const [i, at] of times.entries()) {
    await clock.sleep(at - vnow())
    const title = `[WTS] latency probe ${i} - $${100 + i}`
    fake.publish({ title })
    publishedAt.set(title, vnow())
  }
  await clock.sleep(from + span + 2 * interval - vnow())
  await jobs.stop()

  const all = [...publishedAt].map(([title, at]) => (storedAt.get(title) ?? NaN) - at)
  const waits = all.filter((w) => !Number.isNaN(w)).sort((a, b) => a - b)
  const matchWaits = [...publishedAt]
    .map(([title, at]) => (matchedAt.get(title) ?? NaN) - at)
    .filter((w) => !Number.isNaN(w))
    .sort((a, b) => a - b)
  const missed = all.length - waits.length + (all.length - matchWaits.length)
  const scans = deps.sqlite.query<{ d: number }, []>("SELECT duration_ms AS d FROM scan_metrics WHERE status = 'success' ORDER BY d").all()
  const processing = scans.map((s) => s.d * clock.scale)
  const requests = fake.listingRequests().map((q) => q.at)
  // the same posts under an ideal scanner: a request exactly every interval from the first, no processing
  const ideal = [...publishedAt.values()].map((at) => Math.ceil((at - requests[0]!) / interval) * interval + requests[0]! - at).sort((a, b) => a - b)
  const gaps = requests.slice(1).map((t, i) => t - requests[i]!)
  // as the fake Reddit saw them arrive (so HTTP latency under load shows in the gaps)
  const perMinute = Math.max(...requests.map((s) => requests.filter((t) => t >= s && t < s + 60_000).length))

  await fake.stop()
  opened.close()
  rmSync(dataDir, { recursive: true, force: true })

  const ratio = (ms: number) => +(ms / interval).toFixed(3)
  const p95Processing = pct(processing, 95)
  const p95 = pct(waits, 95)
  return {
    variant: v.name,
    mode: v.mode,
    configuredSeconds: config.scanIntervalSeconds,
    intervalMs: interval,
    scale: +clock.scale.toFixed(2),
    posts: all.length,
    missed,
    latencyMs: { p50: Math.round(pct(waits, 50)), p95: Math.round(p95), max: Math.round(waits.at(-1)!) },
    latencyRatio: { p50: ratio(pct(waits, 50)), p95: ratio(p95), max: ratio(waits.at(-1)!) },
    matchP95Ratio: ratio(pct(matchWaits, 95)),
    idealRatio: { p50: ratio(pct(ideal, 50)), p95: ratio(pct(ideal, 95)) },
    processingRealMs: {
      p50: pct(
        scans.map((s) => s.d),
        50,
      ),
      p95: pct(
        scans.map((s) => s.d),
        95,
      ),
    },
    processingVirtualMsP95: Math.round(p95Processing),
    targetMs: Math.round(1.1 * interval + p95Processing),
    met: missed === 0 && p95 <= 1.1 * interval + p95Processing,
    requests: requests.length,
    gapMs: { min: Math.round(Math.min(...gaps)), mean: Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length), max: Math.round(Math.max(...gaps)) },
    maxRequestsInAnyMinute: perMinute,
    capPerMinute: ctx.source.budget!.capPerMinute,
    warnings,
  }
}

const rows = []
for (const v of VARIANTS) rows.push(await run(v))

console.log(
  `scan latency: post published on the fake Reddit → post stored (and its match), ${o.intervals} intervals × ${o.posts} posts at random moments per variant, ${o.users} subscribers × 20 terms`,
)
console.log(
  o.realtime
    ? 'time scale: real time'
    : `time scale: virtual clock, one interval = ${o['real-interval-ms']} ms real (scale column); processing counts ×scale in virtual time`,
)
const load = { before: +loadBefore.toFixed(2), after: +loadavg()[0]!.toFixed(2) }
console.log(`machine: Bun ${Bun.version}, load average (1 min) ${load.before} before, ${load.after} after`)
console.table(
  rows.map((r) => ({
    variant: r.variant,
    'interval s': r.intervalMs / 1000,
    scale: r.scale,
    'p50 ×I': r.latencyRatio.p50,
    'p95 ×I': r.latencyRatio.p95,
    'max ×I': r.latencyRatio.max,
    'match p95 ×I': r.matchP95Ratio,
    'ideal p50/p95 ×I': `${r.idealRatio.p50} / ${r.idealRatio.p95}`,
    'p95 proc. ms (virt.)': r.processingVirtualMsP95,
    'target p95 ms': r.targetMs,
    'p95 ms': r.latencyMs.p95,
    met: r.met ? 'yes' : 'NO',
  })),
)
console.log('listing requests as the fake Reddit received them (gaps in virtual ms), and scan durations (real ms):')
console.table(
  rows.map((r) => ({
    variant: r.variant,
    requests: r.requests,
    'gap min ms': r.gapMs.min,
    'gap mean ms': r.gapMs.mean,
    'gap max ms': r.gapMs.max,
    'max in any 60 s': `${r.maxRequestsInAnyMinute} / cap ${r.capPerMinute}`,
    'scan p50/p95 ms (real)': `${r.processingRealMs.p50} / ${r.processingRealMs.p95}`,
    missed: r.missed,
  })),
)
for (const r of rows) for (const w of r.warnings) console.log(`startup warning (${r.variant}): ${w}`)
const ok = rows.every((r) => r.met)
console.log(`target published → stored p95 ≤ 1.1 × interval + p95 processing (virtual): ${ok ? 'met' : 'MISSED'} in every variant`)
const out = join(import.meta.dir, 'results', 'scan-latency.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), bun: Bun.version, load, options: o, rows }, null, 2) + '\n')
process.exit(ok ? 0 : 1)
