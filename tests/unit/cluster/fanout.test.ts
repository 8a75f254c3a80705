// Socket fan-out between nodes (issue 29 §3) on a real PostgreSQL server (tests/pg.ts): an event
// announced by one node reaches the other nodes' buses rebuilt by `load`, never its own bus twice; the
// NOTIFY payload carries ids, never a body; a node whose listening session ends listens again, reports
// the gap once and receives again; one node's events arrive in the order it published them.
import { SQL } from 'bun'
import { afterEach, describe, expect, test } from 'bun:test'
import { startFanout, type Fanout, type FanoutOptions, type FanoutReport } from '../../../src/cluster/fanout'
import type { FanoutEventName, FanoutRefs } from '../../../src/cluster/fanout-refs'
import type { BusEvents, MatchItem } from '../../../src/contract/events'
import { EventBus } from '../../../src/lib/bus'
import { until, usePostgres } from '../../pg'

const pg = usePostgres()
let nodes: Fanout[] = []
let closers: (() => Promise<unknown>)[] = []

afterEach(async () => {
  await Promise.all(nodes.map((n) => n.stop()))
  await Promise.all(closers.map((c) => c()))
  nodes = []
  closers = []
})

const match = (id: number, title: string): MatchItem =>
  ({ id, postId: id, title, url: `https://reddit.com/${id}`, linkUrl: null, author: 'seller', createdAt: '2026-01-01T00:00:00.000Z' }) as MatchItem

/** The "database" the loaders read back from: match titles by id (what each node would SELECT). */
const titles = new Map<number, string>()

/** A node: its own bus, a record of every event it saw, and a loader that rebuilds from `titles`. */
async function node(url: string, nodeId: string, extra: Partial<FanoutOptions> = {}) {
  const bus = new EventBus<BusEvents>()
  const seen: { name: string; data: unknown }[] = []
  for (const name of ['match.new', 'unread', 'post.updated'] as const) bus.on(name, (data) => seen.push({ name, data }))
  const loads: string[] = []
  const load = async <K extends FanoutEventName>(name: K, ref: FanoutRefs[K]): Promise<BusEvents[K] | null> => {
    loads.push(name)
    if (name === 'match.new') {
      const { userId, matchId } = ref as FanoutRefs['match.new']
      const title = titles.get(matchId)
      return title === undefined ? null : ({ userId, match: match(matchId, title), notify: false } as BusEvents[K])
    }
    if (name === 'unread') return { userId: (ref as FanoutRefs['unread']).userId, counts: { wts: 1, wtb: 0, gd: 0 } } as BusEvents[K]
    return null
  }
  const reports: FanoutReport[] = []
  const fanout = await startFanout({ url, nodeId, bus, load, report: (r) => reports.push(r), ...extra })
  nodes.push(fanout)
  return { bus, seen, loads, reports, fanout }
}

/** A plain LISTEN on its own connection: the raw payloads as PostgreSQL delivers them. */
async function rawListen(url: string, channel = 'dibs_events') {
  const sql = new SQL({ url, max: 1 })
  const payloads: string[] = []
  const sub = await sql.listen(channel, (p) => payloads.push(p))
  closers.push(async () => {
    await sub.unlisten()
    await sql.close()
  })
  return payloads
}

describe('socket fan-out over LISTEN/NOTIFY', () => {
  test('an event announced on node 1 reaches node 2 and node 3 rebuilt by load; node 1 does not see it again', async () => {
    const url = await pg.server.newDatabase()
    const [a, b, c] = [await node(url, 'node-1', { relay: true }), await node(url, 'node-2'), await node(url, 'node-3')]
    titles.set(101, 'WTS RTX 5090 FE')
    // on node 1 it happens (the matcher emits it with the body); the fan-out announces it
    a.bus.emit('match.new', { userId: 7, match: match(101, 'WTS RTX 5090 FE'), notify: true })
    await until(() => b.seen.length === 1 && c.seen.length === 1, 'nodes 2 and 3 to receive')
    for (const n of [b, c]) {
      expect(n.seen[0]!.name).toBe('match.new')
      const data = n.seen[0]!.data as BusEvents['match.new']
      expect(data.userId).toBe(7)
      expect(data.match.title).toBe('WTS RTX 5090 FE')
      expect(data.notify).toBe(false) // the alert was sent by node 1's dispatcher
      expect(n.fanout.fannedIn(data)).toBe(true)
      expect(n.loads).toEqual(['match.new'])
    }
    // a second event, published by node 2: node 1 gets it, node 2 does not load its own
    await b.fanout.publish('unread', { userId: 7 })
    await until(() => a.seen.length === 2 && c.seen.length === 2, 'nodes 1 and 3 to receive the unread counts')
    expect(a.seen.map((s) => s.name)).toEqual(['match.new', 'unread'])
    expect(a.loads).toEqual(['unread'])
    expect(b.loads).toEqual(['match.new'])
    expect(b.seen.length).toBe(1)
    // node 1's relay did not announce what node 1 received from node 2 (no echo back and forth)
    expect(c.loads).toEqual(['match.new', 'unread'])
  }, 60_000)

  test('the NOTIFY payload carries the event name, ids and the node id, never the body', async () => {
    const url = await pg.server.newDatabase()
    const raw = await rawListen(url)
    const a = await node(url, 'node-1', { relay: true })
    a.bus.emit('match.new', { userId: 7, match: match(202, 'WTS Leica M6 with a long description'), notify: true })
    a.bus.emit('post.updated', {
      post: { postId: 202, redditId: 't3_abc', state: 'sold', stateChangedAt: null, price: 100 },
      userIds: Array.from({ length: 3000 }, (_, i) => i + 1),
    })
    await until(() => raw.length === 2, 'two notices')
    expect(raw.map((p) => JSON.parse(p))).toEqual([
      { o: 'node-1', e: 'match.new', r: { userId: 7, matchId: 202 } },
      { o: 'node-1', e: 'post.updated', r: { postId: 202 } },
    ])
    expect(raw.some((p) => p.includes('Leica') || p.includes('t3_abc'))).toBe(false)
  }, 60_000)

  test('a long match.updated list is split into notices under the limit, in order, and every id arrives', async () => {
    const url = await pg.server.newDatabase()
    const raw = await rawListen(url)
    const a = await node(url, 'node-1')
    const ids = Array.from({ length: 3000 }, (_, i) => 1_000_000 + i)
    expect(await a.fanout.publish('match.updated', { userId: 7, ids, change: 'read' })).toBe(true)
    await until(() => raw.flatMap((p) => (JSON.parse(p) as { r: { ids: number[] } }).r.ids).length === ids.length, 'every id')
    expect(raw.length).toBeGreaterThan(1)
    for (const p of raw) expect(Buffer.byteLength(p)).toBeLessThan(8000)
    expect(raw.flatMap((p) => (JSON.parse(p) as { r: { ids: number[] } }).r.ids)).toEqual(ids)
  }, 60_000)

  test('after its listening session is terminated a node listens again, reports the gap once and receives again', async () => {
    const url = await pg.server.newDatabase()
    const admin = new SQL(url)
    closers.push(() => admin.close())
    const a = await node(url, 'node-1')
    let gaps = 0
    const b = await node(url, 'node-2', { onGap: () => gaps++ })
    titles.set(301, 'first')
    titles.set(302, 'second')
    await a.fanout.publish('match.new', { userId: 1, matchId: 301 })
    await until(() => b.seen.length === 1, 'the first event')

    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dibs-fanout node-2'`
    await until(() => b.reports.some((r) => r.kind === 'gap'), 'the gap to be reported')
    await a.fanout.publish('match.new', { userId: 1, matchId: 302 })
    await until(() => b.seen.length === 2, 'the event after the reconnect')
    expect((b.seen[1]!.data as BusEvents['match.new']).match.title).toBe('second')
    const gapReports = b.reports.filter((r) => r.kind === 'gap')
    expect(gapReports.length).toBe(1)
    expect(gapReports[0]!.message).toContain('did not reach this node')
    expect(gaps).toBe(1)
    expect(a.reports).toEqual([])
  }, 60_000)

  test("one node's events arrive in the order it published them, even when the earlier ones load slower", async () => {
    const url = await pg.server.newDatabase()
    const a = await node(url, 'node-1', { relay: true })
    const order: number[] = []
    const bus = new EventBus<BusEvents>()
    bus.on('match.new', (e) => order.push(e.match.id))
    const N = 40
    // the first events take longest to read back
    const load = async <K extends FanoutEventName>(_name: K, ref: FanoutRefs[K]) => {
      const { userId, matchId } = ref as FanoutRefs['match.new']
      await Bun.sleep(N - (matchId % 1000))
      return { userId, match: match(matchId, 't'), notify: false } as BusEvents[K]
    }
    nodes.push(await startFanout({ url, nodeId: 'node-2', bus, load }))
    for (let i = 0; i < N; i++) a.bus.emit('match.new', { userId: 1, match: match(5000 + i, 't'), notify: true })
    await until(() => order.length === N, 'every event')
    expect(order).toEqual(Array.from({ length: N }, (_, i) => 5000 + i))
  }, 60_000)

  test('a load that fails is reported and the next events still arrive; a row gone meanwhile is skipped', async () => {
    const url = await pg.server.newDatabase()
    const a = await node(url, 'node-1')
    const b = await node(url, 'node-2', {
      load: async <K extends FanoutEventName>(_name: K, ref: FanoutRefs[K]) => {
        const { userId, matchId } = ref as FanoutRefs['match.new']
        if (matchId === 1) throw new Error('database busy')
        if (matchId === 2) return null
        return { userId, match: match(matchId, 't'), notify: false } as BusEvents[K]
      },
    })
    for (const matchId of [1, 2, 3]) await a.fanout.publish('match.new', { userId: 1, matchId })
    await until(() => b.seen.length === 1, 'the third event')
    expect((b.seen[0]!.data as BusEvents['match.new']).match.id).toBe(3)
    expect(b.reports.map((r) => r.message)).toEqual(['fan-out: could not load match.new {"userId":1,"matchId":1} from node node-1: database busy'])
  }, 60_000)
})
