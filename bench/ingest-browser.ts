// Ingest → browser bench: the whole way from a listing arriving from (fake) Reddit to the
// `match.new` message at a connected WebSocket client: parse, store, match, commit, bus, hub,
// Bun's publish, the socket and the client's JSON parse. Runs the real server (HTTP + /api/ws)
// on a real SQLite file with U users × T terms; C of those users keep a socket open, as browsers do.
// Usage: bun bench/ingest-browser.ts [--users 1000] [--terms 20] [--clients 200] [--scans 200] [--posts 2] [--seed 11]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createSession, SESSION_COOKIE } from '../src/auth/session'
import { loadConfig } from '../src/config'
import { setLogLevel } from '../src/lib/log'
import { MatchingService } from '../src/matches/matcher'
import { runScan } from '../src/scanner/scan'
import type { SqliteDeps } from '../src/deps'
import { startServer } from '../src/server'
import { startFakeReddit } from '../tests/fakes/reddit'
import { benchOptions, pct, seedSubscribers, TARGET_P95_MS, timedRedditClient } from './ingest-setup'
import { makePost } from './vocabulary'

const o = benchOptions({ users: 1000, terms: 20, clients: 200, scans: 200, posts: 2, seed: 11 })
setLogLevel('silent')

const dataDir = mkdtempSync(join(tmpdir(), 'dibs-bench-browser-'))
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', APP_URL: 'http://127.0.0.1:1' })
const server = await startServer(config, { jobs: false })
server.deps.config.appUrl = server.url // Origin checks follow the real port
// no DATABASE_URL: the server is on SQLite, with both handles
const deps = server.deps as typeof server.deps & SqliteDeps

// Users with a plan and terms, straight into the database; the first C get a session.
const { ids, r } = seedSubscribers(deps, o)
// The terms were written straight into the database: the server's index loads them afresh.
const matcher = (deps.matcher = await new MatchingService(deps).load())
console.log(`setup: ${o.users} users × ${o.terms} terms = ${matcher.size} terms indexed; ${o.clients} sockets`)

// The browsers: one socket per signed-in user, on another thread (bench/socket-clients.ts).
const abs = () => performance.timeOrigin + performance.now()
const clients = new Worker(new URL('./socket-clients.ts', import.meta.url).href)
const fromClients = (kind: string) =>
  new Promise<any>((resolve) => {
    const on = (e: MessageEvent) => {
      if (e.data.kind !== kind) return
      clients.removeEventListener('message', on)
      resolve(e.data)
    }
    clients.addEventListener('message', on)
  })
const cookies = await Promise.all(ids.slice(0, o.clients).map(async (id) => `${SESSION_COOKIE}=${(await createSession(deps, id)).token}`))
const opened = fromClients('open')
clients.postMessage({ kind: 'open', url: server.url.replace('http', 'ws') + '/api/ws', origin: server.url, cookies })
await opened
async function takeArrivals(): Promise<number[]> {
  const reply = fromClients('arrivals')
  clients.postMessage({ kind: 'take' })
  return (await reply).arrivals
}

const fake = await startFakeReddit()
const { client, receivedAt } = timedRedditClient(fake.url, deps, 'ingest-browser bench', abs)

let busAt: number[] = []
deps.bus.on('match.new', () => void busAt.push(abs()))
fake.publish({ title: '[WTS] warm-up' })
await runScan(deps, client)
await Bun.sleep(20)
await takeArrivals()
const all: number[] = []
const bus: number[] = []
const first: number[] = []
let delivered = 0
for (let s = 0; s < o.scans; s++) {
  for (let i = 0; i < o.posts; i++) {
    const p = makePost(r)
    fake.publish({ title: p.title, selftext: p.content, subreddit: p.category === 'gd' ? config.forums.deals : config.forums.accessories })
  }
  busAt = []
  const out = await runScan(deps, client)
  if (out.status !== 'success') throw new Error(`scan ${s} ${out.status}: ${out.error}`)
  await Bun.sleep(20) // let the sockets drain before the next listing
  const arrivals = await takeArrivals()
  if (arrivals.length === 0) continue
  delivered += arrivals.length
  for (const t of arrivals) all.push(t - receivedAt())
  for (const t of busAt) bus.push(t - receivedAt())
  first.push(Math.min(...arrivals) - receivedAt())
}
all.sort((a, b) => a - b)
bus.sort((a, b) => a - b)
first.sort((a, b) => a - b)
const result = {
  users: o.users,
  terms: matcher.size,
  clients: o.clients,
  scans: o.scans,
  postsPerScan: o.posts,
  scansWithDeliveries: first.length,
  messagesDelivered: delivered,
  firstMessageMs: { p50: +pct(first, 50).toFixed(2), p95: +pct(first, 95).toFixed(2) },
  allMessagesMs: { p50: +pct(all, 50).toFixed(2), p95: +pct(all, 95).toFixed(2), p99: +pct(all, 99).toFixed(2), max: +(all.at(-1) ?? NaN).toFixed(2) },
  /** the same path up to the in-process bus, for comparison with bench/ingest.ts */
  busMs: { p50: +pct(bus, 50).toFixed(2), p95: +pct(bus, 95).toFixed(2) },
  targetP95Ms: TARGET_P95_MS,
}
console.log(`scans delivering to a socket: ${first.length}/${o.scans}, ${delivered} match.new messages`)
console.log('listing received → match.new at the socket   p50      p95      p99      max')
console.log(
  `  first message of the scan (ms)             ${result.firstMessageMs.p50.toFixed(2).padStart(6)}   ${result.firstMessageMs.p95.toFixed(2).padStart(6)}`,
)
console.log(
  `  every message of the scan (ms)             ${result.allMessagesMs.p50.toFixed(2).padStart(6)}   ${result.allMessagesMs.p95.toFixed(2).padStart(6)}   ${result.allMessagesMs.p99.toFixed(2).padStart(6)}   ${result.allMessagesMs.max.toFixed(2).padStart(6)}`,
)
console.log(`  (match.new on the server's bus (ms)        ${result.busMs.p50.toFixed(2).padStart(6)}   ${result.busMs.p95.toFixed(2).padStart(6)})`)
const ok = first.length > 0 && result.allMessagesMs.p95 < TARGET_P95_MS
console.log(`target p95 < ${TARGET_P95_MS} ms: ${ok ? 'met' : 'MISSED'}`)
const outFile = join(import.meta.dir, 'results', 'ingest-browser.json')
mkdirSync(dirname(outFile), { recursive: true })
writeFileSync(outFile, JSON.stringify({ ...result, at: new Date().toISOString(), bun: Bun.version }, null, 2) + '\n')

clients.terminate()
await fake.stop()
await server.stop()
rmSync(dataDir, { recursive: true, force: true })
process.exit(ok ? 0 : 1)
