// The admin Trends, Database and Alerts pages in Chromium (issue 14 items 8–10): charts render as
// canvases with captions and data tables, the 7/30/90 switch reloads them, they fit 390 px in both
// themes; the integrity check answers with a toast; a failed message is retried from the page.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { SESSION_COOKIE } from '../../src/auth/session'
import { matches, outbox, posts } from '../../src/db/schema'
import { enqueueEmail } from '../../src/outbox/queue'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { newPage, screenshot, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

async function adminPage(opts: { viewport?: { width: number; height: number }; theme?: 'light' | 'dark'; bypassCSP?: boolean } = {}) {
  const deps = world.server.deps
  const admin = await createUserWithSession(deps, { role: 'admin' })
  const made = await newPage(world.browser, { viewport: opts.viewport ?? { width: 1280, height: 900 }, bypassCSP: opts.bypassCSP, reducedMotion: 'reduce' })
  if (opts.theme) await made.context.addInitScript((t) => localStorage.setItem('ui-theme', t), opts.theme)
  await made.context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: world.server.url }])
  return { ...made, admin }
}

let seeded = false
/** 20 days of posts, one a day, a third of them deals. */
function seed() {
  if (seeded) return
  seeded = true
  for (let d = 0; d < 20; d++)
    world.server.deps.db
      .insert(posts)
      .values({
        redditId: `t3_e2e${d}`,
        forum: d % 3 === 0 ? 'gd' : 'product',
        subreddit: 'GunAccessoriesForSale',
        title: `Post ${d}`,
        url: `https://reddit.test/${d}`,
        createdAt: new Date(Date.now() - d * 86_400_000 - 30_000),
      })
      .run()
}

test('Trends: four captioned canvases with data tables; 7 / 30 / 90 switch the range', async () => {
  seed()
  const { page, errors, context, admin } = await adminPage()
  for (let d = 0; d < 5; d++)
    world.server.deps.db
      .insert(matches)
      .values({
        userId: admin.userId,
        category: 'wts',
        matchedTerms: ['x'],
        postTitle: 't',
        postUrl: `https://reddit.test/m${d}`,
        postCreatedAt: new Date(Date.now() - d * 86_400_000 - 20_000),
        matchedAt: new Date(Date.now() - d * 86_400_000),
      })
      .run()
  await page.goto(world.server.url + '/admin/trends')
  await page.getByRole('heading', { name: 'Trends', level: 1 }).waitFor()
  await page.locator('.ad-chart-canvas canvas').nth(3).waitFor()
  expect(await page.locator('.ad-chart-canvas canvas').count()).toBe(4)
  for (const caption of ['Posts per day by forum', 'Matches per day by category', 'New accounts per day', 'Post→alert latency per day'])
    await page.getByRole('figure', { name: caption }).waitFor()
  const postsRows = page.getByRole('figure', { name: 'Posts per day by forum' }).locator('details tbody tr')
  expect(await postsRows.count()).toBe(7)
  await page.getByRole('heading', { name: 'Most saved search terms' }).waitFor()
  await screenshot(page, 'admin-trends')
  for (const [label, days] of [
    ['30 days', 30],
    ['90 days', 90],
    ['7 days', 7],
  ] as const) {
    await page.getByRole('radio', { name: label }).check()
    await page.waitForFunction((n) => document.querySelectorAll('figure.ad-chart')[0]?.querySelectorAll('details tbody tr').length === n, days)
    expect(await page.locator('.ad-chart-canvas canvas').count()).toBe(4)
  }
  // the latency table holds seconds: 20 s for each live match
  await page.getByRole('figure', { name: 'Post→alert latency per day' }).getByText('Data table').click()
  await page.getByRole('figure', { name: 'Post→alert latency per day' }).getByRole('cell', { name: '20 s' }).first().waitFor()
  expect(errors).toEqual([])
  await context.close()
})

test('Trends at 390 px in the light theme: the charts and the page content fit the screen', async () => {
  seed()
  const { page, errors, context } = await adminPage({ viewport: { width: 390, height: 844 }, theme: 'light' })
  await page.goto(world.server.url + '/admin/trends')
  await page.locator('.ad-chart-canvas canvas').nth(3).waitFor()
  const widths = await page.locator('.ad-chart-canvas canvas').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))
  for (const right of widths) expect(right).toBeLessThanOrEqual(390)
  // Nothing of these pages' content reaches past the screen (wide tables scroll inside their box;
  // the admin section menu above belongs to the admin frame).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('.ad-grid *, .ad-toolbar *')]
      .filter((e) => e.getBoundingClientRect().right > 390 && !e.closest('.ad-table-scroll'))
      .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
  )
  expect(wide).toEqual([])
  expect(await page.getAttribute('html', 'data-theme')).toBe('light')
  await screenshot(page, 'admin-trends-390-light')
  expect(errors).toEqual([])
  await context.close()
})

test("Database: tables listed; 'Check integrity' answers with a toast; Optimize asks first", async () => {
  const { page, errors, context } = await adminPage()
  await page.goto(world.server.url + '/admin/database')
  await page.getByRole('heading', { name: 'Database', level: 1 }).waitFor()
  await page.getByRole('rowheader', { name: 'posts' }).waitFor()
  await page.getByRole('button', { name: 'Check integrity' }).click()
  await page.getByText('Integrity check passed').waitFor()
  expect(await page.getByTestId('integrity-result').textContent()).toBe('Quick check: ok')
  await page.getByRole('button', { name: 'Optimize (VACUUM)' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Optimize the database?' })
  await dialog.waitFor()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await dialog.waitFor({ state: 'detached' })
  expect(await page.getByRole('button', { name: 'Download backup' }).getAttribute('href')).toBe('/api/admin/database/backup')
  await screenshot(page, 'admin-database')
  expect(errors).toEqual([])
  await context.close()
})

test('Alerts: a failed message with its last error is retried from the page', async () => {
  const deps = world.server.deps
  const id = (await enqueueEmail(deps, 'match', { to: 'x@example.com', subject: 's', text: 't', html: 'h' }))!
  deps.db.update(outbox).set({ status: 'failed', attempts: 15, lastError: '550 5.1.1 mailbox unavailable' }).where(eq(outbox.id, id)).run()
  const { page, errors, context } = await adminPage()
  await page.goto(world.server.url + '/admin/alerts')
  await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor()
  await page.getByTestId('bounces').getByText('Not known', { exact: false }).waitFor()
  const row = page.getByTestId('failed-row').filter({ hasText: '550 5.1.1 mailbox unavailable' })
  await row.waitFor()
  await screenshot(page, 'admin-alerts')
  await row.getByRole('button', { name: `Retry message ${id}` }).click()
  await page.getByText('Message queued again').waitFor()
  await row.waitFor({ state: 'detached' })
  expect(deps.db.select().from(outbox).where(eq(outbox.id, id)).get()?.status).toBe('pending')
  expect(errors).toEqual([])
  await context.close()
})

test('axe finds nothing on the three pages, in the dark and the light theme (charts, tables, range switch)', async () => {
  seed()
  for (const theme of ['dark', 'light'] as const) {
    const { page, context } = await adminPage({ theme, bypassCSP: true })
    for (const [path, ready] of [
      ['/admin/trends', '.ad-chart-canvas canvas'],
      ['/admin/database', '.ad-grid table'],
      ['/admin/alerts', '.ad-chart-canvas canvas'],
    ] as const) {
      await page.goto(world.server.url + path)
      await page.locator(ready).first().waitFor()
      for (const d of await page.locator('.ad-grid details').all()) await d.evaluate((e) => e.setAttribute('open', ''))
      expect([theme, path, await axeFindings(page, '.ad-grid')]).toEqual([theme, path, []])
      if (path !== '/admin/database') expect([theme, path, await axeFindings(page, '.ad-toolbar')]).toEqual([theme, path, []])
    }
    await context.close()
  }
})

test('Trends at 1280, 1366 and 1440 px: every table fits its card (Alert latency shows p50, p95, p99 and Alerts); at 390 px they scroll in a focusable box', async () => {
  seed()
  const deps = world.server.deps
  const now = Date.now()
  for (let i = 1; i <= 20; i++)
    deps.sqlite
      .query(
        'INSERT OR IGNORE INTO alert_latency (match_id, user_id, created_at, received_at, stored_at, matched_at, socket_at, push_at, email_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(100_000 + i, now - 260_000 - i * 1000, now - 60_000, now - 59_000, now - 58_000, now - 57_000, now - 56_000, now - 40_000)
  for (const width of [1280, 1366, 1440, 390]) {
    const { page, errors, context } = await adminPage({ viewport: { width, height: 900 } })
    await page.goto(world.server.url + '/admin/trends')
    await page.getByTestId('alert-latency').locator('table').waitFor()
    const boxes = await page
      .locator('.ad-table-scroll')
      .evaluateAll((els) =>
        els.map((e) => ({ name: e.getAttribute('aria-label'), clipped: e.scrollWidth > e.clientWidth, focusable: (e as HTMLElement).tabIndex === 0 })),
      )
    const latency = boxes.find((b) => b.name === 'Alert latency by stage')!
    if (width > 1000) expect([width, boxes.filter((b) => b.clipped).map((b) => b.name)]).toEqual([width, []])
    else expect([width, latency.focusable]).toEqual([width, true])
    if (width === 1366) await screenshot(page, 'admin-trends-1366')
    expect(errors).toEqual([])
    await context.close()
  }
})
