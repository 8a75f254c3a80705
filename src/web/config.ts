// GET /api/config: the runtime configuration the web app reads at start.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { scanIntervalNow } from '../scanner/scan'
import type { WithSource } from '../scanner/source'
import { ConfigResponse } from './models'

export function publicConfig(deps: Deps & WithSource) {
  const { config } = deps
  return {
    appName: config.appName,
    productName: config.productName,
    productSlug: config.productSlug,
    forums: config.forums,
    /** the deals forum's name in every text ('Gundeals'; a FORUM_PRESET pair's own, e.g. 'BuildAPCSales') */
    dealsLabel: config.dealsLabel,
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
    /** the scan cadence in force now (seconds): the search-terms dialog's scan-frequency helper says it */
    scanIntervalSeconds: Math.round(scanIntervalNow(deps).ms / 100) / 10,
  }
}

export const configRoutes = (deps: Deps & WithSource) =>
  new Elysia({ name: 'web-config' }).get('/api/config', () => publicConfig(deps), {
    response: { 200: ConfigResponse },
    detail: { security: [], summary: 'Public runtime configuration for the web app', tags: ['system'] },
  })
