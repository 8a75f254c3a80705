// Issue 13 item 14, the Chromium journey: a real server with billing on against the fake Stripe
// (tests/fakes/stripe.ts: REST subset, signed webhooks, the stand-in Stripe.js at STRIPE_JS_URL and
// a stand-in billing portal). A trial that ended → a plan card of the blocking overlay → the
// embedded checkout → Pay → 'Subscription Activated!' → the dashboard unlocked → the subscription
// page → Manage Subscription opens the portal in a new tab → cancel there → 'Canceled - Active
// Until Period End' → the period ends → the overlay is back ('Reactivate Your Subscription').
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { startFakeStripe, type FakeStripe } from '../fakes/stripe'
import { createUserWithSession, startTestServer } from '../helpers'
import { launchBrowser, newPage, screenshot } from './browser'
import { axeFindings } from './axe'

const DAY = 86_400_000
let stripe: FakeStripe
let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser

beforeAll(async () => {
  stripe = await startFakeStripe()
  server = await startTestServer(stripe.env())
  stripe.setWebhook(`${server.url}/api/billing/webhook`)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await stripe?.stop()
})

async function signedIn(opts: Parameters<typeof createUserWithSession>[1], viewport = { width: 1280, height: 900 }) {
  const u = await createUserWithSession(server.deps, opts)
  const made = await newPage(browser, { viewport })
  await made.context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: server.url }])
  return { ...made, userId: u.userId }
}

const statusText = (page: Page) => page.getByTestId('subscription-details').getByTestId('status-text')

test('trial ended → overlay plan card → embedded checkout → Subscription Activated! → unlocked → portal → cancel at period end → period end → overlay', async () => {
  const { page, context, errors, userId } = await signedIn({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() - DAY) })
  await page.goto(server.url + '/dashboard/gafs/wts')

  // the blocking overlay of an ended trial, its plan cards now open the checkout
  const overlay = page.getByTestId('access-overlay')
  await overlay.getByRole('heading', { name: 'Your Free Trial Has Ended' }).waitFor()
  expect(await page.locator('script[data-stripe-js]').count()).toBe(0)
  await overlay.getByRole('button', { name: 'Subscribe to GAFS + GD' }).click()
  const checkout = overlay.getByTestId('checkout')
  await checkout.getByText('Stand-in Stripe Checkout').waitFor()
  expect(await page.locator('script[data-stripe-js]').getAttribute('src')).toBe(stripe.jsUrl)
  expect(await checkout.getByText('GAFS + GD — $20.00/month').count()).toBe(1)
  await screenshot(page, 'billing-checkout-overlay')

  // back to the plans and in again: the first checkout is destroyed, a new session is made
  await checkout.getByRole('button', { name: 'Back to Plan Selection' }).click()
  await overlay.getByRole('heading', { name: 'Available Plans' }).waitFor()
  expect(await overlay.getByText('Stand-in Stripe Checkout').count()).toBe(0)
  await overlay.getByRole('button', { name: 'Subscribe to GAFS + GD' }).click()
  await checkout.getByRole('button', { name: 'Pay', exact: true }).click()

  // paid: the success path, and the overlay gives way to the dashboard
  await page.getByText('Subscription Activated!').first().waitFor()
  await page.getByText('Your subscription is now active. Welcome!').first().waitFor()
  await overlay.waitFor({ state: 'detached' })
  await page.getByRole('button', { name: 'Search WTS Posts' }).waitFor()
  const row = server.deps.sqlite.query('SELECT role, subscription_status, stripe_customer_id FROM user_access WHERE user_id = ?').get(userId) as Record<
    string,
    string
  >
  expect(row.role).toBe('product+gd')
  expect(row.stripe_customer_id).toMatch(/^cus_/)

  // the subscription page: plan, status, renewal, next amount
  await page.goto(server.url + '/dashboard/subscription')
  await page.getByTestId('current-plan').getByText('GAFS + GD').waitFor()
  expect(await statusText(page).textContent()).toBe('Active')
  await page
    .getByTestId('next-payment')
    .getByText(/^\$20 on /)
    .waitFor()
  expect(await page.getByTestId('subscription-details').textContent()).toContain('Renews on')
  await screenshot(page, 'billing-subscription-active')

  // Manage Subscription: the portal in a new tab; cancelling there cancels at period end
  const [portal] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Manage Subscription' }).click()])
  await portal.waitForURL(/\/_fake\/portal\//)
  await portal.getByRole('heading', { name: 'Stand-in Billing Portal' }).waitFor()
  expect(await portal.evaluate(() => window.opener)).toBeNull()
  await portal.getByRole('button', { name: 'Cancel plan' }).click()
  await portal.waitForURL((u) => u.origin === server.url)
  await portal.close()

  // the open tab hears it (access.changed over the socket): the status text and the end date
  await statusText(page).getByText('Canceled - Active Until Period End').waitFor({ timeout: 10_000 })
  await page.getByTestId('subscription-details').getByText('Access ends').waitFor()
  expect(await page.getByTestId('next-payment').count()).toBe(0)
  await screenshot(page, 'billing-subscription-canceled')

  // the period ends: Stripe ends the subscription, the overlay comes back
  const sub = [...stripe.subscriptions.values()].find((s) => s.customer === row.stripe_customer_id)!
  await stripe.endPeriod(sub.id)
  await page.getByTestId('access-overlay').getByRole('heading', { name: 'Reactivate Your Subscription' }).waitFor({ timeout: 10_000 })
  expect(errors).toEqual([])
  await context.close()
})

test('a trial ending tomorrow on a phone, light theme: the trial-concluding lines on /dashboard/subscription open the checkout in place', async () => {
  const { page, context, errors } = await signedIn(
    { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + DAY - 60_000) },
    { width: 390, height: 844 },
  )
  // the light theme here (the first journey runs in the default dark one)
  await context.addInitScript(() => localStorage.setItem('ui-theme', 'light'))
  await page.goto(server.url + '/dashboard/subscription')
  const section = page.getByTestId('trial-concluding')
  await section.getByRole('heading', { name: 'Your Trial is Ending Soon' }).waitFor()
  // the page's own section replaces the top-of-page 'ending soon' prompt
  expect(await page.getByTestId('trial-ending-prompt').count()).toBe(0)
  expect(await section.locator('.plan-line-text').allTextContents()).toEqual(['GAFS — $15/month', 'GunDeals (GD) — $10/month', 'GAFS + GD — $20/month'])
  // nothing wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await screenshot(page, 'billing-trial-concluding-phone')
  await section.getByRole('button', { name: 'Subscribe to GunDeals (GD)' }).click()
  await section.getByText('Stand-in Stripe Checkout').waitFor()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await section.getByRole('button', { name: 'Pay', exact: true }).click()
  await page.getByText('Subscription Activated!').first().waitFor()
  await statusText(page)
    .getByText(/^(Active|Trial Active)$/)
    .waitFor()
  await page.getByTestId('current-plan').getByText('GunDeals (GD)').waitFor()
  expect(errors).toEqual([])
  await context.close()
})

test('billing on, a signed-in page that does not check out loads no Stripe script; the modal shows the plans with Subscribe, usable by keyboard', async () => {
  const { page, context, errors } = await signedIn({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY) })
  await page.goto(server.url + '/dashboard/subscription')
  await page.getByTestId('subscription-details').waitFor()
  await page.getByRole('button', { name: 'Choose a Plan' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Available Plans' }).waitFor()
  expect(await dialog.getByRole('button', { name: /^Subscribe to / }).count()).toBe(3)
  expect(await page.locator('script[data-stripe-js]').count()).toBe(0)
  // by keyboard: Enter on a card opens its checkout with focus on 'Back to Plan Selection'; Enter there returns to that card
  await dialog.getByRole('button', { name: 'Subscribe to GAFS', exact: true }).focus()
  await page.keyboard.press('Enter')
  await dialog.getByText('Stand-in Stripe Checkout').waitFor()
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Back to Plan Selection')
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pay')
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Enter')
  await dialog.getByRole('heading', { name: 'Available Plans' }).waitFor()
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Subscribe to GAFS')
  await page.keyboard.press('Enter')
  await dialog.getByText('Stand-in Stripe Checkout').waitFor()
  // Escape closes the modal and takes the checkout down with it
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  expect(await page.getByText('Stand-in Stripe Checkout').count()).toBe(0)
  expect(errors).toEqual([])
  await context.close()
})

test('axe: the subscription page with the trial-concluding section, and the modal with its checkout open, at 390 px and 1280 px in both themes', async () => {
  // bypassCSP: axe-core is injected (tests/e2e/axe.ts)
  const u = await createUserWithSession(server.deps, {
    role: 'app_trial',
    subscriptionStatus: 'trialing',
    accessExpiresAt: new Date(Date.now() + DAY - 60_000),
  })
  const { page, context, errors } = await newPage(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true, reducedMotion: 'reduce' })
  await context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: server.url }])
  await page.goto(server.url + '/dashboard/subscription')
  await page.getByTestId('trial-concluding').waitFor()
  const found: string[] = []
  const sweep = async (state: string, within?: string) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 })
      for (const theme of ['light', 'dark']) {
        await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
        for (const f of await axeFindings(page, within)) found.push(`${state} ${width}px ${theme} ${f.rule}: ${f.nodes.join(' | ')}`)
      }
    }
  }
  await sweep('subscription page')
  await page.locator('.settings-menu > summary').click()
  await page.locator('.settings-menu').getByText('Subscription', { exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Subscribe to GAFS + GD' }).click()
  await dialog.getByText('Stand-in Stripe Checkout').waitFor()
  await sweep('modal with checkout', 'dialog')
  expect(found).toEqual([])
  expect(errors).toEqual([])
  await context.close()
})

test('with the webhooks lost, paying still unlocks: the return path asks the server to read the subscription from Stripe', async () => {
  const { page, context, errors } = await signedIn({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() - DAY) })
  stripe.setWebhook(null)
  try {
    await page.goto(server.url + '/dashboard/gundeals')
    const overlay = page.getByTestId('access-overlay')
    await overlay.getByRole('button', { name: 'Subscribe to GunDeals (GD)' }).click()
    await overlay.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.getByText('Subscription Activated!').first().waitFor()
    await overlay.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Search Gundeals Posts' }).waitFor()
  } finally {
    stripe.setWebhook(`${server.url}/api/billing/webhook`)
  }
  expect(errors).toEqual([])
  await context.close()
})
