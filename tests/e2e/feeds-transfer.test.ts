// Issue 28 §2 and §3 in Chromium: Settings → Account shows the feed addresses with copy buttons and
// 'New feed address' (the old address stops working); the search-terms dialog exports terms and
// imports a file through a preview table and 'Apply'.
import { expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { newPage, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

async function signedIn(opts: { bypassCSP?: boolean } = {}) {
  const user = await createUserWithSession(world.server.deps, { role: 'product+gd' })
  const made = await newPage(world.browser, { viewport: { width: 1280, height: 900 }, ...opts })
  await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
  return { ...made, user }
}

test("Settings → Account lists the feed addresses, copies one, and 'New feed address' replaces them", async () => {
  const { page, context, errors, user } = await signedIn({ bypassCSP: true })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.server.url })
  await page.goto(world.server.url + '/settings/account')
  await page.getByRole('heading', { name: 'Feeds of your matches' }).waitFor()
  const urls = page.getByTestId('feed-url')
  await urls.nth(7).waitFor()
  expect(await urls.count()).toBe(8) // all, WTS, WTB, Gundeals × Atom, JSON Feed
  const atom = page.getByRole('textbox', { name: 'All matches Atom feed address' })
  const before = await atom.inputValue()
  expect(before).toMatch(new RegExp(`^${world.server.url}/feeds/[A-Za-z0-9_-]{43}/matches\\.atom$`))
  expect(await page.getByRole('textbox', { name: 'Gundeals JSON Feed feed address' }).inputValue()).toBe(before.replace('.atom', '.json?category=gd'))
  expect((await fetch(before)).status).toBe(200)

  await page.getByRole('button', { name: 'Copy the All matches Atom feed address' }).click()
  await page.getByRole('button', { name: 'Copied' }).waitFor()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(before)
  expect(await axeFindings(page, 'section.feeds')).toEqual([])

  await page.getByRole('button', { name: 'New feed address' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Make a new feed address?' })
  await dialog.getByRole('button', { name: 'New feed address' }).click()
  await page.getByText('The old feed addresses no longer work. Update your feed reader.').waitFor()
  const after = await atom.inputValue()
  expect(after).not.toBe(before)
  expect((await fetch(before)).status).toBe(404)
  expect((await fetch(after)).status).toBe(200)
  const api = await (await fetch(world.server.url + '/api/feeds', { headers: { cookie: user.cookie } })).json()
  expect(api.atom).toBe(after)
  expect(errors).toEqual([])
  await context.close()
})

test('the search-terms dialog exports terms and imports a file through a preview and Apply', async () => {
  const { page, context, errors, user } = await signedIn({ bypassCSP: true })
  const save = (category: string, term: string) =>
    fetch(world.server.url + '/api/terms', {
      method: 'POST',
      headers: { cookie: user.cookie, origin: world.server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ category, term }),
    })
  expect((await save('wts', 'trijicon rmr')).status).toBe(201)
  await page.goto(world.server.url + '/dashboard/gafs/wts')
  await page.getByRole('button', { name: 'Search WTS Posts' }).click()
  const dialog = page.getByRole('dialog', { name: 'Search WTS Posts' })
  await dialog.getByText('Import / export terms').click()

  // export: the link downloads the CSV with this session
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^Dibs-terms-\d{4}-\d{2}-\d{2}\.csv$/)

  // import: a file → the preview → Apply
  const csv = 'category,term\r\nwts,holosun 507c\r\nwts,Trijicon RMR\r\nwts,(rmr\r\nwtb,p365\r\n'
  await dialog.getByLabel('Import from a file (JSON or CSV)').setInputFiles({ name: 'terms.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const summary = dialog.getByTestId('import-summary')
  await summary.waitFor()
  expect(await summary.textContent()).toBe('terms.csv: 2 to add, 1 duplicate, 1 refused')
  const rows = dialog.locator('.import-preview tbody tr')
  expect(await rows.allTextContents()).toEqual([
    '2WTSholosun 507cWill be added',
    '3WTStrijicon rmrDuplicate — Already in your WTS terms.',
    '4WTS(rmrRefused — Invalid search term: Unbalanced parenthesis: add the closing )',
    '5WTBp365Will be added',
  ])
  expect(await world.server.deps.sqlite.query('SELECT count(*) AS n FROM search_terms WHERE user_id = ?').get(user.userId)).toEqual({ n: 1 })
  expect(await axeFindings(page, 'dialog.terms-dialog')).toEqual([])
  await dialog.getByRole('button', { name: 'Apply' }).click()
  await page.getByText('2 terms were added.').waitFor()
  await dialog.getByRole('list', { name: 'Saved terms' }).getByText('holosun 507c').waitFor()
  const terms = world.server.deps.sqlite.query('SELECT category, term FROM search_terms WHERE user_id = ? ORDER BY id').all(user.userId)
  expect(terms).toEqual([
    { category: 'wts', term: 'trijicon rmr' },
    { category: 'wts', term: 'holosun 507c' },
    { category: 'wtb', term: 'p365' },
  ])
  // a file that cannot be read is said so, and nothing is offered to apply
  await dialog
    .getByLabel('Import from a file (JSON or CSV)')
    .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"terms": [') })
  await dialog.getByRole('alert').filter({ hasText: 'The file is not valid JSON' }).waitFor()
  expect(await dialog.getByRole('button', { name: 'Apply' }).count()).toBe(0)
  expect(errors).toEqual([])
  await context.close()
})
