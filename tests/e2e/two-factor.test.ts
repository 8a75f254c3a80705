// Two-factor sign-in in Chromium (issue 11 item 13): turning it on in Settings → Account (the code is
// computed from the secret the page shows, as an authenticator app would), the login's second step
// with a code and with a recovery code, turning it off, Google's second step on /login?step=2fa and
// the REQUIRE_ADMIN_2FA gate in front of the admin pages.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { enableTwoFactor, startTwoFactor } from '../../src/auth/two-factor'
import { totp } from '../../src/auth/totp'
import { startFakeGoogle } from '../fakes/google'
import { createUserWithSession, startTestServer } from '../helpers'
import { launchBrowser, newPage, screenshot } from './browser'

let google: Awaited<ReturnType<typeof startFakeGoogle>>
let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser

beforeAll(async () => {
  google = await startFakeGoogle()
  server = await startTestServer({ ...google.env, REQUIRE_ADMIN_2FA: '1' })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await google?.stop()
})

const ADMIN_TEXT = 'Admins must turn on two-factor authentication (Settings → Account) before opening the admin pages.'
const INVALID = 'Invalid two-factor code. Please try again.'

/** A code the server refuses now: none of the steps its ±1 window could accept. */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((k) => totp(secret, Date.now() + k * 30_000)))
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0')
    if (!near.has(code)) return code
  }
}

/** 'Turn on', then the password again when the account has one (a Google-only account goes straight on). */
async function clickTurnOn(page: Page, password: string | null) {
  await page.getByRole('button', { name: 'Turn on' }).click()
  if (password === null) return
  const form = page.locator('form.two-factor-password')
  await form.getByText('Enter your password to turn on two-factor authentication.').waitFor()
  await form.getByLabel('Password', { exact: true }).fill(password)
  await form.getByRole('button', { name: 'Continue' }).click()
}

/** Settings → Account → 'Turn on' (+ password) → the secret as text → its current code → 'Confirm'; returns the secret and the recovery codes. */
async function turnOn(page: Page, password: string | null): Promise<{ secret: string; codes: string[] }> {
  await page.goto(server.url + '/settings/account')
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
  await page.getByTestId('two-factor-status').getByText('Off').waitFor()
  await clickTurnOn(page, password)
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' })
  await qr.waitFor()
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  const shown = (await page.getByTestId('two-factor-secret').textContent())!
  expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/) // in groups of four
  const secret = shown.replace(/\s/g, '')
  const field = page.getByLabel('Enter the 6-digit code the app shows')
  expect(await field.evaluate((el) => el === document.activeElement)).toBe(true)
  await field.fill(wrongCode(secret))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByText(INVALID).waitFor()
  await field.fill(totp(secret, Date.now()))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByText('Save these recovery codes now.', { exact: false }).waitFor()
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents()
  expect(codes).toHaveLength(10)
  for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}(-[0-9A-HJKMNP-TV-Z]{6}){3}$/) // 120 bits
  await page.getByTestId('two-factor-status').getByText('On').waitFor()
  return { secret, codes }
}

/** An account with two-factor on, enrolled through the service as the settings page would; the enrolment code's step is spent. */
async function enrolled() {
  const password = 'pat-password'
  const user = await createUserWithSession(server.deps, { password })
  const { secret } = await startTwoFactor(server.deps, user.userId)
  const { recoveryCodes } = await enableTwoFactor(server.deps, user.userId, totp(secret, Date.now()))
  return { ...user, password, secret, recoveryCodes }
}

async function signOut(page: Page) {
  await page.locator('summary', { hasText: 'SETTINGS' }).click()
  await page.getByRole('link', { name: 'Log out' }).click()
  await page.waitForURL(server.url + '/login')
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto(server.url + '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in with Email' }).click()
  await page.getByLabel('Two-factor code').waitFor()
}

describe('two-factor sign-in in the browser', () => {
  test('Settings → Account: the QR code, the key in groups of four (copyable), a code, then 10 recovery codes shown once', async () => {
    const user = await createUserWithSession(server.deps, { password: 'tess-password' })
    const { page, context, errors } = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] })
    await context.addCookies([{ name: 'dibs_session', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
    await page.goto(server.url + '/settings/account')
    await clickTurnOn(page, 'tess-password')
    await page.getByRole('button', { name: 'Copy key' }).click()
    await page.getByRole('button', { name: 'Copied' }).waitFor()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe((await page.getByTestId('two-factor-secret').textContent())!.replace(/\s/g, ''))
    await screenshot(page, 'two-factor-setup')

    const { codes } = await turnOn(page, 'tess-password') // 'Turn on' again: a fresh secret replaces the unconfirmed one
    await screenshot(page, 'two-factor-recovery-codes')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .txt' }).click()])
    expect(download.suggestedFilename()).toBe('dibs-recovery-codes.txt')
    const txt = readFileSync((await download.path())!, 'utf8')
    for (const c of codes) expect(txt).toContain(c)
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.getByTestId('recovery-codes').count()).toBe(0) // shown once
    await page.getByRole('button', { name: 'Turn off' }).waitFor()
    await page.reload()
    await page.getByTestId('two-factor-status').getByText('On').waitFor()
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)

  test("email + password → 'Two-factor code': a wrong code says so, a current one lands on the dashboard; 'Back' starts over", async () => {
    const { email, password, secret } = await enrolled()
    const { page, context, errors } = await newPage(browser)
    await passwordStep(page, email, password)
    const code = page.getByLabel('Two-factor code')
    expect(await code.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await code.getAttribute('inputmode')).toBe('numeric')
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code')
    expect(await page.getByLabel('Email').count()).toBe(0)
    await screenshot(page, 'two-factor-login-code')
    await page.getByRole('link', { name: 'Back' }).click()
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    expect(await page.getByLabel('Password').inputValue()).toBe('')

    await passwordStep(page, email, password)
    await page.keyboard.type(wrongCode(secret))
    await page.keyboard.press('Enter')
    await page.locator('.form-error').getByText(INVALID).waitFor()
    expect(await code.evaluate((el) => el === document.activeElement)).toBe(true)
    // the enrolment code's step is spent (each code signs in once): the next step's code is within ±1
    await page.keyboard.type(totp(secret, Date.now() + 30_000))
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/dashboard\//)
    const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)) + JSON.stringify(Object.entries(sessionStorage)))
    expect(stored).not.toContain(password)
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)

  test("'Use a recovery code instead' signs in with a recovery code, each one once", async () => {
    const { email, password, recoveryCodes } = await enrolled()
    const { page, context, errors } = await newPage(browser)
    await passwordStep(page, email, password)
    await page.getByRole('link', { name: 'Use a recovery code instead' }).click()
    const recovery = page.getByLabel('Recovery code')
    expect(await recovery.evaluate((el) => el === document.activeElement)).toBe(true)
    await recovery.fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL(/\/dashboard\//)
    await signOut(page)

    await passwordStep(page, email, password)
    await page.getByRole('link', { name: 'Use a recovery code instead' }).click()
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.locator('.form-error').getByText(INVALID).waitFor()
    await page.getByLabel('Recovery code').fill(recoveryCodes[1]!.toLowerCase())
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL(/\/dashboard\//)
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)

  test("'Turn off' asks for the password; afterwards the password alone signs in", async () => {
    const { email, password, token } = await enrolled()
    const { page, context, errors } = await newPage(browser)
    await context.addCookies([{ name: 'dibs_session', value: token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
    await page.goto(server.url + '/settings/account')
    await page.getByTestId('two-factor-status').getByText('On').waitFor()
    await page.getByRole('button', { name: 'Turn off', exact: true }).click()
    await page.getByLabel('Password', { exact: true }).fill('not-the-password')
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click()
    await page.getByText('Current password is incorrect.').waitFor()
    await screenshot(page, 'two-factor-turn-off')
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click()
    await page.getByText('Two-factor authentication is off.').waitFor()
    await page.getByTestId('two-factor-status').getByText('Off').waitFor()
    await signOut(page)

    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in with Email' }).click()
    await page.waitForURL(/\/dashboard\//)
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)

  test('Google sign-in of a two-factor account asks for the code on /login?step=2fa; an expired step leads back to the normal login', async () => {
    google.fail(null)
    google.setProfile({ sub: '2000002', email: 'gwen@example.com', name: 'Gwen Google' })
    const { page, context, errors } = await newPage(browser)
    await page.goto(server.url + '/login')
    await page.getByTestId('google-sign-in').click()
    await page.waitForURL(/\/dashboard\//, { timeout: 10_000 })
    const { secret } = await turnOn(page, null) // Google only: just signed in, so no password is asked
    await page.getByRole('button', { name: 'Done' }).click()
    await signOut(page)

    // Google alone is not enough: only the code step shows, without email and password
    await page.getByTestId('google-sign-in').click()
    await page.waitForURL(server.url + '/login?step=2fa')
    const code = page.getByLabel('Two-factor code')
    await code.waitFor()
    expect(await code.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await page.getByLabel('Email').count()).toBe(0)
    // the 10-minute cookie is gone: 'Your sign-in expired.' and the way back
    await context.clearCookies({ name: 'dibs_2fa' })
    await code.fill(totp(secret, Date.now() + 30_000))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('Your sign-in expired. Please sign in again.').waitFor()
    await page.getByRole('button', { name: 'Back to sign in' }).click()
    await page.waitForURL(server.url + '/login')
    await page.getByLabel('Email').waitFor()

    await page.getByTestId('google-sign-in').click()
    await page.waitForURL(server.url + '/login?step=2fa')
    await page.getByLabel('Two-factor code').fill(wrongCode(secret))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.locator('.form-error').getByText(INVALID).waitFor()
    await page.getByLabel('Two-factor code').fill(totp(secret, Date.now() + 30_000))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL(/\/dashboard\//)
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)

  test('with REQUIRE_ADMIN_2FA an admin without two-factor sees why and the way to Settings → Account; after enrolling the admin pages open', async () => {
    const admin = await createUserWithSession(server.deps, { role: 'admin', password: 'admin-password' })
    const { page, context, errors } = await newPage(browser)
    await context.addCookies([{ name: 'dibs_session', value: admin.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
    await page.goto(server.url + '/admin/users')
    await page.getByRole('heading', { name: 'Two-factor authentication required' }).waitFor()
    await page.getByText(ADMIN_TEXT).waitFor()
    expect(await page.getByRole('heading', { name: 'Users', level: 1 }).count()).toBe(0)
    await screenshot(page, 'two-factor-admin-gate')
    await page.getByRole('button', { name: 'Go to Settings → Account' }).click()
    await page.waitForURL(server.url + '/settings/account')
    await turnOn(page, 'admin-password')
    await page.getByRole('button', { name: 'Done' }).click()
    await page.goto(server.url + '/admin/users')
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor()
    expect(await page.getByText(ADMIN_TEXT).count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)
})
