// Jobs that must run once run on the leadership's holder only (issue 29 §3): two nodes on one real
// PostgreSQL server (tests/pg.ts), each with its leadership (src/cluster/leader.ts) and its job runner
// (src/jobs/schedule.ts): the outbox-like job marked `everyNode` runs on both, the others only on the
// holder; when the holder's session ends, the other node takes the once-jobs over and the first stops
// running them; the scanner-like precise job asks the database right before each run.
import { afterEach, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { startLeadership, type Leadership } from '../../../src/cluster/leader'
import { startJobs, type RunningJobs } from '../../../src/jobs/schedule'
import type { Job } from '../../../src/jobs/types'
import { makeDeps } from '../../helpers'
import { until, usePostgres } from '../../pg'

const pg = usePostgres()
const KEY = 5151
let running: { jobs: RunningJobs; lead: Leadership; close(): void }[] = []
afterEach(async () => {
  for (const r of running) await r.jobs.stop()
  for (const r of running) await r.lead.stop()
  for (const r of running) r.close()
  running = []
})

type Counts = { once: number; every: number; scans: number }

async function node(url: string, counts: Counts) {
  const lead = startLeadership({ url, key: KEY, intervalMs: 200 })
  const jobs: Job[] = [
    { name: 'digests', every: 0, run: () => void counts.once++ },
    { name: 'outbox', every: 0, everyNode: true, run: () => void counts.every++ },
    { name: 'scan', nextAt: (_d, last) => last.endedAt + 100, immediate: true, run: () => void counts.scans++ },
  ]
  const deps = await makeDeps()
  const r = { jobs: startJobs({ ...deps, now: () => new Date() }, jobs, undefined, lead), lead, close: deps.close }
  running.push(r)
  return r
}

describe('jobs on the holder only', () => {
  test('two nodes: once-jobs and the scan on the holder, the every-node job on both; the other node takes over when the holder goes', async () => {
    const url = await pg.server.newDatabase()
    const a: Counts = { once: 0, every: 0, scans: 0 }
    const b: Counts = { once: 0, every: 0, scans: 0 }
    const na = await node(url, a)
    const nb = await node(url, b)
    await until(() => na.lead.isLeader || nb.lead.isLeader, 'a holder')
    await until(() => a.every >= 2 && b.every >= 2, 'the every-node job on both nodes')
    const [holder, other, hc, oc] = na.lead.isLeader ? [na, nb, a, b] : [nb, na, b, a]
    await until(() => hc.once >= 2 && hc.scans >= 5, 'the holder to run the once-jobs and scan')
    expect([oc.once, oc.scans]).toEqual([0, 0])

    // The holder's session ends (its machine died, or its connection): PostgreSQL frees the lock.
    const admin = postgres(url, { onnotice: () => {} })
    await admin`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ${KEY}`
    await admin.end()
    await until(() => oc.once >= 1 && oc.scans >= 3, 'the other node to take the once-jobs and the scan over')
    expect(other.lead.isLeader).toBe(true)
    await until(() => !holder.lead.isLeader, 'the first node to step down')
    const [once, scans] = [hc.once, hc.scans]
    await until(() => oc.scans >= scans + 5, 'more scans on the new holder')
    // the first node, no longer holding, ran no once-job and no scan since (at most one already in flight)
    expect(hc.once - once).toBeLessThanOrEqual(1)
    expect(hc.scans - scans).toBeLessThanOrEqual(1)
  }, 60_000)
})
