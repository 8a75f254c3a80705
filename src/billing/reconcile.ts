// Reconciliation (hourly job and `dibs billing sync --reconcile`): re-reads the subscriptions of
// every stored customer and fixes drift (a webhook that never arrived). Every customer, not only
// those with a stored subscription: the subscription id is stored by the first webhook, so a
// checkout whose webhooks all went missing is found only this way. When
// Stripe cannot be reached the run stops, logs it and leaves everyone's access as it is; the next
// run tries again.
import type { Deps } from '../deps'
import { customerLinks } from '../access/stripe-link'
import { log } from '../lib/log'
import { refreshCustomer } from './refresh'

export type ReconcileResult = { checked: number; changed: number; failed: number }

export async function reconcile(deps: Pick<Deps, 'db' | 'now' | 'bus' | 'config'>): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, changed: 0, failed: 0 }
  if (!deps.config.billingEnabled) return result
  const rows = await customerLinks(deps)
  for (const row of rows) {
    try {
      const r = await refreshCustomer(deps, row.customer, { userHint: row.userId, cause: 'reconcile' })
      result.checked++
      if (r.changed) result.changed++
    } catch (err) {
      result.failed++
      log.warn('billing reconcile: Stripe could not be read; access left as it is, retried next run', { userId: row.userId, error: (err as Error).message })
      if (isConnectionError(err)) break // an outage: the others would fail the same way
    }
  }
  if (result.changed > 0 || result.failed > 0) log.info('billing reconcile', result)
  return result
}

function isConnectionError(err: unknown): boolean {
  const type = (err as { type?: string }).type
  return type === 'StripeConnectionError' || type === 'StripeAPIError' || (err as { statusCode?: number }).statusCode === 503
}
