// Admin → Logs lists the coverage gaps (windows the feed may have missed) for 24 h or 7 d, and says how
// sold/removed re-checks work without a key; the Dashboard's System Health counts the gaps of 24 h with a
// link to Logs. Both themes, desktop and 390 px, axe finds nothing on either card.
import { expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../src/auth/session'
import { recordPollGap } from '../../src/scanner/gaps'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { newPage, screenshot, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

test('the coverage gaps card, the re-check note and the System Health line, at 1280 px dark and 390 px light', async () => {
  const deps = world.server.deps
  const now = Date.now()
  const forums = [
    { forum: 'product', subreddits: 'GunAccessoriesForSale' },
    { forum: 'gd', subreddits: 'gundeals' },
  ]
  const gap = async (from: number, to: number) =>
    await recordPollGap(deps, { source: 'reddit', forums, newestStoredAt: from, posts: [{ createdAt: new Date(to) }], reachedKnown: false, at: to })
  await gap(now - 3 * 3600_000, now - 3 * 3600_000 + 38 * 60_000) // 38 min, three hours ago
  await gap(now - 3 * 86_400_000, now - 3 * 86_400_000 + 5 * 60_000) // 5 min, three days ago
  const admin = await createUserWithSession(deps, { role: 'admin' })
  for (const [theme, viewport] of [
    ['dark', { width: 1280, height: 900 }],
    ['light', { width: 390, height: 844 }],
  ] as const) {
    const { page, context, errors } = await newPage(world.browser, { viewport, bypassCSP: true })
    await context.addInitScript((t) => localStorage.setItem('ui-theme', t), theme)
    await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: world.server.url }])
    await page.goto(`${world.server.url}/admin/logs`)
    const card = page.getByTestId('coverage-gaps')
    const total = page.getByTestId('coverage-gaps-total')
    await total.waitFor()
    expect(await total.innerText()).toBe('1 gap, 38m 0s not covered')
    expect(await card.locator('tbody tr').count()).toBe(1)
    expect(await card.locator('tbody tr td').first().innerText()).toBe('r/GunAccessoriesForSale, r/gundeals')
    await card.getByLabel('Last').selectOption('7d')
    await page.waitForFunction(() => document.querySelector('[data-testid="coverage-gaps-total"]')?.textContent === '2 gaps, 43m 0s not covered')
    expect(await card.locator('tbody tr').count()).toBe(2)
    expect(await page.getByTestId('recheck-note').innerText()).toStartWith('Sold/removed re-checks come only from later polls of the feed')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    expect(await axeFindings(page, '[data-testid="coverage-gaps"]')).toEqual([])
    expect(await axeFindings(page, '[data-testid="scanner-status"]')).toEqual([])
    await screenshot(page, `admin-logs-coverage-gaps-${theme}-${viewport.width}`)

    await page.goto(`${world.server.url}/admin`)
    const line = page.getByTestId('health-gaps')
    await line.waitFor()
    expect(await line.innerText()).toBe('1 gap, 38m 0s not covered (Logs)')
    expect(await axeFindings(page, '[data-testid="system-health"]')).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  }
})
