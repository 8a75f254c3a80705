// System Resources on the dashboard: real figures of this process instead of the spec's sample
// text — uptime, memory, event-loop lag, database and WAL size, open sockets, outbox depth, the
// Reddit rate budget, the scan interval in force and post → alert latency.
import { statSync } from 'node:fs'
import type { AdminDeps } from './deps'
import { alertLatency } from './stats'
import { eventLoopLag } from '../lib/event-loop-lag'
import { scanIntervalNow } from '../scanner/scan'

function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** The last time Reddit answered 429, from the scan log (a failed scan's error starts with the failure kind). */
function last429(deps: AdminDeps): string | null {
  const row = deps.sqlite
    .query<{ at: number }, []>("SELECT created_at AS at FROM scan_metrics WHERE error LIKE 'rate_limited%' ORDER BY created_at DESC LIMIT 1")
    .get()
  return row ? new Date(row.at).toISOString() : null
}

export function systemResources(deps: AdminDeps) {
  const now = deps.now().getTime()
  const mem = process.memoryUsage()
  const b = deps.source.budget
  const snap = b?.snapshot(now)
  const outbox = deps.sqlite
    .query<{ status: string; n: number }, []>("SELECT status, count(*) AS n FROM outbox WHERE status IN ('pending', 'sending') GROUP BY status")
    .all()
  const depth = (s: string) => outbox.find((r) => r.status === s)?.n ?? 0
  return {
    uptimeSeconds: Math.round(process.uptime()),
    memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed, heapTotalBytes: mem.heapTotal },
    eventLoopLag: eventLoopLag(),
    database: { fileBytes: fileSize(deps.config.dbPath), walBytes: fileSize(`${deps.config.dbPath}-wal`) },
    openSockets: deps.hub.size,
    outbox: { pending: depth('pending'), sending: depth('sending') },
    reddit: {
      mode: deps.source.mode ?? null,
      requestsLastMinute: snap?.requestsLastMinute ?? null,
      allowedPerMinute: snap?.capPerMinute ?? null,
      remaining: snap?.remaining ?? null,
      blockedUntil: snap && snap.blockedUntil > now ? new Date(snap.blockedUntil).toISOString() : null,
      blockedReason: snap?.blockedReason ?? null,
      last429At: last429(deps),
    },
    scanInterval: scanIntervalNow(deps),
    alertLatency24h: alertLatency(deps),
    measuredAt: new Date(now).toISOString(),
  }
}
