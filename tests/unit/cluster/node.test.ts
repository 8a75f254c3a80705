// A process as a node (src/cluster/node.ts): alone on SQLite (always leads, nothing fans out); on
// PostgreSQL two nodes on one database — exactly one holds the scanner, a post announced on one
// reaches the other's bus read back from the database, and the leadership passes when the holder
// stops. The hub's resync closes every socket with RESYNC_CLOSE.
import { afterEach, expect, test } from 'bun:test'
import { joinCluster, leadershipIntervalMs, type ClusterNode } from '../../../src/cluster/node'
import { RESYNC_CLOSE, type BusEvents } from '../../../src/contract/events'
import { openDatabase, type OpenedDatabase } from '../../../src/db/open'
import { feedItem, storePosts } from '../../../src/forums/store'
import type { Deps } from '../../../src/deps'
import { EventBus } from '../../../src/lib/bus'
import { Hub } from '../../../src/realtime/hub'
import { forumPost } from '../../fakes/forum-post'
import { makeConfig } from '../../helpers'
import { until, usePostgres } from '../../pg'

const pg = usePostgres()
let nodes: ClusterNode[] = []
let dbs: OpenedDatabase[] = []
afterEach(async () => {
  for (const n of nodes) await n.stop()
  for (const d of dbs) await d.close()
  nodes = []
  dbs = []
})

async function node(url: string | null) {
  const base = makeConfig()
  const config = { ...base, databaseUrl: url }
  const opened = await openDatabase(config)
  dbs.push(opened)
  const deps = { config, db: opened.db as Deps['db'], sqlite: opened.sqlite as Deps['sqlite'], bus: new EventBus<BusEvents>(), now: () => new Date() }
  const n = await joinCluster(deps, { intervalMs: 200 })
  nodes.push(n)
  const posts: string[] = []
  deps.bus.on('post.new', ({ post }) => void posts.push(post.title))
  return { deps, node: n, posts }
}

test('on SQLite the node is alone: it leads, and nothing fans out', async () => {
  const a = await node(null)
  expect(a.node.holder.isLeader).toBe(true)
  expect(a.node.id.length).toBeLessThanOrEqual(64)
})

test('on PostgreSQL: one holder, events cross, the leadership passes when the holder stops', async () => {
  const url = await pg.server.newDatabase()
  const a = await node(url)
  const b = await node(url)
  expect([a.node.holder.isLeader, b.node.holder.isLeader].filter(Boolean)).toHaveLength(1)
  const [post] = await storePosts(a.deps, [forumPost('[WTS] Trijicon RMR Type 2 - $400', { now: Date.now(), ageMs: 1000 })])
  a.deps.bus.emit('post.new', { post: feedItem(post!) })
  await until(() => b.posts.length === 1, 'the post on the other node')
  expect(b.posts).toEqual(['[WTS] Trijicon RMR Type 2 - $400'])
  expect(a.posts).toEqual(['[WTS] Trijicon RMR Type 2 - $400']) // its own, once
  const [holder, other] = a.node.holder.isLeader ? [a, b] : [b, a]
  await holder.node.stop()
  nodes = nodes.filter((n) => n !== holder.node)
  await until(() => other.node.holder.isLeader, 'the other node to hold the scanner')
}, 60_000)

test('the lock is tried once per scan interval, 5 to 60 s', () => {
  expect(leadershipIntervalMs({ scanIntervalSeconds: null })).toBe(30_000)
  expect(leadershipIntervalMs({ scanIntervalSeconds: 1 })).toBe(5_000)
  expect(leadershipIntervalMs({ scanIntervalSeconds: 600 })).toBe(60_000)
})

test('resync closes every socket of the node with RESYNC_CLOSE, so its clients reconnect and refetch', () => {
  const hub = new Hub({ db: null as never, now: () => new Date(), config: makeConfig() })
  const closed: [number, string][] = []
  for (const id of ['p1', 'p2'])
    hub.join({ id, subscribe: () => {}, unsubscribe: () => {}, close: (code: number, reason: string) => void closed.push([code, reason]) } as never, null)
  expect(hub.resync()).toBe(2)
  expect(closed).toEqual([
    [RESYNC_CLOSE.code, RESYNC_CLOSE.reason],
    [RESYNC_CLOSE.code, RESYNC_CLOSE.reason],
  ])
  expect(hub.resync()).toBe(0)
})
