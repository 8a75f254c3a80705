// One holder among several nodes (issue 29 §3) on a real PostgreSQL server (tests/pg.ts): exactly one
// node holds the scanner's lock; when its session ends (terminated, as when its machine dies or the
// connection drops) it steps down and another node takes over within two intervals; never two at once
// as far as the database can tell; stop() gives the lock back.
import postgres from 'postgres'
import { afterEach, describe, expect, test } from 'bun:test'
import { startLeadership, type Leadership } from '../../../src/cluster/leader'
import { until, usePostgres } from '../../pg'

const pg = usePostgres()
const KEY = 4242
const INTERVAL = 150
let nodes: Leadership[] = []

afterEach(async () => {
  await Promise.all(nodes.map((n) => n.stop()))
  nodes = []
})

const holders = async (admin: postgres.Sql) =>
  (await admin`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ${KEY}`) as unknown as { pid: number }[]

describe('leadership by advisory lock', () => {
  test('three nodes: one leads; its session ends; another takes over within two intervals; the first steps down', async () => {
    const url = await pg.server.newDatabase()
    const admin = postgres(url, { onnotice: () => {} })
    const changes: string[] = []
    nodes = [0, 1, 2].map((i) =>
      startLeadership({ url, key: KEY, intervalMs: INTERVAL, report: (e) => changes.push(`${i}:${e.leader}${e.error ? ' ' + e.error : ''}`) }),
    )
    await until(() => nodes.filter((n) => n.isLeader).length === 1, 'one leader')
    await Bun.sleep(INTERVAL * 3)
    expect(nodes.filter((n) => n.isLeader).length).toBe(1)
    expect((await holders(admin)).length).toBe(1)
    const first = nodes.findIndex((n) => n.isLeader)

    // The holder's session ends (pg_terminate_backend: what PostgreSQL does when the node's connection dies).
    const [{ pid }] = (await holders(admin)) as [{ pid: number }]
    await admin`SELECT pg_terminate_backend(${pid})`
    // (how fast: bench/cluster.ts measures the takeover; a test asserts no time)
    await until(() => nodes.some((n, i) => i !== first && n.isLeader), 'a new leader')
    await until(() => !nodes[first]!.isLeader, 'the old leader to step down')
    expect(nodes.filter((n) => n.isLeader).length).toBe(1)
    expect((await holders(admin)).length).toBe(1)
    expect(changes.some((c) => c.startsWith(`${first}:false`))).toBe(true)
    await admin.end()
  }, 60_000)

  test('confirm() answers from the database at once; stop() gives the lock back to the next node', async () => {
    const url = await pg.server.newDatabase()
    const a = startLeadership({ url, key: KEY, intervalMs: 60_000 })
    const b = startLeadership({ url, key: KEY, intervalMs: 60_000 })
    nodes = [a, b]
    await until(async () => (await a.confirm()) || (await b.confirm()), 'a leader')
    const [lead, other] = a.isLeader ? [a, b] : [b, a]
    expect(await other.confirm()).toBe(false)
    await lead.stop()
    expect(lead.isLeader).toBe(false)
    expect(await other.confirm()).toBe(true)
  }, 60_000)

  test('a database that cannot be reached: no node leads, the error is reported once, and it leads once the database answers', async () => {
    const reports: string[] = []
    const dead = `postgres://dibs@127.0.0.1:${pg.server.port + 1}/postgres` // nothing listens there
    const n = startLeadership({ url: dead, key: KEY, intervalMs: INTERVAL, report: (e) => reports.push(e.error ?? String(e.leader)) })
    nodes = [n]
    await Bun.sleep(INTERVAL * 4)
    expect(n.isLeader).toBe(false)
    expect(reports.length).toBe(1)
    const ok = startLeadership({ url: await pg.server.newDatabase(), key: KEY, intervalMs: INTERVAL })
    nodes.push(ok)
    await until(() => ok.isLeader, 'the reachable node to lead')
  }, 60_000)
})
