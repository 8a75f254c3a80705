// The admin journey in Chromium (issue 14 item 15, dashboard and tools part): an admin signs in,
// switches the emergency killswitch (a second admin tab sees it live), turns maintenance mode on (a
// subscriber's tab shows the maintenance page, then recovers), and runs the scraper and batch
// matching from Tools; the pages hold at 390 px. Screenshots go to test-artifacts/.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { BROWSER_TEST_TIMEOUT_MS, screenshot } from './browser'
import { startWorld, type World } from './journey'

// this suite runs in the second test process (scripts/test.sh), whose --timeout is 30 s
setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS)

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(async () => {
  await world?.stop()
})

const toast = (page: Page, title: string) => page.getByTestId('toasts').locator('li.toast').filter({ hasText: title }).first()

async function signIn(page: Page, email: string, password: string) {
  await page.goto(world.server.url + '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in with Email' }).click()
  await page.waitForURL((u) => !u.pathname.startsWith('/login'))
}

describe('admin dashboard journey', () => {
  test('killswitch live across admin tabs, maintenance page for subscribers, tools run the scraper', async () => {
    await createUserWithSession(world.server.deps, { role: 'admin', email: 'ada@example.com', password: 'ada-password-1', name: 'Ada Admin' })
    const { page: a, context, errors } = await world.visitor()
    await signIn(a, 'ada@example.com', 'ada-password-1')
    await a.goto(world.server.url + '/admin')
    await a.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()
    await a.getByText('Admin Access', { exact: true }).waitFor()
    await a.getByTestId('emergency-badge').getByText('ACTIVE').waitFor()
    await a.getByTestId('maintenance-badge').getByText('NORMAL').waitFor()
    expect(await a.getByTestId('emergency-switch').isChecked()).toBe(true) // 'on' while not paused
    expect(await a.getByTestId('system-alert').count()).toBe(0)
    await a.getByTestId('kpi-cards').locator('.kpi-card').nth(7).waitFor()
    expect(await a.getByTestId('kpi-cards').locator('.kpi-card').count()).toBe(8)
    await a.getByTestId('system-health').getByText('Email queue pending').waitFor()
    await a.getByTestId('system-resources').getByText('Open sockets').waitFor()
    await a.getByTestId('alert-latency').getByText('No alerts in this window.').waitFor()
    for (const tile of ['Users', 'Scraper Logs', 'Database', 'Trends', 'Alerts', 'Revenue', 'Tools', 'Feedback'])
      await a.locator('.quick-actions').getByRole('link', { name: tile }).waitFor()

    // A second admin tab follows the switch live.
    const b = await context.newPage()
    await b.goto(world.server.url + '/admin')
    await b.getByTestId('emergency-badge').getByText('ACTIVE').waitFor()

    await a.getByTestId('emergency-switch').click()
    await toast(a, 'EMERGENCY PAUSE ACTIVATED').waitFor()
    await a.getByText('All system operations are now paused').waitFor()
    await a.getByTestId('emergency-badge').getByText('PAUSED').waitFor()
    await a.getByTestId('system-alert').waitFor()
    expect(await a.getByTestId('emergency-switch').isChecked()).toBe(false)
    await b.getByTestId('emergency-badge').getByText('PAUSED').waitFor() // no reload
    await b.getByTestId('paused-banner').waitFor()
    await b.getByTestId('system-alert').waitFor()
    await screenshot(a, 'admin-dashboard-paused')

    await a.getByTestId('emergency-switch').click()
    await toast(a, 'Emergency Pause Deactivated').waitFor()
    await a.getByText('System operations have been resumed').waitFor()
    await b.getByTestId('emergency-badge').getByText('ACTIVE').waitFor()
    await b.getByTestId('paused-banner').waitFor({ state: 'detached' })

    // Maintenance mode: a subscriber's tab shows the maintenance page; admins keep working.
    const sub = await world.subscriber()
    await sub.page.goto(world.server.url + '/archive')
    await sub.page.getByRole('heading', { name: 'Archive', exact: true }).waitFor()
    await a.getByTestId('maintenance-switch').click()
    await toast(a, 'Maintenance Mode Enabled').waitFor()
    await a.getByText('System is now in maintenance mode').waitFor()
    await a.getByTestId('maintenance-badge').getByText('MAINTENANCE').waitFor()
    await b.getByTestId('maintenance-banner').waitFor()
    await sub.page.goto(world.server.url + '/archive')
    await sub.page.getByTestId('maintenance-page').getByRole('heading', { name: 'Down for maintenance' }).waitFor()
    await screenshot(sub.page, 'maintenance-page')
    await a.getByTestId('maintenance-switch').click()
    await toast(a, 'Maintenance Mode Disabled').waitFor()
    await a.getByText('System maintenance mode has been disabled').waitFor()
    await sub.page.getByRole('button', { name: 'Try again' }).click()
    await sub.page.getByRole('heading', { name: 'Archive', exact: true }).waitFor()
    await sub.context.close()
    await screenshot(a, 'admin-dashboard')

    // Tools: schedule the scraper, which finds the new post; batch matching reports its figures.
    world.reddit.publish({ title: '[WTS] Trijicon RMR Type 2 - $400', subreddit: 'GunAccessoriesForSale' })
    await a.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Tools' }).click()
    await a.getByRole('heading', { name: 'Tools' }).waitFor()
    await a.getByTestId('scan-metrics').getByText('No scans recorded yet.').waitFor()
    await a.getByRole('button', { name: 'Run scraper now' }).click()
    await toast(a, 'Scraper job scheduled').waitFor()
    await a.getByText('The Reddit scraper job has been scheduled and will run shortly').waitFor()
    await a.getByTestId('scan-metrics').locator('tbody tr', { hasText: 'manual' }).waitFor() // live via scan.metric
    await a.getByRole('button', { name: 'Run batch matching' }).click()
    await toast(a, 'Batch matching completed').waitFor()
    await a.getByText(/Created 0 matches in [\d.]+ seconds/).waitFor()
    await a.getByTestId('maintenance-logs').getByText('match-batch').waitFor()
    await a.getByRole('button', { name: 'Backfill post types' }).click()
    await toast(a, 'Backfill completed').waitFor()
    await screenshot(a, 'admin-tools')

    // Logs: the scanner's state, the scan log and the application log.
    await a.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Logs' }).click()
    await a.getByRole('heading', { name: 'Scraper Logs' }).waitFor()
    await a.getByTestId('scanner-state').waitFor()
    await a.getByTestId('scan-log').getByText('fetch-reddit-posts (manual)').waitFor()
    await a.getByText('Active instances are not set here', { exact: false }).waitFor()
    await screenshot(a, 'admin-logs')

    // Recent Activity lists what the admin did.
    await a.goto(world.server.url + '/admin')
    await a.getByTestId('recent-activity').getByText('Emergency pause turned on').first().waitFor()
    await a.getByTestId('recent-activity').getByText('Scraper run scheduled').first().waitFor()
    expect(errors).toEqual([])
    await context.close()
  }, 150_000) // a long journey on a shared, busy machine

  test('the admin pages hold at 390 px in both themes: no sideways scroll, no serious axe finding, switches reachable by keyboard', async () => {
    const admin = await createUserWithSession(world.server.deps, { role: 'admin', email: 'narrow@example.com' })
    for (const theme of ['light', 'dark'] as const) {
      const { page, context, errors } = await world.visitor({ viewport: { width: 390, height: 844 }, theme, bypassCSP: true })
      await context.addCookies([{ name: 'dibs_session', value: admin.token, url: world.server.url }])
      for (const path of ['/admin', '/admin/tools', '/admin/logs']) {
        await page.goto(world.server.url + path)
        await page.locator('.admin-card').first().waitFor()
        await page.waitForLoadState('networkidle')
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect({ path, theme, overflow }).toEqual({ path, theme, overflow: 0 })
        if (theme === 'dark' && path !== '/admin') continue // axe: every page once, the dashboard in both themes (CI time)
        const findings = (await axeFindings(page, '.admin-page')).map((f) => `${f.rule}: ${f.nodes.join(' | ')}`)
        expect({ path, theme, findings }).toEqual({ path, theme, findings: [] })
      }
      await screenshot(page, `admin-dashboard-390-${theme}`)
      // the switches are reachable by keyboard
      await page.goto(world.server.url + '/admin')
      await page.waitForSelector('[data-testid=emergency-switch]:not([disabled])') // disabled until the settings have loaded
      await page.getByTestId('emergency-switch').focus()
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('emergency-switch')
      expect(errors).toEqual([])
      await context.close()
    }
  }, 120_000)
})
