// Billing's background jobs (only while billing is on; src/services.ts lists them):
//   billing-sync       at start: prices and portal configuration (catalog.ts). A failure is logged
//                      and retried with backoff (30 s doubling to 15 min); the server never waits
//                      for it. Once synced, again every 6 hours (an amount changed in a new release).
//   billing-reconcile  every hour: reconcile.ts.
import type { Deps } from '../deps'
import type { Job } from '../jobs/types'
import { log } from '../lib/log'
import { syncCatalog } from './catalog'
import { reconcile } from './reconcile'

const RETRY_FIRST_MS = 30_000
const RETRY_MAX_MS = 15 * 60_000
const RESYNC_MS = 6 * 60 * 60_000

/** The sync's retry state: failures in a row decide the next delay. */
export function catalogSyncJob(): Job & { failures: () => number } {
  let failures = 0
  return {
    name: 'billing-sync',
    immediate: true,
    every: () => (failures === 0 ? RESYNC_MS : Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1))),
    failures: () => failures,
    async run(deps: Deps) {
      try {
        const r = await syncCatalog(deps)
        failures = 0
        log.info('billing: Stripe prices and portal synced', { created: r.createdPrices.join(',') || 'none', portal: r.portal })
        return r
      } catch (err) {
        failures++
        log.warn('billing: Stripe sync failed; retrying', { attempt: failures, error: (err as Error).message })
        return null
      }
    },
  }
}

export function billingJobs(deps: Pick<Deps, 'config'>): Job[] {
  if (!deps.config.billingEnabled) return []
  return [catalogSyncJob(), { name: 'billing-reconcile', every: 60 * 60_000, run: (d: Deps) => reconcile(d) }]
}
