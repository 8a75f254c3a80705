// Socket fan-out latency (issue 29 §3, src/cluster/fanout.ts): an event published on node 1 until it is
// emitted on node 2's bus, read back from PostgreSQL by node 2's `load` (one SELECT by id), one event at
// a time, over 1,000 events; beside it, in the same run, the baseline: the same event emitted on a local
// bus until its listener runs (what one node does today). A throwaway server from Debian's packages
// (tests/pg.ts; `bash scripts/ensure-test-packages.sh` installs it). Prints p50/p95 and writes
// bench/results/fanout.json. No target: a figure to watch (it prices the hop, not a pass or fail).
import { SQL } from 'bun'
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { startFanout, type Fanout } from '../src/cluster/fanout'
import type { FanoutEventName, FanoutRefs } from '../src/cluster/fanout-refs'
import type { BusEvents, MatchItem } from '../src/contract/events'
import { EventBus } from '../src/lib/bus'
import { percentile } from '../src/lib/percentile'
import { startPostgres } from '../tests/pg'

const N = Number(process.argv[2] ?? 1000)
const WARMUP = 50
const match = (id: number, title: string) => ({ id, title }) as MatchItem

const server = await startPostgres()
const loadBefore = loadavg()[0]!
try {
  const url = await server.newDatabase()
  const db = new SQL({ url, max: 2 })
  await db`CREATE TABLE bench_matches (id int PRIMARY KEY, user_id int NOT NULL, title text NOT NULL)`
  await db`INSERT INTO bench_matches SELECT i, 1, 'WTS item ' || i FROM generate_series(1, ${N + WARMUP}) i`

  const load = async <K extends FanoutEventName>(_name: K, ref: FanoutRefs[K]) => {
    const { matchId } = ref as FanoutRefs['match.new']
    const [row] = (await db`SELECT id, user_id, title FROM bench_matches WHERE id = ${matchId}`) as { id: number; user_id: number; title: string }[]
    return row ? ({ userId: row.user_id, match: match(row.id, row.title), notify: false } as BusEvents[K]) : null
  }
  const bus1 = new EventBus<BusEvents>()
  const bus2 = new EventBus<BusEvents>()
  const nodes: Fanout[] = [
    await startFanout({ url, nodeId: 'node-1', bus: bus1, load, relay: true }),
    await startFanout({ url, nodeId: 'node-2', bus: bus2, load }),
  ]

  // One event at a time: emitted on `from`, timed until `to` has it.
  let arrived: (() => void) | null = null
  const time = async (from: EventBus<BusEvents>, to: EventBus<BusEvents>) => {
    to.on('match.new', () => arrived?.())
    const took: number[] = []
    for (let i = 1; i <= N + WARMUP; i++) {
      const got = new Promise<void>((resolve) => (arrived = resolve))
      const t0 = performance.now()
      from.emit('match.new', { userId: 1, match: match(i, `WTS item ${i}`), notify: true })
      await got
      if (i > WARMUP) took.push(performance.now() - t0)
    }
    return took
  }
  // node 1's relay announces it, node 2 loads it back and emits it
  const hop = await time(bus1, bus2)
  // baseline: a local emit until its listener runs (both include the same promise hop)
  const local = new EventBus<BusEvents>()
  const base = await time(local, local)

  await Promise.all(nodes.map((n) => n.stop()))
  await db.close()

  const ms = (v: number | null) => +(v ?? 0).toFixed(3)
  const rows = [
    { path: 'local bus emit (baseline)', p50: ms(percentile(base, 50)), p95: ms(percentile(base, 95)) },
    { path: 'fan-out: NOTIFY → other node, loaded, emitted', p50: ms(percentile(hop, 50)), p95: ms(percentile(hop, 95)) },
  ]
  const machine = { before: +loadBefore.toFixed(2), after: +loadavg()[0]!.toFixed(2) }
  console.log(`machine: Bun ${Bun.version}, ${N} events each, load average (1 min) ${machine.before} before, ${machine.after} after`)
  console.table(rows.map((r) => ({ path: r.path, 'p50 ms': r.p50, 'p95 ms': r.p95 })))
  const ratio = { p50: +(rows[1]!.p50 / Math.max(rows[0]!.p50, 0.001)).toFixed(0), p95: +(rows[1]!.p95 / Math.max(rows[0]!.p95, 0.001)).toFixed(0) }
  console.log(`fan-out / local: ×${ratio.p50} at p50, ×${ratio.p95} at p95`)
  const out = join(import.meta.dir, 'results', 'fanout.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), bun: Bun.version, events: N, load: machine, rows, ratio }, null, 2) + '\n')
} finally {
  await server.stop()
}
