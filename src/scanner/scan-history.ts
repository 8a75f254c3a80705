// Reads of the scan log (scan_metrics, written by ./scan.ts recordScan) for the admin pages. This
// folder owns scan_metrics (src/db/owners.json).
import type { Deps } from '../deps'

/** The last time Reddit answered 429 (ms), from the scan log: a failed scan's error starts with its failure kind. */
export function lastRateLimitedAt(deps: Pick<Deps, 'sqlite'>): number | null {
  const row = deps.sqlite
    .query<{ at: number }, []>("SELECT created_at AS at FROM scan_metrics WHERE error LIKE 'rate_limited%' ORDER BY created_at DESC LIMIT 1")
    .get()
  return row?.at ?? null
}
