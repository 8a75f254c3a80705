// Admin → Logs (and the Dashboard's System Health, in one line) tell an operator what the forum source is going through, in words with the fix: its
// health (state, since, the hour's requests and 403/429s, the reason), the newest post per subreddit, a
// configured forum Reddit closed, and posts that could not be read. Both themes, desktop and 390 px, by
// keyboard, and axe finds nothing on the scanner card.
import { expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../src/auth/session'
import { posts } from '../../src/db/schema'
import { BLOCK_PAGE, RedditClient } from '../../src/forums/reddit-client'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { newPage, screenshot, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

test('the scanner card names a blocked source, the closed default forum and an unparsed post, at 1280 px dark and 390 px light', async () => {
  const deps = world.server.deps
  ;(deps.source as RedditClient).health.noteRequest(Date.now(), 403)
  ;(deps.source as RedditClient).health.failed(Date.now(), 'blocked', BLOCK_PAGE)
  deps.db
    .insert(posts)
    .values([
      {
        redditId: 'good1',
        forum: 'gd',
        subreddit: 'gundeals',
        title: '[Optic] Holosun 507C',
        url: 'https://www.reddit.com/r/gundeals/comments/good1/',
        createdAt: new Date(Date.now() - 60_000),
      },
      {
        redditId: 'bad1',
        forum: 'product',
        subreddit: 'GunAccessoriesForSale',
        title: '[WTS] LEGO constructor kit',
        url: 'https://www.reddit.com/r/GunAccessoriesForSale/comments/bad1/',
        createdAt: new Date(Date.now() - 120_000),
        parseError: 'cannot read this post',
      },
    ])
    .run()
  const admin = await createUserWithSession(deps, { role: 'admin' })
  for (const [theme, viewport] of [
    ['dark', { width: 1280, height: 900 }],
    ['light', { width: 390, height: 844 }],
  ] as const) {
    const { page, context, errors } = await newPage(world.browser, { viewport, bypassCSP: true }) // axe is injected as a script
    await context.addInitScript((t) => localStorage.setItem('ui-theme', t), theme)
    await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: world.server.url }])
    await page.goto(`${world.server.url}/admin/logs`)
    const health = page.getByTestId('source-health')
    await health.waitFor()
    expect(await health.innerText()).toMatch(/^blocked since .+ · 1 request, 0 × 429, 1 × 403 in the last hour/)
    expect(await page.getByTestId('source-health-reason').innerText()).toBe(BLOCK_PAGE)
    expect(await page.getByTestId('forum-notice').innerText()).toContain('r/GunAccessoriesForSale was closed by Reddit in Oct 2025')
    const unparsed = await page.getByTestId('unparsed-posts').innerText()
    expect(unparsed).toContain('1 post could not be read in the last 24 hours')
    expect(unparsed).toContain('bad1 “[WTS] LEGO constructor kit”: cannot read this post')
    expect(await page.getByText('Last post in r/gundeals').count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    // by keyboard: Tab reaches the card's controls past the new lines
    let reached = false
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Force run')
    }
    expect(reached).toBe(true)
    expect(await axeFindings(page, '[data-testid="scanner-status"]')).toEqual([])
    await screenshot(page, `admin-logs-source-health-${theme}-${viewport.width}`)
    // the Dashboard's System Health says it too, and links to Logs
    await page.goto(`${world.server.url}/admin`)
    const line = page.getByTestId('health-source')
    await line.waitFor()
    expect(await line.innerText()).toMatch(/^Forum source blocked since .+: this address is blocked by Reddit .+ \(Logs\)$/)
    expect(await page.getByTestId('health-forum-notice').innerText()).toContain('r/GunAccessoriesForSale was closed by Reddit')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    expect(await axeFindings(page, '[data-testid="system-health"]')).toEqual([])
    await screenshot(page, `admin-dashboard-source-health-${theme}-${viewport.width}`)
    expect(errors).toEqual([])
    await context.close()
  }
})

test('a blocked source, everywhere an operator or a visitor looks: badge, Force run, Run scraper now, the landing feed', async () => {
  const deps = world.server.deps
  const source = deps.source as RedditClient
  source.health.failed(Date.now(), 'blocked', BLOCK_PAGE)
  for (let i = 0; i < 8; i++) source.budget.backoff('blocked', Date.now()) // the backoff a blocked address grows into
  const admin = await createUserWithSession(deps, { role: 'admin' })
  const { page, context, errors } = await newPage(world.browser, { viewport: { width: 1280, height: 900 } })
  const toast = (title: string) => page.getByTestId('toasts').locator('li.toast').filter({ hasText: title }).first()
  // a visitor: posts are delayed, in plain words, and nothing of the cause
  await page.goto(world.server.url)
  await page.getByTestId('live-indicator').waitFor()
  const note = page.getByTestId('feed-delayed')
  await note.waitFor()
  expect(await note.innerText()).toBe('New posts are delayed: Dibs cannot read the forums right now. They will show here as soon as it can.')
  // an admin: the cause and a link to Logs
  await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: world.server.url }])
  await page.goto(world.server.url)
  await page.getByText(`Cause: ${BLOCK_PAGE}.`).waitFor()
  expect(await note.getByRole('link', { name: 'Details on Logs' }).getAttribute('href')).toBe('/admin/logs')
  // Logs: the badge says the source's state, Force run says why nothing was sent
  await page.goto(`${world.server.url}/admin/logs`)
  const badge = page.getByTestId('scanner-state')
  await badge.waitFor()
  expect(await badge.innerText()).toBe('source blocked')
  await page.getByRole('button', { name: 'Force run' }).click()
  expect(await toast('Scan not sent').innerText()).toContain(`Not sent: ${BLOCK_PAGE}. Next try `)
  // Tools: Run scraper now names the state and the fix instead of "will run shortly"
  await page.goto(`${world.server.url}/admin/tools`)
  await page.getByRole('button', { name: 'Run scraper now' }).click()
  const scheduled = await toast('Scraper job scheduled').innerText()
  expect(scheduled).toContain(`The Reddit source is blocked: ${BLOCK_PAGE}`)
  expect(scheduled).not.toContain('will run shortly')
  await screenshot(page, 'admin-tools-source-blocked-1280')
  expect(errors).toEqual([])
  await context.close()
})
