// The subscriber's side of billing (issue 13, spec §4 payment complete / subscription success, §8
// checkout and billing-portal errors): the calls to /api/billing/*, the texts they end in, and the
// success path after a paid checkout — shared by the embedded checkout and the return from a
// redirect (?session_id=…).
import type { SubscriptionView } from '../src/billing/subscription-view'
import type { PlanId } from '../src/access/plans'
import { ACTIVE_UNTIL_PERIOD_END, type AccessInfo } from '../src/access/rules'
import { me, type Me } from './account'
import { api, ApiError, call, within } from './client'
import { accessNotice, loadAccess } from './session'
import { toast } from './toast'

export const CHECKOUT_TEXT = {
  startFailed: 'Failed to start checkout process. Please try again.',
  invalidResponse: 'Invalid response from checkout service',
  somethingWrong: 'Something went wrong with the checkout process. Please try again.',
  loadingError: 'Error loading checkout',
  authRequired: 'Authentication required',
  authRequiredDescription: 'Please log in to subscribe.',
  checkoutError: 'Checkout Error',
  paymentSuccessful: 'Payment Successful!',
  activated: 'Subscription Activated!',
  activatedDescription: 'Your subscription is now active. Welcome!',
  activeUnrefreshed: 'Subscription Active',
  activeUnrefreshedDescription: 'Your subscription is active. Please refresh the page if needed.',
  paymentUnrefreshed: 'Your subscription is active. Please refresh the page to see updated information.',
} as const

export const PORTAL_TEXT = {
  noSubscription: 'No Subscription to Manage',
  noSubscriptionDescription: 'You need to subscribe to a plan first before you can manage your subscription.',
  failed: 'Could not open the billing portal. Please try again later.',
  noSession: 'User session not found',
  noUrl: 'Could not retrieve billing portal URL.',
} as const

/** Spec §9: the completion callback runs 2 s after 'Subscription Activated!'. */
export const SUCCESS_CALLBACK_MS = 2000

/** Subscription statuses under which Stripe is still billing (or about to) for this user. */
const LIVE_STRIPE_STATUSES = ['active', 'trialing', 'past_due', ACTIVE_UNTIL_PERIOD_END]

/**
 * A paid plan that Stripe bills: it changes plan in the billing portal (Stripe prorates it), not
 * through a second checkout, which would start a second subscription and bill twice.
 */
export function hasLiveSubscription(access: AccessInfo | null | undefined): boolean {
  if (!access || !access.hasAccess || !access.stripeCustomerId) return false
  if (access.userRole === 'admin' || access.userRole === 'app_trial' || access.userRole === 'trial_expired') return false
  return LIVE_STRIPE_STATUSES.includes(access.subscriptionStatus ?? '')
}

/** A checkout that could not start: `message` is what the checkout area shows under 'Error loading checkout'. */
export class CheckoutStartError extends Error {}

/** The page a checkout returns to (redirect case): this page, without its query. */
export function checkoutReturnUrl(): string {
  return window.location.origin + window.location.pathname
}

/**
 * POST /api/billing/checkout → the Checkout Session's client secret. Every failure is toasted
 * here (§8) and rethrown as a CheckoutStartError carrying the text for the checkout area.
 */
export async function createCheckoutSession(planType: PlanId): Promise<string> {
  let body: { client_secret?: unknown } | null
  try {
    body = await call(api.billing.checkout.post({ planType, returnUrl: checkoutReturnUrl() }, { fetch: within(15_000) }))
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      toast({ title: CHECKOUT_TEXT.authRequired, description: CHECKOUT_TEXT.authRequiredDescription, variant: 'destructive' })
      throw new CheckoutStartError(CHECKOUT_TEXT.authRequiredDescription)
    }
    // A refusal the server explains (409: admin, same plan) keeps its words; anything else is the spec's.
    const message = err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : CHECKOUT_TEXT.startFailed
    toast({ title: CHECKOUT_TEXT.checkoutError, description: message, variant: 'destructive' })
    throw new CheckoutStartError(message)
  }
  if (typeof body?.client_secret !== 'string' || body.client_secret === '') {
    toast({ title: CHECKOUT_TEXT.checkoutError, description: CHECKOUT_TEXT.invalidResponse, variant: 'destructive' })
    throw new CheckoutStartError(CHECKOUT_TEXT.invalidResponse)
  }
  return body.client_secret
}

/** Stripe.js would not load or mount the checkout. */
export function checkoutBroke(): string {
  toast({ title: CHECKOUT_TEXT.checkoutError, description: CHECKOUT_TEXT.somethingWrong, variant: 'destructive' })
  return CHECKOUT_TEXT.somethingWrong
}

const isPaid = (m: Me | null | undefined) => !!m && m.access.hasAccess && m.access.userRole !== 'app_trial' && m.access.userRole !== 'trial_expired'

/**
 * Refreshes the access state after a payment: POST /api/billing/refresh asks the server to read
 * the new subscription from Stripe at once, then GET /api/me. Should that still show no paid plan
 * (Stripe slow), the read is repeated a few times while the webhook is on its way (the socket's
 * access.changed also refreshes when it arrives). A refresh that fails
 * (loadAccess has retried it already) ends it. True only once a refresh shows the paid plan.
 */
export async function refreshAfterPayment(opts: { attempts?: number; delayMs?: number } = {}): Promise<boolean> {
  const attempts = opts.attempts ?? 6
  // The server re-reads the subscription from Stripe now; the webhook does the same later. A
  // failure here (Stripe slow, rate limit) is not the refresh failing: the webhook still comes.
  await call(api.billing.refresh.post({}, { fetch: within(10_000) })).catch(() => {})
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, opts.delayMs ?? 1000))
    const before = me.value
    const m = await loadAccess({ force: true, background: true })
    // loadAccess answers a failed request with the cached or current state: only a new one counts.
    const fresh = m !== null && m !== before && accessNotice.value === null
    if (!fresh) return false
    if (isPaid(m)) return true
  }
  // Every read went through but none shows the plan yet: not 'Activated' — the socket will tell.
  return false
}

export type PaymentOutcome = { title: string; description: string; refreshed: boolean }

/**
 * Spec §4: 'Payment Successful!', refresh the user data, then 'Subscription Activated!' — or,
 * when the refresh fails, 'Subscription Active'. The caller runs its completion callback
 * SUCCESS_CALLBACK_MS later.
 */
export async function completePayment(refresh: () => Promise<boolean> = refreshAfterPayment): Promise<PaymentOutcome> {
  toast({ title: CHECKOUT_TEXT.paymentSuccessful, description: 'Thank you! Activating your subscription…' })
  let refreshed = false
  try {
    refreshed = await refresh()
  } catch {}
  const outcome = refreshed
    ? { title: CHECKOUT_TEXT.activated, description: CHECKOUT_TEXT.activatedDescription, refreshed }
    : { title: CHECKOUT_TEXT.activeUnrefreshed, description: CHECKOUT_TEXT.activeUnrefreshedDescription, refreshed }
  toast({ title: outcome.title, description: outcome.description })
  return outcome
}

/**
 * Back from a checkout that redirected (3-D Secure, a wallet): the return URL carries
 * ?session_id=…. Runs the same success path once and takes the parameter out of the address.
 */
export function handleCheckoutReturn(): Promise<PaymentOutcome> | null {
  const url = new URL(window.location.href)
  if (!url.searchParams.has('session_id')) return null
  url.searchParams.delete('session_id')
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
  return completePayment()
}

export type PortalResult = { ok: true; url: string } | { ok: false }

/**
 * 'Manage Subscription': POST /api/billing/portal and open the portal in a new tab. When the user
 * is known to have a payment customer, the tab is opened before the request, inside the click, so
 * no popup blocker stops it, and closed again if the portal cannot be opened. Without one the
 * server is asked anyway (it says 'No Subscription to Manage'); every failure is toasted with
 * the §8 text.
 */
export async function openBillingPortal(opts: { hasCustomer?: boolean } = {}): Promise<PortalResult> {
  const tab = opts.hasCustomer === false ? null : window.open('', '_blank')
  try {
    // Checked although typed: a stand-in or a proxy may answer something else, and the §8 text says so.
    const body: { portalUrl?: unknown } | null = await call(api.billing.portal.post({}, { fetch: within(15_000) }))
    if (typeof body?.portalUrl !== 'string' || body.portalUrl === '') throw new Error(PORTAL_TEXT.noUrl)
    if (tab) {
      tab.opener = null
      tab.location.href = body.portalUrl
    } else if (!window.open(body.portalUrl, '_blank', 'noopener')) window.location.assign(body.portalUrl)
    return { ok: true, url: body.portalUrl }
  } catch (err) {
    tab?.close()
    toast(portalErrorToast(err))
    return { ok: false }
  }
}

export function portalErrorToast(err: unknown): { title: string; description: string; variant: 'destructive' } {
  if (err instanceof ApiError && err.status === 404) {
    const details = (err.body as { error?: { details?: { title?: unknown } } } | null)?.error?.details
    if (typeof details?.title === 'string' || err.code === 'NO_SUBSCRIPTION')
      return {
        title: typeof details?.title === 'string' ? details.title : PORTAL_TEXT.noSubscription,
        description: err.message || PORTAL_TEXT.noSubscriptionDescription,
        variant: 'destructive',
      }
  }
  if (err instanceof ApiError && err.status === 401) return { title: 'Error', description: PORTAL_TEXT.noSession, variant: 'destructive' }
  const message = err instanceof Error && err.message ? err.message : ''
  // A network failure's own words ('Failed to fetch', a timeout) mean nothing to a subscriber.
  const description = err instanceof ApiError || message === PORTAL_TEXT.noUrl ? message || PORTAL_TEXT.failed : PORTAL_TEXT.failed
  return { title: 'Error', description, variant: 'destructive' }
}

/** GET /api/billing/subscription: what the subscription page shows (the server's shape). */
export type SubscriptionSummary = SubscriptionView

export function fetchSubscription(): Promise<SubscriptionSummary> {
  return call(api.billing.subscription.get({ fetch: within(10_000) }))
}
