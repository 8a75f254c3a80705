// axe-core over every admin page (issue 30 §5): both themes at 1280 px, the light theme at 390 px;
// no critical or serious finding — among them `scrollable-region-focusable`, a box that scrolls
// but cannot be reached by keyboard.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { posts } from '../../src/db/schema'
import { adminMenu } from '../../ui/routes'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { newPage, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()
const RUNS = [
  { width: 1280, height: 900, theme: 'dark' },
  { width: 1280, height: 900, theme: 'light' },
  { width: 390, height: 844, theme: 'light' },
] as const

let session: { page: Page; context: BrowserContext; errors: string[] } | null = null

beforeAll(async () => {
  const deps = world.server.deps
  for (let d = 0; d < 12; d++)
    deps.db
      .insert(posts)
      .values({
        redditId: `t3_a11y${d}`,
        forum: d % 3 === 0 ? 'gd' : 'product',
        subreddit: 'GunAccessoriesForSale',
        title: `[WTS] A long post title number ${d} that makes a table wide - $${100 + d}`,
        url: `https://reddit.test/a11y${d}`,
        createdAt: new Date(Date.now() - d * 3_600_000),
      })
      .run()
  // alerts with their latency stamps, so the Alert latency tables show
  const now = Date.now()
  for (let i = 1; i <= 5; i++)
    deps.sqlite
      .query(
        'INSERT INTO alert_latency (match_id, user_id, created_at, received_at, stored_at, matched_at, socket_at, email_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?)',
      )
      .run(200_000 + i, now - 90_000 - i * 1000, now - 60_000, now - 59_000, now - 58_000, now - 57_000, now - 40_000)
  for (let i = 0; i < 3; i++) await createUserWithSession(deps, { role: i ? 'product' : 'app_trial' })
  const admin = await createUserWithSession(deps, { role: 'admin' })
  session = await newPage(world.browser, { bypassCSP: true, reducedMotion: 'reduce' })
  await session.context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: world.server.url }])
})

afterAll(async () => {
  await session?.context.close()
})

// One test per admin page (the menu's length does not depend on the product's slug).
const PAGES = adminMenu('product')
for (let i = 0; i < PAGES.length; i++)
  test(`admin ${PAGES[i]!.label}: no critical or serious axe finding in either theme, at 1280 px and 390 px`, async () => {
    const { page, errors } = session!
    const { label, path } = adminMenu(world.server.deps.config.productSlug)[i]!
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(world.server.url + path)
    await page.locator('main h1').first().waitFor()
    // settled: no busy indicator left (the cards load their data after the heading shows)
    await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 10_000 }).catch(() => {})
    for (const d of await page.locator('main details').all()) await d.evaluate((e) => e.setAttribute('open', ''))
    const found: string[] = []
    for (const run of RUNS) {
      await page.setViewportSize({ width: run.width, height: run.height })
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), run.theme)
      for (const f of await axeFindings(page)) found.push(`${label} ${run.width}px ${run.theme} ${f.rule} (${f.impact}): ${f.nodes.join(' | ')}`)
    }
    expect(found).toEqual([])
    expect(errors).toEqual([])
  })
