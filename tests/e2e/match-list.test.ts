// The match list as people with many terms use it (issue 30 §5, after Miniflux and Gmail): a compact
// density remembered per user in this browser (≥ 8 matches on a 1366×900 screen, ≥ 4 at 390 px),
// j / k with a visible focus, o opens the post, m marks read / unread, e archives, ? lists the keys,
// an instant filter over title, term and author; keys do nothing while typing. Both themes pass axe.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import type { AccessState } from '../../src/access/rules'
import { addTerm } from '../../src/terms/service'
import { axeFindings } from './axe'
import { startWorld, type World } from './journey'

const ACTIVE: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }
let world: World
let member: Awaited<ReturnType<World['subscriber']>>

beforeAll(async () => {
  world = await startWorld()
  member = await world.subscriber({ bypassCSP: true, reducedMotion: 'reduce' })
  await addTerm(world.server.deps, member.userId, ACTIVE, 'wts', 'holosun')
  const now = Math.floor(Date.now() / 1000)
  for (let i = 0; i < 14; i++)
    world.reddit.publish({
      subreddit: 'GunAccessoriesForSale',
      title: `[WTS] Holosun 507c number ${i} with a longer title that goes on - $${200 + i}`,
      author: `seller${i}`,
      created_utc: now - 600 + i,
    })
  await world.scan()
})
afterAll(() => world?.stop())

/** Cards wholly inside one screen, counted from the first card down (below the top bar, above the bottom tabs). */
const perScreen = (page: Page) =>
  page.evaluate(() => {
    const cards = [...document.querySelectorAll('[data-testid="match-card"]')].map((c) => c.getBoundingClientRect())
    const bars = [...document.querySelectorAll('[data-testid="bottom-tabs"], header.topbar')]
      .filter((b) => ['fixed', 'sticky'].includes(getComputedStyle(b).position) && b.getBoundingClientRect().height > 0)
      .reduce((sum, b) => sum + b.getBoundingClientRect().height, 0)
    const top = cards[0]!.top
    return cards.filter((r) => r.bottom - top <= innerHeight - bars).length
  })

const focusedTitle = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[data-testid="match-card"]')?.querySelector('.match-title a')?.textContent ?? null)

async function open(size: { width: number; height: number }) {
  const { page } = member
  await page.setViewportSize(size)
  await page.goto(world.server.url + '/dashboard/gafs/wts')
  await page.getByTestId('match-card').nth(11).waitFor()
  return page
}

test('compact density: ≥ 8 matches per 1366×900 screen and ≥ 4 at 390 px, remembered after a reload; axe in both themes', async () => {
  let page = await open({ width: 1366, height: 900 })
  const comfortable = await perScreen(page)
  await page.getByRole('button', { name: 'Compact' }).click()
  expect(await page.getByRole('button', { name: 'Compact' }).getAttribute('aria-pressed')).toBe('true')
  const compact = await perScreen(page)
  expect([comfortable, compact >= 8]).toEqual([comfortable, true])
  expect(compact).toBeGreaterThan(comfortable)
  page = await open({ width: 390, height: 844 })
  expect(await page.getByRole('button', { name: 'Compact' }).getAttribute('aria-pressed')).toBe('true')
  expect(await perScreen(page)).toBeGreaterThanOrEqual(4)
  for (const size of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size)
    for (const theme of ['dark', 'light']) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      expect([size.width, theme, await axeFindings(page, '.match-list')]).toEqual([size.width, theme, []])
    }
  }
  await page.getByRole('button', { name: 'Compact' }).click()
  expect(await page.getByRole('button', { name: 'Compact' }).getAttribute('aria-pressed')).toBe('false')
})

test('j / k move a visible focus, m marks read and unread, e archives, o opens the post, ? lists the keys', async () => {
  const page = await open({ width: 1366, height: 900 })
  const titles = await page.locator('[data-testid="match-card"] .match-title a').allTextContents()
  await page.keyboard.press('j')
  expect(await focusedTitle(page)).toBe(titles[0]!)
  const outline = await page
    .getByTestId('match-card')
    .first()
    .evaluate((c) => getComputedStyle(c).outlineStyle)
  expect(outline).not.toBe('none')
  await page.keyboard.press('j')
  await page.keyboard.press('j')
  await page.keyboard.press('k')
  expect(await focusedTitle(page)).toBe(titles[1]!)

  const second = page.getByTestId('match-card').nth(1)
  const wasNew = (await second.locator('.new-badge').count()) === 1
  await page.keyboard.press('m')
  await second.locator('.new-badge').waitFor({ state: wasNew ? 'detached' : 'attached' })
  await page.keyboard.press('m')
  await second.locator('.new-badge').waitFor({ state: wasNew ? 'attached' : 'detached' })

  await page.keyboard.press('e')
  await page.getByText('Match archived').first().waitFor()
  await page.locator('[data-testid="match-card"] .match-title a', { hasText: titles[1]! }).waitFor({ state: 'detached' })
  expect(await focusedTitle(page)).toBe(titles[2]!)

  const [tab] = await Promise.all([member.context.waitForEvent('page'), page.keyboard.press('o')])
  // the post opens in a new tab (the fake forum's address does not load here)
  await tab.close()

  expect(await page.locator('#match-keys').count()).toBe(0)
  await page.keyboard.press('?')
  await page.getByLabel('Keyboard shortcuts').getByText('mark read / unread').waitFor()
})

test('the filter narrows the list at once by title, term or author; keys typed into it do nothing', async () => {
  const page = await open({ width: 1366, height: 900 })
  const filter = page.getByRole('searchbox', { name: 'Filter matches' })
  const count = () => page.getByTestId('match-card').count()
  await filter.fill('seller5')
  expect(await count()).toBe(1)
  await filter.fill('number 1')
  expect(await count()).toBeGreaterThan(1)
  await filter.fill('holosun')
  expect(await count()).toBeGreaterThan(10)
  await filter.fill('')
  await filter.focus()
  await page.keyboard.type('jjke')
  expect(await filter.inputValue()).toBe('jjke')
  expect(await focusedTitle(page)).toBeNull()
  expect(await page.getByText('No matches for "jjke"').count()).toBe(1)
  expect(member.errors).toEqual([])
})
