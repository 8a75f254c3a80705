// Settings → Account in Chromium (issue 28): a personal access token is created with a name, a
// scope and an expiry, shown once with a copy button, works as a Bearer token, shows its last use
// and is revoked; 'Download my data' downloads the JSON export.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession } from '../helpers'
import { newPage, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

test('create a token, copy it once, use it, see its last use, revoke it', async () => {
  const u = await createUserWithSession(world.server.deps, { email: 'tokens@example.com' })
  const { page, context, errors } = await newPage(world.browser)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.server.url })
  await context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: world.server.url }])
  await page.goto(world.server.url + '/settings/account')
  await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor()
  await page.getByText('No tokens yet.').waitFor()

  await page.getByLabel('Token name').fill('price bot')
  await page.getByLabel('Read and write').check()
  await page.getByLabel('Expires after').selectOption({ label: '7 days' })
  await page.getByRole('button', { name: 'Create token' }).click()
  const once = page.getByTestId('new-token')
  await once.getByText('It will not be shown again.').waitFor()
  const token = (await once.locator('code').textContent())!
  expect(token).toMatch(/^dibs_pat_/)
  await once.getByRole('button', { name: 'Copy' }).click()
  await page.getByText('The token is on your clipboard.').waitFor()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)

  const row = page.getByTestId('token').filter({ hasText: 'price bot' })
  await row.getByText('never used', { exact: false }).waitFor()
  expect(await row.textContent()).toContain('read, write')
  expect(await row.textContent()).toContain(token.slice(0, 13))

  const used = await fetch(world.server.url + '/api/terms?category=wts', { headers: { authorization: `Bearer ${token}` } })
  expect(used.status).toBe(200)
  await page.reload()
  await row.getByText('last used', { exact: false }).waitFor()
  expect(await page.getByTestId('new-token').count()).toBe(0) // shown once: not after a reload

  await row.getByRole('button', { name: 'Revoke price bot' }).click()
  await page.getByText('"price bot" no longer works.').waitFor()
  await page.getByText('No tokens yet.').waitFor()
  expect((await fetch(world.server.url + '/api/terms?category=wts', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
  expect(errors).toEqual([])
  await context.close()
})

test("'Download my data' downloads the JSON export", async () => {
  const u = await createUserWithSession(world.server.deps, { email: 'export@example.com', name: 'Export Person' })
  const { page, context, errors } = await newPage(world.browser, { acceptDownloads: true })
  await context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: world.server.url }])
  await page.goto(world.server.url + '/settings/account')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()])
  expect(download.suggestedFilename()).toMatch(/^dibs-data-\d{4}-\d{2}-\d{2}\.json$/)
  const data = JSON.parse(readFileSync((await download.path())!, 'utf8'))
  expect(data.account).toMatchObject({ email: 'export@example.com', name: 'Export Person' })
  expect(errors).toEqual([])
  await context.close()
})
