// Accounts in Chromium: sign up → confirm from the delivered email → dashboard; login states;
// gating of protected pages; the blocking overlay for an expired trial; cross-tab sign-out.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext } from 'playwright-core'
import { createUserWithSession, startTestServer } from '../helpers'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { outboxWorker } from '../../src/outbox/worker'
import { attachListeners } from '../../src/services'
import { channelStore } from '../../src/notify/channel-store'
import { createChannels } from '../../src/outbox/channels'
import { launchBrowser, newPage, screenshot } from './browser'

let server: Awaited<ReturnType<typeof startTestServer>>
let smtp: FakeSmtp
let worker: ReturnType<typeof outboxWorker>
let browser: Browser

beforeAll(async () => {
  smtp = await startSmtp()
  server = await startTestServer({ SMTP_URL: smtp.url })
  worker = outboxWorker(server.deps, createChannels(server.deps, channelStore))
  attachListeners(server.deps, { outbox: worker })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await worker?.stop()
  await server?.stop()
  await smtp?.stop()
})

async function signedInContext(
  opts: Parameters<typeof createUserWithSession>[1],
): Promise<{ context: BrowserContext; page: Awaited<ReturnType<typeof newPage>>['page']; errors: string[] }> {
  const user = await createUserWithSession(server.deps, opts)
  const made = await newPage(browser)
  await made.context.addCookies([{ name: 'dibs_session', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
  return made
}

describe('accounts in the browser', () => {
  test('sign up → check email → confirm from the delivered email → land on the dashboard', async () => {
    const { page, context, errors } = await newPage(browser)
    await page.goto(server.url + '/signup')
    await page.getByRole('heading', { name: 'Create an account' }).waitFor()
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByText('All fields are required').waitFor()
    await page.getByLabel('Name').fill('Casey')
    await page.getByLabel('Email').fill('casey@example.com')
    await page.getByLabel('Password', { exact: true }).fill('casey-password')
    await page.getByLabel('Confirm password').fill('something-else')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByText('Passwords do not match').waitFor()
    await page.getByLabel('Confirm password').fill('casey-password')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(server.url + '/check-email')
    await page.getByRole('heading', { name: 'Confirm Your Email' }).waitFor()
    expect(await page.getByTestId('sent-to').textContent()).toBe('casey@example.com')
    await page.getByRole('button', { name: 'Back to Login' }).waitFor()
    await screenshot(page, 'auth-check-email')

    await worker.tick()
    const [mail] = await smtp.waitFor(1)
    const link = /(http:\/\/\S+\/api\/auth\/confirm\?token=[\w-]+)/.exec(mail!.text)![1]!
    await page.goto(link)
    await page.getByRole('heading', { name: 'Email Confirmed' }).waitFor()
    await page.waitForURL(/\/dashboard\/gafs\/wts$/, { timeout: 10_000 })
    await screenshot(page, 'auth-confirmed-dashboard')
    expect(errors).toEqual([])

    // the landing header now offers the dashboard and a fresh sign-in
    await page.goto(server.url + '/')
    await page.getByText('Go to Dashboard').waitFor()
    await page.getByText('Sign Out & Sign In Fresh').click()
    await page.waitForURL(/\/login(\?next=.*)?$/)
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    await page.goto(server.url + '/')
    await page.getByText('Start Free Trial').first().waitFor()
    await context.close()
  })

  test('login: wrong password and unconfirmed email show the spec texts; success goes to the dashboard; /login with a session redirects', async () => {
    await startTestUserViaApi('lee@example.com', 'lee-password')
    const { page, context } = await newPage(browser)
    await page.goto(server.url + '/login')
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email')
    await page.getByRole('link', { name: 'Forgot password?' }).waitFor()
    await page.getByRole('link', { name: 'Sign up' }).waitFor()
    expect(await page.getByTestId('google-sign-in').count()).toBe(0) // Google not configured
    await page.getByLabel('Email').fill('lee@example.com')
    await page.getByLabel('Password').fill('wrong-password')
    await page.getByRole('button', { name: 'Sign in with Email' }).click()
    await page.locator('.form-error').getByText('Invalid login credentials. Please check your email and password.').waitFor()

    await page.getByLabel('Email').fill('pending@example.com')
    await page.getByLabel('Password').fill('pending-password')
    await page.getByRole('button', { name: 'Sign in with Email' }).click()
    await page.waitForURL(server.url + '/check-email')
    await page.getByText('Email not confirmed').first().waitFor()
    expect(await page.getByTestId('sent-to').textContent()).toBe('pending@example.com')
    await page.getByRole('button', { name: 'Resend confirmation email' }).click()
    await page.getByText('Confirmation email resent').waitFor()

    await page.goto(server.url + '/login')
    await page.getByLabel('Email').fill('lee@example.com')
    await page.getByLabel('Password').fill('lee-password')
    await page.getByRole('button', { name: 'Sign in with Email' }).click()
    await page.waitForURL(/\/dashboard\/gafs\/wts$/)
    await page.goto(server.url + '/login')
    await page.waitForURL(/\/dashboard\/gafs\/wts$/)
    await context.close()
  })

  test('a signed-out visitor on a protected page is sent to /login', async () => {
    const { page, context } = await newPage(browser)
    await page.goto(server.url + '/archive')
    await page.waitForURL(server.url + '/login?next=%2Farchive') // and back there after signing in
    await context.close()
  })

  test('an expired trial sees the page behind the blocking overlay with plans and Logout', async () => {
    const { page, context, errors } = await signedInContext({
      role: 'app_trial',
      subscriptionStatus: 'trialing',
      accessExpiresAt: new Date(Date.now() - 60_000),
    })
    await page.goto(server.url + '/dashboard')
    const overlay = page.getByTestId('access-overlay')
    await overlay.waitFor()
    expect(await overlay.getAttribute('data-context')).toBe('app_trial_expired')
    await overlay.getByRole('heading', { name: 'Your Free Trial Has Ended' }).waitFor()
    expect(await overlay.getByTestId('role-badge').textContent()).toBe('Trial Expired')
    await overlay.getByText('Available Plans').waitFor()
    await overlay.getByTestId('contact-admin').waitFor() // billing off: how to reach the administrator (tests/e2e/first-hour.test.ts)
    await page.keyboard.press('Escape')
    await overlay.waitFor() // not dismissible
    await screenshot(page, 'auth-expired-trial-overlay')
    await overlay.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL(server.url + '/login')
    await page.getByText('You have been successfully logged out.').waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  test('the landing header says View Account to a signed-in user without access', async () => {
    const { page, context } = await signedInContext({ role: 'trial_expired', subscriptionStatus: null })
    await page.goto(server.url + '/')
    await page.getByText('View Account').waitFor()
    await context.close()
  })

  test('signing out in one tab signs out the others', async () => {
    const { page, context } = await signedInContext({ role: 'product+gd' })
    await page.goto(server.url + '/archive')
    await page.getByRole('heading', { name: 'Archive' }).first().waitFor()
    const other = await context.newPage()
    await other.goto(server.url + '/')
    await other.getByText('Go to Dashboard').waitFor()
    await other.getByText('Sign Out & Sign In Fresh').click()
    await other.waitForURL(server.url + '/login')
    await page.waitForURL(server.url + '/login?next=%2Farchive', { timeout: 15_000 })
    await context.close()
  })

  test('access info that cannot load shows the Authentication Error screen; Try Again recovers', async () => {
    const { page, context } = await signedInContext({ role: 'product+gd' })
    await page.route('**/api/me', (route) => route.abort())
    await page.goto(server.url + '/archive')
    await page.getByRole('heading', { name: 'Authentication Error' }).waitFor()
    expect(await page.getByTestId('auth-error').textContent()).toBe(
      'Failed to load subscription details. Please try again or contact support if the issue persists.',
    )
    const mail = await page.getByRole('button', { name: 'Contact Support' }).getAttribute('href')
    expect(decodeURIComponent(mail!)).toContain('Failed to load subscription details.')
    await page.getByRole('button', { name: 'Sign Out & Return to Login' }).waitFor()
    await page.unroute('**/api/me')
    await page.getByRole('button', { name: 'Try Again' }).click()
    await page.getByRole('heading', { name: 'Archive' }).first().waitFor()
    await context.close()
  })

  test('when the server is unreachable, a cache up to 2 h old is used with a notice', async () => {
    const { page, context } = await signedInContext({ role: 'product+gd' })
    await page.goto(server.url + '/archive')
    await page.getByRole('heading', { name: 'Archive' }).first().waitFor()
    await page.evaluate(() => {
      const c = JSON.parse(localStorage.getItem('access_info_cache')!)
      c.timestamp = Date.now() - 40 * 60_000 // past the 30 min validity, within the 2 h stale window
      localStorage.setItem('access_info_cache', JSON.stringify(c))
    })
    await page.route('**/api/me', (route) => route.fulfill({ status: 503, body: '{}' }))
    await page.reload()
    await page.getByText('Using cached data - connection issue').waitFor()
    await page.getByRole('heading', { name: 'Archive' }).first().waitFor()
    await context.close()
  })

  test('forgot → emailed link → Set New Password → sign in with it', async () => {
    await startTestUserViaApi('reset@example.com', 'old-password')
    const { page, context } = await newPage(browser)
    await page.goto(server.url + '/forgot-password')
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor()
    await page.getByLabel('Email').fill('reset@example.com')
    const before = smtp.messages.length
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByTestId('forgot-sent').waitFor()
    await worker.tick()
    const mails = await smtp.waitFor(before + 1)
    const link = /(http:\/\/\S+\/reset-password\?token=[\w-]+)/.exec(mails.at(-1)!.text)![1]!
    await page.goto(link)
    await page.getByLabel('New password', { exact: true }).fill('new-password-1')
    await page.getByLabel('Confirm new password').fill('new-password-1')
    await page.getByRole('button', { name: 'Set New Password' }).click()
    await page.waitForURL(server.url + '/login')
    await page.getByLabel('Email').fill('reset@example.com')
    await page.getByLabel('Password').fill('new-password-1')
    await page.getByRole('button', { name: 'Sign in with Email' }).click()
    await page.waitForURL(/\/dashboard\//)
    await context.close()
  })
})

/** A confirmed account with a password, plus an unconfirmed one, made through the API. */
async function startTestUserViaApi(email: string, password: string) {
  const { createUser } = await import('../../src/auth/service')
  await createUser(server.deps, { email, password, confirmed: true })
  if (!(await (await import('../../src/auth/service')).findUserByEmail(server.deps, 'pending@example.com')))
    await createUser(server.deps, { email: 'pending@example.com', password: 'pending-password' })
}
