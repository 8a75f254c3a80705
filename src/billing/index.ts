// /api/billing — Stripe embedded checkout, billing portal, the subscription page's data and the
// signed webhook (issue 13). Thin: each route hands a plain service its inputs.
//   POST /api/billing/checkout {planType, returnUrl} → {client_secret}     checkout.ts
//   POST /api/billing/portal → {portalUrl}                                   portal.ts
//   GET  /api/billing/subscription → SubscriptionView                       subscription-view.ts
//   POST /api/billing/refresh → {access, subscription}                      refresh.ts (re-read now)
//   POST /api/billing/webhook (raw body, Stripe-Signature)                  webhook.ts
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import { readSessionToken, validateSession } from '../auth/session'
import type { Deps } from '../deps'
import { unauthorized, notFound, tooMany } from '../lib/errors'
import { RateLimiter } from '../lib/rate-limit'
import { accessStateFor } from '../access/service'
import { accessInfo } from '../access/rules'
import { refreshUser } from './refresh'
import { startCheckout } from './checkout'
import { openPortal } from './portal'
import { subscriptionView } from './subscription-view'
import { handleWebhook } from './webhook'
import { BillingCheckoutResponse, BillingPortalResponse, BillingRefreshResponse, BillingSubscriptionResponse, BillingWebhookResponse } from './models'
import { errors } from '../lib/models'

const tags = ['billing']

export const billingRoutes = (deps: Deps) => {
  // The spec's checkout toast reads 'Authentication required' for a signed-out caller.
  const signedIn = async (request: Request) => {
    const session = await validateSession(deps, readSessionToken(request.headers.get('cookie')))
    if (session === null) throw unauthorized('Authentication required')
    return session
  }
  // Each of these calls Stripe: a user cannot make the server hammer it.
  const limits = { checkout: new RateLimiter(10, 60_000), refresh: new RateLimiter(6, 60_000) }
  return new Elysia({ name: 'billing' })
    .use(authPlugin(deps))
    .post(
      '/api/billing/checkout',
      async ({ request, body }) => {
        const session = await signedIn(request)
        const wait = limits.checkout.hit(String(session.user.id))
        if (wait > 0) throw tooMany('Too many checkout attempts. Please wait a moment.', wait)
        return startCheckout(deps, session.user, session.access, body)
      },
      {
        response: { 200: BillingCheckoutResponse, ...errors(400, 401, 429) },
        body: t.Object({ planType: t.String(), returnUrl: t.String() }),
        detail: { summary: 'Start an embedded Stripe Checkout for a plan {planType, returnUrl (this site)} → {client_secret}', tags },
      },
    )
    .post('/api/billing/portal', async ({ request }) => openPortal(deps, (await signedIn(request)).user.id), {
      response: { 200: BillingPortalResponse, ...errors(401) },
      detail: { summary: 'Open the Stripe billing portal → {portalUrl}; 404 without a subscription', tags },
    })
    .get('/api/billing/subscription', ({ access }) => subscriptionView(deps.config, access, deps.now()), {
      response: { 200: BillingSubscriptionResponse, ...errors(401) },
      auth: true,
      detail: { summary: "The signed-in user's plan, status, renewal or end date and next amount (from the database)", tags },
    })
    .post(
      '/api/billing/refresh',
      async ({ request }) => {
        const session = await signedIn(request)
        const wait = limits.refresh.hit(String(session.user.id))
        if (wait > 0) throw tooMany('Too many refreshes. Please wait a moment.', wait)
        await refreshUser(deps, session.user.id)
        const state = (await accessStateFor(deps, session.user.id))!
        return { access: accessInfo(state, deps.now()), subscription: subscriptionView(deps.config, state, deps.now()) }
      },
      {
        response: { 200: BillingRefreshResponse, ...errors(401, 429) },
        detail: {
          summary: 'Re-read the signed-in user’s subscription from Stripe now (after checkout, before the webhook) → {access, subscription}',
          tags,
        },
      },
    )
    .post(
      '/api/billing/webhook',
      ({ request, body }) => {
        if (!deps.config.billingEnabled) throw notFound('Billing is not enabled on this server.', 'BILLING_DISABLED')
        return handleWebhook(deps, typeof body === 'string' ? body : '', request.headers.get('stripe-signature'))
      },
      {
        response: { 200: BillingWebhookResponse, ...errors(400) },
        // The raw text, whatever the content type: the signature covers the exact bytes Stripe sent.
        parse: 'text',
        detail: {
          security: [],
          summary: `Stripe webhook (signed; events: checkout.session.completed, customer.subscription.*, invoice.paid, invoice.payment_failed)`,
          tags,
        },
      },
    )
}
