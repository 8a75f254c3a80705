// The metrics folder's one job, the daily prune: alert latency rows and coverage gaps (src/scanner/gaps.ts,
// counted in /metrics) older than 30 days go, once a day.
import type { Deps } from '../deps'
import type { Job } from '../jobs/types'
import { pruneGaps } from '../scanner/gaps'
import { pruneAlertLatency } from './latency'

export function latencyJobs(): Job[] {
  const run = (deps: Deps) => {
    const now = deps.now().getTime()
    pruneAlertLatency(deps.sqlite, now)
    pruneGaps(deps.sqlite, now)
  }
  return [{ name: 'alert-latency-prune', every: 24 * 60 * 60_000, run }]
}
