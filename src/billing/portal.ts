// POST /api/billing/portal: a billing-portal session for the user's Stripe customer (our synced
// configuration when there is one), returning to the subscription page.
import type { Deps } from '../deps'
import { AppError } from '../lib/errors'
import { billingDisabled, stripeFor } from './client'
import { catalog } from './catalog'
import { storedCustomer } from './customer'

export const NO_SUBSCRIPTION = { title: 'No Subscription to Manage', message: 'You need to subscribe to a plan first before you can manage your subscription.' }
export const PORTAL_FAILED = 'Could not open the billing portal. Please try again later.'

export async function openPortal(deps: Pick<Deps, 'db' | 'config'>, userId: number): Promise<{ portalUrl: string }> {
  if (!deps.config.billingEnabled) throw billingDisabled()
  const customer = (await storedCustomer(deps, userId)).customer
  if (customer === null) throw new AppError(404, 'NO_SUBSCRIPTION', NO_SUBSCRIPTION.message, { title: NO_SUBSCRIPTION.title })
  try {
    // Our configuration (synced now if the startup sync has not finished); Stripe's default otherwise.
    const configuration = (await catalog(deps).catch(() => null))?.portalConfiguration
    const session = await stripeFor(deps.config).billingPortal.sessions.create({
      customer,
      return_url: `${deps.config.appUrl}/dashboard/subscription`,
      ...(configuration ? { configuration } : {}),
    })
    return { portalUrl: session.url }
  } catch (err) {
    throw new AppError(503, 'PORTAL_FAILED', PORTAL_FAILED, { title: 'Error' }, err)
  }
}
