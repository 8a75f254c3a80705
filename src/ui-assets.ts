// Public, non-API bits the browser needs beside the bundled app: its runtime config and
// unknown non-API paths, which get the app (its not-found page) with a 404 status.
import { Elysia } from 'elysia'
import type { Deps } from './deps'
import index from '../ui/index.html'

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
    demo: config.demo,
  }
}

export const uiAssetRoutes = (deps: Deps) =>
  new Elysia({ name: 'ui-assets' })
    .get('/api/config', () => publicConfig(deps), {
      detail: { summary: 'Public runtime configuration for the web app', tags: ['system'] },
    })

export { index }
