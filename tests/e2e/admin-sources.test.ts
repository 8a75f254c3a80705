// Admin → Logs → Sources, tried as a new admin would (issue 25 "Done when"): add a XenForo board's feed and r/mechmarket
// from the Logs page, see 'Fetch now' classify their posts before saving, save, and a subscriber whose saved terms
// match a post of each gets both matches at once (saving stores and matches what 'Fetch now' read: one poll), with the
// source's name on the match card. axe finds nothing on the panel in either theme; the panel fits 390 px.
import { afterAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { addSource as addSavedSource } from '../../src/scanner/source-admin'
import { startForumFeeds } from '../fakes/forum-feeds'
import { startFakeReddit } from '../fakes/reddit'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { ARTIFACTS, newPage, screenshot, useServerAndBrowser } from './browser'

const reddit = await startFakeReddit({ subreddit: 'mechmarket' })
const forums = await startForumFeeds()
const world = useServerAndBrowser({ ALLOW_PRIVATE_SOURCES: '1', REDDIT_BASE_URL: reddit.url })
afterAll(async () => {
  await reddit.stop()
  await forums.stop()
})

const XENFORO_POST = 'WTS: EOTech EXPS3-2 with G33 magnifier - $900 shipped'
const MECHMARKET_POST = '[US-CA] [H] GMK Olivia++ keycaps, sealed [W] PayPal'

async function signedIn(role: string, opts: { theme?: 'light' | 'dark'; width?: number; bypassCSP?: boolean } = {}) {
  const user = await createUserWithSession(world.server.deps, { role })
  const made = await newPage(world.browser, { viewport: { width: opts.width ?? 1280, height: 900 }, bypassCSP: opts.bypassCSP })
  if (opts.theme) await made.context.addInitScript((t) => localStorage.setItem('ui-theme', t), opts.theme)
  await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
  return made
}

/** Adds a source through the Add source form: fills it, 'Fetch now', returns the preview's text, then Save. */
async function addSource(page: Page, fill: (form: ReturnType<Page['getByTestId']>) => Promise<void>, expectRow: { title: string; classifiedAs: string }) {
  const form = page.getByTestId('add-source-form')
  await fill(form)
  await form.getByRole('button', { name: 'Fetch now' }).click()
  const preview = form.getByTestId('source-preview')
  await preview.waitFor()
  const row = preview.locator('tr').filter({ hasText: expectRow.title })
  expect(await row.locator('td').nth(1).innerText()).toBe(expectRow.classifiedAs)
  const text = await preview.innerText()
  await form.getByRole('button', { name: 'Save' }).click()
  await page.getByTestId('toasts').locator('li.toast').filter({ hasText: 'Source added' }).first().waitFor()
  return text
}

test('an admin adds a XenForo feed and r/mechmarket from the Logs page; a subscriber gets a match from each, named by its source', async () => {
  // a subscriber who saved a term for a post of each, before the posts were made
  const sub = await signedIn('product+gd')
  for (const term of ['exps3', 'gmk olivia']) {
    const r = await sub.context.request.post(`${world.server.url}/api/terms`, { data: { category: 'wts', term }, headers: { origin: world.server.url } })
    expect(r.status()).toBe(201)
  }
  forums.publish('xenforo', { title: XENFORO_POST, author: 'RangeRat', html: 'Box and papers.<br />\nPayPal F&amp;F.' })
  reddit.publish({ subreddit: 'mechmarket', title: MECHMARKET_POST, selftext: 'Timestamps in the post. $260 shipped.' })

  const admin = await signedIn('admin')
  const { page } = admin
  await page.goto(`${world.server.url}/admin/logs`)
  const panel = page.getByTestId('sources-panel')
  await panel.getByRole('heading', { name: 'Add source' }).waitFor()

  // the XenForo board: forum, kind, the classifieds preset, the board's feed URL, a name
  const feedPreview = await addSource(
    page,
    async (form) => {
      await form.getByLabel('Forum').selectOption('accessories')
      await form.getByLabel('Kind').selectOption('feed')
      await form.getByLabel('Preset').selectOption({ label: 'Forum classifieds (XenForo, phpBB, vBulletin, Discourse)' })
      expect(await form.getByLabel('Feed URL').inputValue()).toBe('https://{board}/forums/{slug}.{id}/index.rss')
      await form.getByLabel('Feed URL').fill(forums.url + forums.paths.xenforo)
      await form.getByLabel('Name (optional)').fill('Optics board')
    },
    { title: XENFORO_POST, classifiedAs: 'WTS (for sale)' },
  )
  expect(feedPreview).toContain('WTB: Geissele Super 42 trigger') // the board's other posts, classified too
  expect(feedPreview).toContain('WTB (wanted)')
  expect(feedPreview).toMatch(/^Read 4 posts from Classifieds - Optics \(XenForo\)\. Nothing is stored until you save/)

  // r/mechmarket: the preset fills the subreddit and the name
  await addSource(
    page,
    async (form) => {
      await form.getByLabel('Kind').selectOption('reddit')
      await form.getByLabel('Preset').selectOption({ label: 'r/mechmarket' })
      expect(await form.getByLabel('Subreddits').inputValue()).toBe('mechmarket')
      expect(await form.getByLabel('Name (optional)').inputValue()).toBe('Mechmarket')
    },
    { title: MECHMARKET_POST, classifiedAs: 'WTS (for sale)' },
  )

  // both are listed with their address and health
  const items = panel.getByTestId('source-item')
  const feedItem = items.filter({ has: page.getByRole('heading', { name: 'Optics board' }) })
  await feedItem.waitFor()
  expect(await feedItem.innerText()).toContain(forums.url + forums.paths.xenforo)
  expect(await feedItem.getByTestId('source-health-summary').innerText()).toBe('OK: the last read brought 4 new posts')
  const redditItem = items.filter({ has: page.getByRole('heading', { name: 'Mechmarket' }) })
  expect(await redditItem.innerText()).toContain('r/mechmarket')
  expect(await redditItem.innerText()).toContain('Preset\nr/mechmarket')
  // 'Fetch now' on the saved sources: r/mechmarket's newest posts as classified; the feed's host was just asked, so it waits
  await redditItem.getByRole('button', { name: 'Fetch now' }).click()
  const fetched = redditItem.getByTestId('source-fetch-result')
  await fetched.waitFor()
  expect(await fetched.getByRole('status').innerText()).toBe('Read 1 post; the next scan stores and matches the new ones.')
  expect(await fetched.locator('tr').filter({ hasText: MECHMARKET_POST }).locator('td').nth(1).innerText()).toBe('WTS (for sale)')
  await feedItem.getByRole('button', { name: 'Fetch now' }).click()
  expect(await feedItem.getByTestId('source-fetch-result').getByRole('status').innerText()).toMatch(
    /^Not fetched: 127\.0\.0\.1 was asked less than 60 s ago; Dibs asks one host at most that often\. Try again in \d+ s\.$/,
  )

  // the subscriber has both matches, within that one poll, and the cards name the source
  const matches = await (await sub.context.request.get(`${world.server.url}/api/matches?category=wts`)).json()
  const byTitle = new Map((matches.matches as { title: string; sourceName: string | null }[]).map((m) => [m.title, m.sourceName]))
  expect(byTitle.get(XENFORO_POST)).toBe('Optics board')
  expect(byTitle.get(MECHMARKET_POST)).toBe('Mechmarket')
  await sub.page.goto(`${world.server.url}/dashboard/gafs/wts`)
  const card = sub.page.locator('[data-testid="match-card"]').filter({ hasText: XENFORO_POST })
  await card.waitFor()
  expect(await card.getByTestId('source-chip').textContent()).toBe('Source: Optics board')
  expect(await sub.page.locator('[data-testid="match-card"]').filter({ hasText: MECHMARKET_POST }).getByTestId('source-chip').textContent()).toBe(
    'Source: Mechmarket',
  )
  await screenshot(sub.page, 'matches-source-chip')
  expect(admin.errors).toEqual([])
  expect(sub.errors).toEqual([])
  await admin.context.close()
  await sub.context.close()
})

test('a bad address is said under its field; a push source shows its secret once with its ingest URL; Remove asks first', async () => {
  const { page, context, errors } = await signedIn('admin')
  await page.goto(`${world.server.url}/admin/logs`)
  const form = page.getByTestId('add-source-form')
  await form.getByLabel('Kind').selectOption('feed')
  await form.getByLabel('Feed URL').fill('ftp://forum.example/feed')
  await form.getByRole('button', { name: 'Save' }).click()
  const url = form.getByLabel('Feed URL')
  await form.getByText('url: must be an http(s) URL').waitFor()
  expect(await url.getAttribute('aria-invalid')).toBe('true')
  const describedBy = (await url.getAttribute('aria-describedby'))!.split(' ')
  expect(await page.locator(`#${describedBy[0]}`).innerText()).toBe('url: must be an http(s) URL')
  // a fetch that cannot be made: 'Fetch now' says why, under the address (here: the host was asked a moment ago)
  await url.fill(`${forums.url}/forums/classifieds-scopes.14/index.rss`)
  expect(await url.getAttribute('aria-invalid')).toBeNull()
  world.server.deps.feeds.politeness.fetched(forums.url)
  await form.getByRole('button', { name: 'Fetch now' }).click()
  await form.locator('#source-new-url-error').waitFor()
  expect(await form.locator('#source-new-url-error').innerText()).toMatch(/^127\.0\.0\.1 was asked less than \d+ s ago; .+ Try again in \d+ s\.$/)

  // a push source: its secret once, copyable, with where to send posts
  await form.getByLabel('Kind').selectOption('push')
  expect(await form.getByRole('button', { name: 'Fetch now' }).count()).toBe(0)
  await form.getByLabel('Name (optional)').fill('My script')
  await form.getByRole('button', { name: 'Save' }).click()
  const secret = page.getByTestId('source-secret')
  await secret.waitFor()
  const text = await secret.innerText()
  expect(text).toContain('it will not be shown again')
  expect(text).toMatch(new RegExp(`Ingest URL .+ ${world.server.url}/api/ingest/\\d+`))
  await secret.getByRole('button', { name: 'Copy secret' }).waitFor()
  await secret.getByRole('button', { name: 'Done, I copied it' }).click()
  expect(await secret.count()).toBe(0)
  const item = page.getByTestId('source-item').filter({ has: page.getByRole('heading', { name: 'My script' }) })
  expect(await item.getByTestId('source-health-summary').innerText()).toBe('Waiting for the first push')
  await item.getByRole('button', { name: 'Rotate secret' }).click()
  await item.getByTestId('source-secret').waitFor()

  // disable by its switch, then Remove: asked first, Cancel keeps it
  await item.getByRole('switch', { name: 'Enabled: My script' }).click()
  await item.getByText('Disabled: not read').waitFor()
  await item.getByRole('button', { name: 'Remove My script' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Remove My script?' })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(await item.count()).toBe(1)
  await item.getByRole('button', { name: 'Remove My script' }).click()
  await dialog.getByRole('button', { name: 'Remove' }).click()
  await page.getByTestId('toasts').locator('li.toast').filter({ hasText: 'Source removed' }).first().waitFor()
  await item.waitFor({ state: 'detached' })

  // the politeness interval: at least 15 s, said in words
  await page.getByLabel('Seconds between two requests to one host').fill('5')
  await page.getByRole('button', { name: 'Save interval' }).click()
  await page.locator('#politeness-error').waitFor()
  await page.getByLabel('Seconds between two requests to one host').fill('90')
  await page.getByRole('button', { name: 'Save interval' }).click()
  await page.getByTestId('toasts').locator('li.toast').filter({ hasText: 'Politeness interval saved' }).first().waitFor()
  expect(await world.server.deps.feeds.politenessSeconds()).toBe(90)
  expect(errors).toEqual([])
  await context.close()
})

test('the Sources panel by keyboard, at 390 px light and 1280 px dark, with nothing for axe to find', async () => {
  await addSavedSource(world.server.deps, { forum: 'accessories', kind: 'feed', url: forums.url + forums.paths.vbulletin, name: 'Scopes board' })
  for (const [theme, width] of [
    ['light', 390],
    ['dark', 1280],
  ] as const) {
    const { page, context, errors } = await signedIn('admin', { theme, width, bypassCSP: true })
    await page.goto(`${world.server.url}/admin/logs`)
    const panel = page.getByTestId('sources-panel')
    await panel.getByTestId('source-item').first().waitFor()
    // Edit opens the source's form by keyboard (its kind fixed), Cancel closes it
    const feed = panel.getByTestId('source-item').filter({ has: page.getByRole('heading', { name: 'Scopes board' }) })
    await feed.getByRole('button', { name: 'Edit' }).focus()
    await page.keyboard.press('Enter')
    const edit = feed.getByTestId('edit-source-form')
    await edit.waitFor()
    expect(await edit.getByLabel('Kind').isDisabled()).toBe(true)
    await edit.getByRole('button', { name: 'Cancel' }).focus()
    await page.keyboard.press('Enter')
    await edit.waitFor({ state: 'detached' })
    // by keyboard: Tab from the add form's Name reaches Fetch now, Enter runs it
    const form = panel.getByTestId('add-source-form')
    await form.getByLabel('Kind').selectOption('reddit')
    await form.getByLabel('Subreddits').fill('mechmarket')
    await form.getByLabel('Name (optional)').focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Fetch now')
    await page.keyboard.press('Enter')
    await form.getByTestId('source-preview').waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    expect(await axeFindings(page, '[data-testid="sources-panel"]')).toEqual([])
    await panel.screenshot({ path: `${ARTIFACTS}/admin-logs-sources-${theme}-${width}.png` })
    expect(errors).toEqual([])
    await context.close()
  }
})
