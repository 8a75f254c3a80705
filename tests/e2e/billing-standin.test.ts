// The fake Stripe's stand-in Stripe.js in Chromium, on an app page under the app's own CSP: it
// loads from STRIPE_JS_URL, mounts the embedded checkout form, and Pay completes the session
// (webhooks included) and calls onComplete.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { billingWorld, DAY_MS, type BillingWorld } from '../api/billing-helpers'
import { launchBrowser, newPage } from './browser'

let w: BillingWorld
let browser: Browser
beforeAll(async () => {
  w = await billingWorld()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser.close()
  await w.stop()
})

test('stand-in Stripe.js: mount, Pay, onComplete; the user has the plan', async () => {
  const u = await w.user({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY_MS) })
  const { clientSecret } = await w.checkout(u.cookie, 'product+gd')
  const { page, errors } = await newPage(browser)
  await page.goto(`${w.server.url}/login`)
  await page.addScriptTag({ url: w.stripe.jsUrl })
  await page.evaluate(async (secret) => {
    const el = document.createElement('div')
    el.id = 'checkout'
    document.body.appendChild(el)
    const stripe = (window as any).Stripe('pk_test_fake')
    const checkout = await stripe.createEmbeddedCheckoutPage({
      fetchClientSecret: async () => secret,
      onComplete: () => ((window as any).__completed = true),
    })
    checkout.mount('#checkout')
  }, clientSecret)
  await page.getByRole('heading', { name: 'Stand-in Stripe Checkout' }).waitFor()
  expect(await page.locator('#checkout').textContent()).toContain('$20.00/month')
  await page.getByRole('button', { name: 'Pay' }).click()
  await page.waitForFunction(() => (window as any).__completed === true)
  expect(errors).toEqual([])
  expect((await w.state(u.userId)).role).toBe('product+gd')
})
