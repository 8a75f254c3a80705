// The metrics folder's one job, the daily prune: alert latency rows older than 30 days go, once a day.
import type { Deps } from '../deps'
import type { Job } from '../jobs/types'
import { pruneAlertLatency } from './latency'

export function latencyJobs(): Job[] {
  const run = (deps: Deps) => pruneAlertLatency(deps, deps.now().getTime())
  return [{ name: 'alert-latency-prune', every: 24 * 60 * 60_000, run }]
}
