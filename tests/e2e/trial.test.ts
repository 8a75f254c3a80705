// Issue 12 items 3 and 8 in Chromium: the trial is visible (top-bar badge, the modal's trial status
// box, 'Your Trial is Ending Soon' in the last 2 days); the subscription modal shows the role badge,
// plans only to whom they apply and 'Manage Subscription' only with a customer id.
import { expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession } from '../helpers'
import { useServerAndBrowser, newPage, screenshot } from './browser'

const DAY = 86_400_000
const world = useServerAndBrowser()

async function as(opts: Parameters<typeof createUserWithSession>[1], viewport = { width: 1280, height: 900 }) {
  const u = await createUserWithSession(world.server.deps, opts)
  const made = await newPage(world.browser, { viewport })
  await made.context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: world.server.url }])
  return made
}

test('a trial with 2 days left: badge, ending-soon prompt, the modal with its trial box and plans', async () => {
  const { page, context, errors } = await as({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 2 * DAY - 60_000) })
  await page.goto(world.server.url + '/dashboard/gafs/wts')
  await page.getByTestId('trial-badge').getByText('Trial: 2 days left').waitFor()
  const prompt = page.getByTestId('trial-ending-prompt')
  await prompt.getByText('Your Trial is Ending Soon').waitFor()
  await page.getByTestId('trial-badge').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Your Trial is Ending Soon' }).waitFor()
  expect(await dialog.getByTestId('role-badge').textContent()).toBe('Active Trial')
  expect(await dialog.getByTestId('trial-status').textContent()).toContain('2 days left')
  expect(await dialog.getByTestId('plan-product').count()).toBe(1)
  expect(await dialog.getByRole('button', { name: 'Manage Subscription' }).count()).toBe(0)
  await screenshot(page, 'trial-modal-ending')
  await dialog.getByRole('button', { name: 'Close' }).click()
  // 'Not now' hides the prompt for the day, also after a reload
  await prompt.getByRole('button', { name: 'Not now' }).click()
  await page.reload()
  await page.getByTestId('trial-badge').waitFor()
  expect(await page.getByTestId('trial-ending-prompt').count()).toBe(0)
  expect(errors).toEqual([])
  await context.close()
})

test('a trial with 5 days left on a phone: the badge fits, no prompt, the modal is plain Subscription', async () => {
  const { page, context, errors } = await as(
    { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 5 * DAY - 60_000) },
    { width: 390, height: 844 },
  )
  await page.goto(world.server.url + '/dashboard/gafs/wts')
  const badge = page.getByTestId('trial-badge')
  await badge.getByText('Trial: 5 days left').waitFor()
  const box = (await badge.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(390)
  expect(await page.getByTestId('trial-ending-prompt').count()).toBe(0)
  await screenshot(page, 'trial-badge-phone')
  await badge.click()
  await page.getByRole('dialog').getByRole('heading', { name: 'Subscription' }).waitFor()
  expect(errors).toEqual([])
  await context.close()
})

/** The SETTINGS menu's Subscription item opens the modal (the Settings page's own button opens the billing portal). */
async function openSubscriptionModal(page: Page) {
  await page.locator('.settings-menu > summary').click()
  await page.locator('.settings-menu').getByText('Subscription', { exact: true }).click()
}

test('admins and paying subscribers see no plan grid; a customer id brings Manage Subscription; role none has a badge', async () => {
  const admin = await as({ role: 'admin' })
  await admin.page.goto(world.server.url + '/settings/subscription')
  await openSubscriptionModal(admin.page)
  const d1 = admin.page.getByRole('dialog')
  await d1.getByTestId('role-badge').getByText('Admin').waitFor()
  expect(await d1.getByText('Available Plans').count()).toBe(0)
  expect(await admin.page.getByTestId('trial-badge').count()).toBe(0)
  await admin.context.close()

  const u = await createUserWithSession(world.server.deps, { role: 'product+gd' })
  world.server.deps.sqlite.run('UPDATE user_access SET stripe_customer_id = ? WHERE user_id = ?', ['cus_test123', u.userId])
  const paid = await newPage(world.browser)
  await paid.context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: world.server.url }])
  await paid.page.goto(world.server.url + '/settings/subscription')
  await openSubscriptionModal(paid.page)
  const d2 = paid.page.getByRole('dialog')
  await d2.getByRole('button', { name: 'Manage Subscription' }).waitFor()
  expect(await d2.getByText('Available Plans').count()).toBe(0)
  expect(await d2.getByTestId('subscription-details').textContent()).toContain('Active')
  await paid.context.close()
})

test("the admins' auth debug panel: 'Clear Subscription Cache', 'Force Refresh User Data', 'View Cache Details'", async () => {
  const { page, context, errors } = await as({ role: 'admin' })
  await page.goto(world.server.url + '/dashboard/gundeals')
  const panel = page.getByTestId('auth-debug-panel')
  await panel.locator('summary').click()
  await panel.getByRole('button', { name: 'View Cache Details' }).click()
  expect(await panel.getByTestId('cache-details').textContent()).toContain('"userRole": "admin"')
  await panel.getByRole('button', { name: 'Clear Subscription Cache' }).click()
  await page.getByText('The subscription cache was cleared.').waitFor()
  expect(await page.evaluate(() => localStorage.getItem('access_info_cache'))).toBeNull()
  await panel.getByRole('button', { name: 'View Cache Details' }).click()
  expect(await panel.getByTestId('cache-details').textContent()).toBe('No cached subscription data.')
  await panel.getByRole('button', { name: 'Force Refresh User Data' }).click()
  await page.getByText('Role: admin, access: active').waitFor()
  expect(await page.evaluate(() => localStorage.getItem('access_info_cache'))).not.toBeNull()
  expect(errors).toEqual([])
  await context.close()
})
