// Acceptance journeys of a subscriber (issue 5): save a term, see a match arrive live, read it,
// archive it, find it in the archive; the phone layout; screenshots in both themes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addTerm } from '../../src/terms/service'
import { screenshot } from './browser'
import { startWorld, type World } from './journey'

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(async () => {
  await world?.stop()
})

describe('a subscriber in Chromium', () => {
  test('adds a WTS term, sees a matching post arrive live, marks it read, archives it and finds it on /archive', async () => {
    const { page, context, errors } = await world.subscriber()

    // /dashboard lands on the GAFS WTS page after the 1-second start screen.
    await page.goto(world.server.url + '/dashboard')
    await page.getByText('Loading Dashboard...').waitFor()
    await page.waitForURL(/\/dashboard\/gafs\/wts$/)
    await page.getByRole('heading', { name: 'WTS Matches' }).waitFor()
    // a later full load in this tab goes straight to the page: the start screen is for the first load only (item 9)
    await page.reload()
    await page.getByRole('heading', { name: 'WTS Matches' }).waitFor()
    expect(await page.getByText('Loading Dashboard...').count()).toBe(0)
    await page.getByText("You haven't set up any search terms yet. Add some search terms to start seeing matches.").waitFor()

    // The search-terms dialog: a malformed term is explained inline, a good one becomes a chip.
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    const dialog = page.locator('dialog.terms-dialog')
    await dialog.getByRole('heading', { name: 'Search WTS Posts' }).waitFor()
    await dialog.getByText('0 of 10 terms used').waitFor()
    await dialog.getByPlaceholder('Enter search term').fill('"red dot')
    await dialog.getByPlaceholder('Enter search term').press('Enter')
    await dialog.getByText('Unbalanced quote: add the closing "').waitFor()
    await dialog.getByPlaceholder('Enter search term').fill('RMR')
    await dialog.getByPlaceholder('Enter search term').press('Enter')
    await dialog.locator('.chip', { hasText: 'rmr' }).waitFor()
    await dialog.getByText('1 of 10 terms used').waitFor()
    await page.getByText('Term added').first().waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await page.getByText("No matches found for your search terms. We'll notify you when matches are found.").waitFor()

    // A matching post is published on Reddit (Reddit times are whole seconds: one after the term)
    // and scanned: the match appears without a reload.
    world.reddit.publish({
      subreddit: 'GunAccessoriesForSale',
      title: '[WTS] Trijicon RMR Type 2 RM06 - $400',
      author: 'seller_one',
      created_utc: Math.ceil(Date.now() / 1000) + 1,
    })
    await world.scan()
    const card = page.getByTestId('match-card').filter({ hasText: 'Trijicon RMR Type 2' })
    await card.waitFor({ timeout: 15_000 })
    await page.getByTestId('new-count').getByText('1 new').waitFor()
    expect(await card.locator('mark').first().textContent()).toBe('RMR')
    await card.getByText('u/seller_one').waitFor()
    expect(await page.getByTestId('badge-product').first().textContent()).toBe('1')
    await screenshot(page, 'subscriber-dashboard-dark')
    // the unread total leads the tab title (issue 12 item 10)
    await page.waitForFunction(() => document.title === '(1) Dibs')

    // Mark as read: the new badge and the tab badge go away.
    await card.getByRole('button', { name: 'Mark as read' }).click()
    await page.getByTestId('new-count').waitFor({ state: 'detached' })
    await page.getByTestId('badge-product').first().waitFor({ state: 'detached' })
    await page.waitForFunction(() => document.title === 'Dibs')

    // Archive: it leaves the list and shows on /archive without archive controls.
    await card.getByRole('button', { name: 'Archive' }).click()
    await page.getByText('The match has been archived successfully').waitFor()
    await card.waitFor({ state: 'detached' })
    await page.goto(world.server.url + '/archive')
    await page.getByRole('heading', { name: 'Archive', exact: true }).waitFor()
    const archived = page.getByTestId('match-card').filter({ hasText: 'Trijicon RMR Type 2' })
    await archived.waitFor()
    expect(await archived.getByRole('button', { name: 'Archive' }).count()).toBe(0)

    // Search the archive, then restore: the match goes back to its list (issue 12 item 12).
    await page.getByLabel('Search archive').fill('nothing like this')
    await page.getByText('No archived matches for "nothing like this"').waitFor()
    await page.getByLabel('Search archive').fill('rmr type')
    await archived.waitFor()
    await archived.getByRole('button', { name: 'Restore' }).click()
    await page.getByText('The match is back in your WTS matches').waitFor()
    await archived.waitFor({ state: 'detached' })
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByTestId('match-card').filter({ hasText: 'Trijicon RMR Type 2' }).waitFor()

    expect(errors).toEqual([])
    await context.close()
  })

  test('a match read, then archived, in one tab updates the other tab live', async () => {
    const { page: tabA, context, userId } = await world.subscriber()
    await addTerm(world.server.deps, userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wtb', 'aimpoint')
    const tabB = await context.newPage()
    for (const tab of [tabA, tabB]) {
      await tab.goto(world.server.url + '/dashboard/gafs/wtb')
      await tab.getByRole('heading', { name: 'WTB Matches' }).waitFor()
    }
    world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTB] Aimpoint Micro T-2', created_utc: Math.ceil(Date.now() / 1000) + 1 })
    await world.scan()
    const cardIn = (tab: typeof tabA) => tab.getByTestId('match-card').filter({ hasText: 'Aimpoint Micro T-2' })
    for (const tab of [tabA, tabB]) await tab.getByTestId('new-count').getByText('1 new').waitFor()

    await cardIn(tabA).getByRole('button', { name: 'Mark as read' }).click()
    await tabB.getByTestId('new-count').waitFor({ state: 'detached' })
    await cardIn(tabA).getByRole('button', { name: 'Archive' }).click()
    await cardIn(tabB).waitFor({ state: 'detached' })
    await context.close()
  })

  test('a match card gets the SOLD badge live when its post is marked sold on Reddit (issue 16)', async () => {
    const { page, context, userId } = await world.subscriber()
    await addTerm(world.server.deps, userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'exps3')
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByRole('heading', { name: 'WTS Matches' }).waitFor()
    const post = world.reddit.publish({
      subreddit: 'GunAccessoriesForSale',
      title: '[WTS] EOTech EXPS3-2 - $520',
      created_utc: Math.ceil(Date.now() / 1000) + 1,
    })
    await world.scan()
    const card = page.getByTestId('match-card').filter({ hasText: 'EOTech EXPS3-2' })
    await card.waitFor({ timeout: 15_000 })
    expect(await card.getByTestId('state-badge').count()).toBe(0)
    // the seller flairs it SOLD; the re-check reads it at its 2-minute checkpoint
    world.reddit.edit(post.id, { link_flair_text: 'SOLD' })
    world.server.deps.sqlite.run(`UPDATE posts SET ingested_at = ingested_at - 180000 WHERE reddit_id = '${post.id}'`)
    await world.recheck()
    await card.getByTestId('state-badge').getByText('SOLD', { exact: true }).waitFor({ timeout: 15_000 })
    expect(await card.getAttribute('class')).toContain('is-closed')
    await screenshot(page, 'match-sold-badge')
    await context.close()
  })

  test("'Why didn't I get an alert?': a pasted link of a post that did not match shows the reason (issue 16 item 4)", async () => {
    const { page, context, errors, userId } = await world.subscriber({ viewport: { width: 900, height: 800 } })
    await addTerm(world.server.deps, userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'aimpoint <$500')
    const post = world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTS] Aimpoint T2 - $650', created_utc: Math.ceil(Date.now() / 1000) + 1 })
    await world.scan()
    await page.goto(world.server.url + '/why')
    await page.getByRole('heading', { name: "Why didn't I get an alert?" }).waitFor()
    // keyboard only: type the link, Enter submits
    await page.getByLabel('Reddit post link or id').fill('no link here')
    await page.keyboard.press('Enter')
    await page.getByRole('alert').getByText('Paste a Reddit post link').waitFor()
    await page.getByLabel('Reddit post link or id').fill(`https://www.reddit.com${post.permalink}?utm_source=share`)
    await page.keyboard.press('Enter')
    const terms = page.getByTestId('why-terms')
    await terms.getByText('price $650 is above <$500').waitFor({ timeout: 15_000 })
    expect(await terms.locator('li.no').count()).toBe(1)
    expect(await page.getByText(/seen \d+ s after it was posted/).count()).toBe(1)
    expect(await page.getByRole('alert').count()).toBe(0)
    await screenshot(page, 'why-no-alert')
    // a 390 px phone: nothing wider than the screen; /why?url=… explains at once
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${world.server.url}/why?url=t3_${post.id}`)
    await page.getByTestId('why-terms').getByText('price $650 is above <$500').waitFor({ timeout: 15_000 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(errors).toEqual([])
    await context.close()
  })

  test('the dashboard in the light theme', async () => {
    const { page, context } = await world.subscriber({ theme: 'light' })
    await page.goto(world.server.url + '/dashboard/gafs/wtb')
    await page.getByRole('heading', { name: 'WTB Matches' }).waitFor()
    expect(await page.getAttribute('html', 'data-theme')).toBe('light')
    await screenshot(page, 'subscriber-dashboard-light')
    await context.close()
  })

  test('a 390×844 phone gets the bottom tab bar and the search terms as a bottom sheet', async () => {
    const { page, context } = await world.subscriber({ viewport: { width: 390, height: 844 } })
    await page.goto(world.server.url + '/dashboard/gundeals')
    await page.getByRole('heading', { name: 'Gundeals Matches' }).waitFor()
    const bar = page.getByTestId('bottom-tabs')
    expect(await bar.isVisible()).toBe(true)
    expect((await bar.boundingBox())!.y + (await bar.boundingBox())!.height).toBeCloseTo(844, 0)
    expect(await page.locator('.desktop-tabs').isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Search Gundeals Posts' }).click()
    const sheet = page.locator('dialog.terms-dialog > article')
    await sheet.waitFor()
    await page.waitForTimeout(300) // the sheet slides up
    const box = (await sheet.boundingBox())!
    expect(box.width).toBeCloseTo(390, 0)
    expect(box.y + box.height).toBeCloseTo(844, 0)
    await screenshot(page, 'subscriber-mobile-sheet')
    await page.getByRole('button', { name: 'Done' }).click()
    await bar.getByRole('button', { name: 'MENU' }).click()
    await page.locator('dialog.mobile-menu').getByText('Notification Settings').waitFor()
    await context.close()
  })

  test('a term is edited in place and paused/resumed from its chip, keeping its matches (issue 12 item 11)', async () => {
    const { page, context, errors, userId } = await world.subscriber()
    await addTerm(world.server.deps, userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null } as never, 'wts', 'nightforce')
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    const dialog = page.locator('dialog.terms-dialog')
    await dialog.getByRole('button', { name: 'Pause nightforce' }).click()
    await page.getByText('"nightforce" keeps its matches but finds no new ones until you resume it.').waitFor()
    await dialog.getByText('(paused)').waitFor()
    expect(world.server.deps.sqlite.query('SELECT paused_at IS NOT NULL AS p FROM search_terms WHERE user_id = ?').get(userId)).toEqual({ p: 1 })
    await dialog.getByRole('button', { name: 'Resume nightforce' }).click()
    await dialog.getByRole('button', { name: 'Pause nightforce' }).waitFor()
    await dialog.getByRole('button', { name: 'Edit nightforce' }).click()
    const input = dialog.getByRole('textbox', { name: 'Edit nightforce' })
    await input.fill('"nx8')
    await input.press('Enter')
    await dialog.getByText('Unbalanced quote: add the closing "').waitFor()
    // by keyboard: Escape leaves the editor (not the dialog) and focus goes back to the chip
    await input.press('Escape')
    await dialog.getByRole('button', { name: 'Edit nightforce' }).waitFor()
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true)
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit nightforce')
    await page.keyboard.press('Enter')
    await input.fill('Nightforce NX8')
    await input.press('Enter')
    await dialog.getByRole('button', { name: 'Edit nightforce nx8' }).waitFor()
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit nightforce nx8')
    expect(world.server.deps.sqlite.query('SELECT term FROM search_terms WHERE user_id = ?').get(userId)).toEqual({ term: 'nightforce nx8' })
    expect(errors).toEqual([])
    await context.close()
  })

  test('defaults for all terms: SOLD/PENDING skipped unless unticked, airsoft one click away (issue 15 item 16)', async () => {
    const { page, context, errors, userId } = await world.subscriber()
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    const dialog = page.locator('dialog.terms-dialog')
    await dialog.getByText('Search syntax').click()
    await dialog.getByText("leaves out your always-excluded words (e.g. airsoft): change both under 'Defaults for all your terms'.", { exact: false }).waitFor()
    await dialog.getByText('Defaults for all your terms', { exact: true }).click()
    const skip = dialog.getByRole('checkbox', { name: 'Skip posts marked SOLD or PENDING' })
    expect(await skip.isChecked()).toBe(true)
    // the airsoft save is held until the user has typed: it must not wipe what they typed, and what they
    // submit meanwhile is queued behind it
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    await page.route('**/api/match-defaults', async (route) => {
      if (route.request().method() === 'PUT') await held
      await route.continue()
    })
    await dialog.getByRole('button', { name: 'Add airsoft' }).click()
    await dialog.getByRole('button', { name: 'Stop excluding airsoft' }).waitFor()
    expect(await dialog.getByRole('button', { name: 'Add airsoft' }).count()).toBe(0)
    const exclude = dialog.getByRole('textbox', { name: 'Always exclude these words' })
    await exclude.fill('-gel')
    await exclude.press('Enter')
    release()
    await page.getByText('Posts with "airsoft" are left out of every term.').waitFor()
    await dialog.getByText('"-gel" contains "-": write the plain word or phrase to exclude, like airsoft').waitFor()
    expect(await exclude.inputValue()).toBe('-gel')
    await skip.uncheck()
    await page.getByText('Posts marked SOLD or PENDING are matched too.').waitFor()
    expect(world.server.deps.sqlite.query('SELECT skip_sold, exclude_words FROM match_defaults WHERE user_id = ?').get(userId)).toEqual({
      skip_sold: 0,
      exclude_words: '["airsoft"]',
    })
    expect(errors).toEqual([])
    await context.close()
  })

  test('a GAFS-only subscriber is sent from Gundeals to WTS; the locked tab explains and offers Upgrade', async () => {
    const { page, context } = await world.subscriber({ role: 'product' })
    await page.goto(world.server.url + '/dashboard/gundeals')
    await page.waitForURL(/\/dashboard\/gafs\/wts$/)
    await page.getByTestId('tab-gd').first().click()
    await page.getByText('Gundeals access requires subscription').waitFor()
    await page.getByRole('button', { name: 'Upgrade' }).click()
    await page.getByRole('heading', { name: 'Available Plans' }).waitFor()
    await context.close()
  })
})
