// /api/billing — Stripe embedded checkout, billing portal, the subscription page's data and the
// signed webhook (issue 13). Thin: each route hands a plain service its inputs.
//   POST /api/billing/checkout {planType, returnUrl} → {client_secret}     checkout.ts
//   POST /api/billing/portal → {portalUrl}                                   portal.ts
//   GET  /api/billing/subscription → SubscriptionView                       subscription-view.ts
//   POST /api/billing/webhook (raw body, Stripe-Signature)                  webhook.ts
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import { readSessionToken, validateSession } from '../auth/session'
import type { Deps } from '../deps'
import { unauthorized, notFound } from '../lib/errors'
import { startCheckout } from './checkout'
import { openPortal } from './portal'
import { subscriptionView } from './subscription-view'
import { handleWebhook } from './webhook'

const tags = ['billing']

export const billingRoutes = (deps: Deps) => {
  // The spec's checkout toast reads 'Authentication required' for a signed-out caller.
  const signedIn = (request: Request) => {
    const session = validateSession(deps, readSessionToken(request.headers.get('cookie')))
    if (session === null) throw unauthorized('Authentication required')
    return session
  }
  return new Elysia({ name: 'billing' })
    .use(authPlugin(deps))
    .post(
      '/api/billing/checkout',
      ({ request, body }) => {
        const session = signedIn(request)
        return startCheckout(deps, session.user, session.access, body)
      },
      {
        body: t.Object({ planType: t.String(), returnUrl: t.String() }),
        detail: { summary: 'Start an embedded Stripe Checkout for a plan {planType, returnUrl (this site)} → {client_secret}', tags },
      },
    )
    .post('/api/billing/portal', ({ request }) => openPortal(deps, signedIn(request).user.id), {
      detail: { summary: 'Open the Stripe billing portal → {portalUrl}; 404 without a subscription', tags },
    })
    .get('/api/billing/subscription', ({ access }) => subscriptionView(deps.config, access, deps.now()), {
      auth: true,
      detail: { summary: "The signed-in user's plan, status, renewal or end date and next amount (from the database)", tags },
    })
    .post(
      '/api/billing/webhook',
      ({ request, body }) => {
        if (!deps.config.billingEnabled) throw notFound('Billing is not enabled on this server.', 'BILLING_DISABLED')
        return handleWebhook(deps, typeof body === 'string' ? body : '', request.headers.get('stripe-signature'))
      },
      {
        // The raw text, whatever the content type: the signature covers the exact bytes Stripe sent.
        parse: 'text',
        detail: { summary: `Stripe webhook (signed; events: checkout.session.completed, customer.subscription.*, invoice.paid, invoice.payment_failed)`, tags },
      },
    )
}
