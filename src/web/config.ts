// GET /api/config: the runtime configuration the web app reads at start.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'

export function publicConfig(deps: Deps) {
  const { config } = deps
  return {
    appName: config.appName,
    productName: config.productName,
    productSlug: config.productSlug,
    forums: config.forums,
    googleEnabled: config.google.clientId !== null,
    billingEnabled: config.billingEnabled,
    stripePublishableKey: config.stripe.publishableKey,
    /** STRIPE_JS_URL: Stripe.js, loaded only when billing is on */
    stripeJsUrl: config.billingEnabled ? config.stripe.jsUrl : null,
    /** billing off: the plan every new account gets free (DEFAULT_PLAN; null: a 7-day trial, then the admin grants plans) */
    freePlan: config.billingEnabled ? null : config.defaultPlan,
    demo: config.demo,
    supportEmail: config.supportEmail,
    /** REQUIRE_ADMIN_2FA: admins enrol in two-factor sign-in before the admin pages open */
    requireAdmin2fa: config.requireAdmin2fa,
  }
}

export const configRoutes = (deps: Deps) =>
  new Elysia({ name: 'web-config' }).get('/api/config', () => publicConfig(deps), {
    detail: { summary: 'Public runtime configuration for the web app', tags: ['system'] },
  })
