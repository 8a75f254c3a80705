// This process as one node among several on one PostgreSQL (issue 29 §3), wired by src/server.ts:
//   - leadership (./leader.ts): the scanner, the term index's matching and the jobs that run once run
//     on the holder of the scanner lock; every node tries or checks it once per interval (the scan
//     interval, 5–60 s), so a dead holder is replaced within two intervals;
//   - fan-out (./fanout.ts): every crossing event emitted on this node's bus is announced once; the
//     events of other nodes are read back (./fanout-load.ts) and emitted on this bus, so this node's
//     hub delivers them to its sockets. After a gap (the listening connection was down) every socket
//     of this node is closed with RESYNC_CLOSE: the clients reconnect and refetch.
// On SQLite (one process) the node is alone: it always leads and nothing fans out.
import { hostname } from 'node:os'
import type { Deps } from '../deps'
import { ALONE, type Holder } from '../jobs/schedule'
import { log } from '../lib/log'
import { randomToken } from '../lib/tokens'
import { startFanout } from './fanout'
import { fanoutLoader } from './fanout-load'
import { startLeadership } from './leader'
import { LOCKS } from './locks'

export type ClusterNode = {
  /** unique among the nodes: host, process and a random part */
  id: string
  holder: Holder
  /** whether a bus event body came from another node (emitted here by the fan-out) */
  fannedIn(data: object): boolean
  stop(): Promise<void>
}

/** How often a node tries or checks the lock: the scan's interval, within 5–60 s. */
export function leadershipIntervalMs(config: Pick<Deps['config'], 'scanIntervalSeconds'>): number {
  return Math.min(60, Math.max(5, config.scanIntervalSeconds ?? 30)) * 1000
}

export async function joinCluster(
  deps: Pick<Deps, 'config' | 'db' | 'sqlite' | 'bus'>,
  opts: { onGap?: () => void; intervalMs?: number } = {},
): Promise<ClusterNode> {
  const id = `${hostname()}-${process.pid}-${randomToken(4)}`.slice(0, 64)
  const url = deps.config.databaseUrl
  if (url === null) return { id, holder: ALONE, fannedIn: () => false, stop: async () => {} }
  const leadership = startLeadership({
    url,
    key: LOCKS.scanner,
    intervalMs: opts.intervalMs ?? leadershipIntervalMs(deps.config),
    report: ({ leader, error }) =>
      error
        ? log.warn('cluster: the scanner lock could not be checked', { node: id, error })
        : log.info(leader ? 'cluster: this node holds the scanner' : 'cluster: this node no longer holds the scanner', { node: id }),
  })
  const fanout = await startFanout({
    url,
    nodeId: id,
    bus: deps.bus,
    load: fanoutLoader(deps),
    relay: true,
    onGap: opts.onGap,
    report: (r) => (r.kind === 'gap' ? log.warn(`cluster: ${r.message}`, { node: id }) : log.error(`cluster: ${r.message}`, { node: id })),
  })
  await leadership.confirm()
  return {
    id,
    holder: leadership,
    fannedIn: (data) => fanout.fannedIn(data),
    async stop() {
      await fanout.stop()
      await leadership.stop()
    },
  }
}
