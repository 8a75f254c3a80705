// Acceptance journeys of a signed-out visitor on the landing page (issue 5): the pitch, the plans,
// the FAQ, and the 'Live Reddit Feed' taking a new post live with its 2-second highlight.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { screenshot } from './browser'
import { startWorld, type World } from './journey'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(async () => {
  await world?.stop()
})

describe('the landing page in Chromium', () => {
  test('a visitor sees the calls to action, the 3 steps, the plans and the FAQ claims (billing on)', async () => {
    const { page, context, errors } = await world.visitor()
    // The spec's prices, trial and cancellation claims are for a server that takes payments; with
    // billing off the page says what is true instead (tests/e2e/first-hour.test.ts).
    await page.route('**/api/config', async (route) => {
      const res = await route.fetch()
      await route.fulfill({ response: res, json: { ...(await res.json()), billingEnabled: true, freePlan: null } })
    })
    await page.goto(world.server.url + '/')
    for (const text of ['Login', 'Sign Up']) await page.getByRole('link', { name: text, exact: true }).first().waitFor()
    await page.getByText('Start Free Trial').first().waitFor()
    for (const step of ['Save search terms', 'Wait for matches', 'Claim dibs']) await page.getByRole('heading', { name: step }).waitFor()
    for (const price of ['$15', '$10', '$20']) await page.locator('.plan-card .price', { hasText: price }).waitFor()
    await page.getByTestId('plan-product+gd').getByText('Best value').waitFor()
    await page.getByTestId('plan-product+gd').getByText('Saves $5').waitFor()
    await page.getByText('A dedicated mobile app is on the roadmap', { exact: false }).waitFor({ state: 'attached' })
    await page.getByText('Every subscriber gets 10 search terms for each list in their plan', { exact: false }).waitFor({ state: 'attached' })
    await page.getByText('cancel at any time and your benefits last until the end of the billing period', { exact: false }).waitFor({ state: 'attached' })
    await page.getByText('Every plan starts with a 7-day free trial.').waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  test('the live feed shows the empty texts, then takes a new post live with a 2-second highlight', async () => {
    const { page, context } = await world.visitor()
    await page.goto(world.server.url + '/')
    const feed = page.locator('#live-feed')
    await feed.getByRole('heading', { name: 'Live Reddit Feed' }).waitFor()
    await feed.getByText('Live updates enabled').waitFor()
    await feed.getByText('No WTS posts in the last 7 days').waitFor()
    await feed.getByRole('tab', { name: 'GUNDEALS' }).click()
    await feed.getByText('No gundeals posts in the last 7 days').waitFor()
    await feed.getByRole('tab', { name: 'WTB' }).click()
    await feed.getByText('No WTB posts in the last 7 days').waitFor()
    await feed.getByRole('tab', { name: 'WTS' }).click()
    await feed.getByText('No WTS posts in the last 7 days').waitFor()

    const long = 'Selling my Aimpoint T2 with LRP mount, lightly used, comes with both caps and the original box, no trades please thanks'
    world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTS] Aimpoint T2 - $650', author: 'optic_guy', selftext: long })
    await world.scan()
    const card = feed.getByTestId('post-card').first()
    await card.getByRole('link', { name: '[WTS] Aimpoint T2 - $650' }).waitFor()
    expect(await card.getAttribute('data-highlighted')).toBe('true')
    expect(await feed.getByRole('tab', { name: 'WTS' }).getAttribute('data-highlighted')).toBe('true')
    expect(await card.getByRole('link').getAttribute('target')).toBe('_blank')
    await card.getByText('u/optic_guy').waitFor()
    expect(await card.locator('.snippet').textContent()).toBe(long.slice(0, 97) + '...')
    await page.waitForTimeout(2300)
    expect(await card.getAttribute('data-highlighted')).toBeNull()
    await context.close()
  })

  test('screenshots of the landing page in dark and light', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const { page, context } = await world.visitor({ theme })
      await page.goto(world.server.url + '/')
      await page.getByText('Live updates enabled').waitFor()
      expect(await page.getAttribute('html', 'data-theme')).toBe(theme)
      await screenshot(page, `landing-${theme}`)
      await context.close()
    }
  })

  test('a phone-sized visitor gets the same page and feed', async () => {
    const { page, context } = await world.visitor({ viewport: { width: 390, height: 844 } })
    await page.goto(world.server.url + '/')
    await page.locator('#live-feed').getByText('Live updates enabled').waitFor()
    await screenshot(page, 'landing-mobile')
    await context.close()
  })
})
