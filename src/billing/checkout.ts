// POST /api/billing/checkout: an embedded Checkout Session (ui_mode 'embedded_page' at the SDK's
// API version) in subscription mode for one plan. Refusals first (admin; the plan already paid
// for; a live subscription that should be switched in the portal instead of paid twice), then the
// customer (created once), then the session. A user in a live trial keeps the rest of it:
// trial_end = their trial's end when Stripe allows it (≥ 48 h away), otherwise billing starts now.
import type { Deps } from '../deps'
import { hasActiveAccess, type AccessState } from '../access/rules'
import { parsePlanId, type PlanId } from '../access/plans'
import { AppError, badRequest, conflict } from '../lib/errors'
import { billingDisabled, stripeFor } from './client'
import { catalog } from './catalog'
import { ensureCustomer, forgetCustomer, storedCustomer } from './customer'

export const MIN_TRIAL_END_MS = 48 * 60 * 60 * 1000
export const CHECKOUT_FAILED = 'Failed to start checkout process. Please try again.'

export type CheckoutRequest = { planType?: unknown; returnUrl?: unknown }

/** `returnUrl` must be a page of this app (APP_URL's origin); the session id is appended for the return. */
export function checkoutReturnUrl(appUrl: string, returnUrl: unknown): string {
  let u: URL
  try {
    u = new URL(String(returnUrl ?? ''))
  } catch {
    throw badRequest('returnUrl must be a full URL of this site.', 'BAD_RETURN_URL')
  }
  if (u.origin !== new URL(appUrl).origin) throw badRequest('returnUrl must be a page of this site.', 'BAD_RETURN_URL')
  u.hash = ''
  u.searchParams.delete('session_id')
  // Appended as text: Stripe replaces the literal {CHECKOUT_SESSION_ID}, so the braces stay unencoded.
  return `${u.toString()}${u.search ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`
}

/** Seconds since epoch for subscription_data.trial_end, or null when billing starts now. */
export function trialEndFor(access: AccessState, now: Date): number | null {
  if (access.role !== 'app_trial' || access.accessExpiresAt === null) return null
  if (access.accessExpiresAt.getTime() - now.getTime() < MIN_TRIAL_END_MS) return null
  return Math.floor(access.accessExpiresAt.getTime() / 1000)
}

function refuse(access: AccessState, plan: PlanId, hasSubscription: boolean, now: Date) {
  if (access.role === 'admin') throw conflict('Administrators have full access and do not need a plan.', 'ADMIN_NO_PLAN')
  const paying = hasActiveAccess(access, now) && access.role !== 'app_trial' && access.subscriptionStatus !== 'gifted' && hasSubscription
  if (paying && access.role === plan) throw conflict('You already have this plan.', 'ALREADY_SUBSCRIBED')
  if (paying) throw conflict('You already have a subscription: switch plans with Manage Subscription.', 'USE_PORTAL')
}

export async function startCheckout(
  deps: Pick<Deps, 'db' | 'config' | 'now'>,
  user: { id: number; email: string },
  access: AccessState,
  body: CheckoutRequest,
): Promise<{ client_secret: string }> {
  const { config } = deps
  if (!config.billingEnabled) throw billingDisabled()
  const plan = parsePlanId(String(body.planType ?? ''), config.productName)
  if (plan === null) throw badRequest('planType must be one of the plans.', 'BAD_PLAN')
  const returnUrl = checkoutReturnUrl(config.appUrl, body.returnUrl)
  const now = deps.now()
  refuse(access, plan, (await storedCustomer(deps, user.id)).subscription !== null, now)
  try {
    const stripe = stripeFor(config)
    const { prices } = await catalog(deps)
    const trialEnd = trialEndFor(access, now)
    const create = async (customer: string) =>
      stripe.checkout.sessions.create({
        ui_mode: 'embedded_page',
        mode: 'subscription',
        customer,
        client_reference_id: String(user.id),
        line_items: [{ price: prices[plan], quantity: 1 }],
        redirect_on_completion: 'if_required',
        return_url: returnUrl,
        subscription_data: { metadata: { user_id: String(user.id), plan }, ...(trialEnd === null ? {} : { trial_end: trialEnd }) },
        metadata: { user_id: String(user.id), plan },
      })
    let customer = await ensureCustomer(deps, user.id, user.email)
    let session
    try {
      session = await create(customer)
    } catch (err) {
      // A stored customer Stripe no longer knows: forget it and make a new one, once.
      if ((err as { code?: string }).code !== 'resource_missing' || (err as { param?: string }).param !== 'customer') throw err
      await forgetCustomer(deps, user.id, customer)
      customer = await ensureCustomer(deps, user.id, user.email, customer)
      session = await create(customer)
    }
    if (!session.client_secret) throw new Error('checkout session without client_secret')
    return { client_secret: session.client_secret }
  } catch (err) {
    if (err instanceof AppError) throw err
    throw new AppError(503, 'CHECKOUT_FAILED', CHECKOUT_FAILED, undefined, err)
  }
}
