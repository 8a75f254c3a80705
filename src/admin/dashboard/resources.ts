// System Resources on the dashboard: real figures of this process instead of the spec's sample
// text — uptime, memory, event-loop lag, database and WAL size, open sockets, outbox depth, the
// Reddit rate budget, the scan interval in force and post → alert latency.
import { fileSizes } from '../../db/inspect'
import type { AdminDeps } from '../shared/deps'
import { alertLatency } from './view'
import { eventLoopLag } from '../../lib/event-loop-lag'
import { outboxCounts } from '../../outbox/queue'
import { lastRateLimitedAt } from '../../scanner/scan-history'
import { scanIntervalNow } from '../../scanner/scan'

/** The last time Reddit answered 429, from the scan log. */
async function last429(deps: AdminDeps): Promise<string | null> {
  const at = await lastRateLimitedAt(deps)
  return at === null ? null : new Date(at).toISOString()
}

export async function systemResources(deps: AdminDeps) {
  const now = deps.now().getTime()
  const mem = process.memoryUsage()
  const b = deps.source.budget
  const snap = b?.snapshot(now)
  const outbox = await outboxCounts(deps)
  const files = fileSizes(deps.config.dbPath)
  return {
    uptimeSeconds: Math.round(process.uptime()),
    memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed, heapTotalBytes: mem.heapTotal },
    eventLoopLag: eventLoopLag(),
    database: { fileBytes: files.db, walBytes: files.wal },
    openSockets: deps.hub.size,
    outbox: { pending: outbox.pending, sending: outbox.sending },
    reddit: {
      mode: deps.source.mode ?? null,
      requestsLastMinute: snap?.requestsLastMinute ?? null,
      allowedPerMinute: snap?.capPerMinute ?? null,
      remaining: snap?.remaining ?? null,
      blockedUntil: snap && snap.blockedUntil > now ? new Date(snap.blockedUntil).toISOString() : null,
      blockedReason: snap?.blockedReason ?? null,
      last429At: await last429(deps),
    },
    scanInterval: scanIntervalNow(deps),
    alertLatency24h: await alertLatency(deps),
    measuredAt: new Date(now).toISOString(),
  }
}
