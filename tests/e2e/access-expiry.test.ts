// Issue 12 item 2 in Chromium: an open tab locks the moment a trial ends — no reload, no 30-minute
// wait for the access cache — through the server's access.changed (and the tab's own expiry timer).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { SESSION_COOKIE } from '../../src/auth/session'
import { userAccess } from '../../src/db/schema'
import { attachListeners } from '../../src/services'
import { createUserWithSession, startTestServer } from '../helpers'
import { launchBrowser, newPage } from './browser'

let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser
beforeAll(async () => {
  server = await startTestServer()
  attachListeners(server.deps, { expiry: server.deps.expiry }) // as a server with jobs has it
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

test('a trial that ends while the dashboard is open shows the blocking overlay at once', async () => {
  const user = await createUserWithSession(server.deps, {
    role: 'app_trial',
    subscriptionStatus: 'trialing',
    accessExpiresAt: new Date(Date.now() + 3600_000),
  })
  const { page, context, errors } = await newPage(browser)
  await context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: server.url }])
  await page.goto(server.url + '/dashboard/gafs/wts')
  await page.getByRole('heading', { name: 'WTS Matches' }).waitFor()
  const overlay = page.getByText('Your 7-day free trial has ended.', { exact: false })
  expect(await overlay.count()).toBe(0)
  // The trial ends 4 s from now, counted once the dashboard is open (a loaded CI machine once took over
  // the 6 s a fixed end left for the first page load, and the test waited for a heading that never came).
  server.deps.db
    .update(userAccess)
    .set({ accessExpiresAt: new Date(Date.now() + 4_000) })
    .where(eq(userAccess.userId, user.userId))
    .run()
  await server.deps.expiry.rearm()
  await overlay.first().waitFor({ timeout: 15_000 })
  // a reload does not bring the unlocked page back from the access cache
  await page.reload()
  await overlay.first().waitFor({ timeout: 10_000 })
  expect(errors).toEqual([])
  await context.close()
})
