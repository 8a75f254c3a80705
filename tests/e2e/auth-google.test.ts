// Google sign-in in Chromium against the fake provider: the button, the round trip through the
// provider and /auth/callback to the dashboard, and the failure toast back on /login.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { startTestServer } from '../helpers'
import { startFakeGoogle } from '../fakes/google'
import { launchBrowser, newPage } from './browser'

let google: Awaited<ReturnType<typeof startFakeGoogle>>
let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser

beforeAll(async () => {
  google = await startFakeGoogle()
  server = await startTestServer(google.env)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await google?.stop()
})

describe('Google sign-in in the browser', () => {
  test('the Google button signs a new user in and lands on the dashboard', async () => {
    google.fail(null)
    const { page, context, errors } = await newPage(browser)
    await page.goto(server.url + '/login')
    await page.getByTestId('google-sign-in').click()
    await page.waitForURL(/\/dashboard\/gafs\/wts$/, { timeout: 10_000 })
    expect(google.state.tokenRequests.at(-1)).toEqual({ ok: true })
    expect(errors).toEqual([])
    await context.close()
  })

  test("a failure at the provider comes back to /login with 'Google login failed'", async () => {
    google.fail('token_error')
    const { page, context } = await newPage(browser)
    await page.goto(server.url + '/signup')
    await page.getByTestId('google-sign-in').click()
    await page.waitForURL(server.url + '/login')
    await page.getByText('Google login failed').waitFor()
    await page.getByText('Could not sign in with Google.').waitFor()
    await context.close()
  })
})
