// Notifications and PWA in Chromium: the Notification Settings dialog (toggles, optimistic revert
// on a forced failure, 'Saving in progress'), the unsubscribe page, the manifest and service
// worker, an offline start from the cached app shell, and the offline badge; a term's alert
// settings (channels, mute) and a webhook channel with 'Send test' against a local receiver.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { searchTerms } from '../../src/db/schema'
import { getPrefs } from '../../src/notify/prefs'
import { fakeWebhookReceiver } from '../fakes/webhook-receiver'
import { fakeTelegram } from '../fakes/telegram'
import { telegramPoller } from '../../src/outbox/channels/telegram'
import { providerHooks } from '../../src/notify/jobs'
import { createUserWithSession, startTestServer } from '../helpers'
import { launchBrowser, newPage, screenshot } from './browser'

let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser
const tg = fakeTelegram({ token: '42:e2e' })
beforeAll(async () => {
  // the webhook receiver and the Telegram Bot API stand-in listen on loopback
  server = await startTestServer({ CHANNELS_ALLOW_PRIVATE: '1', TELEGRAM_BOT_TOKEN: '42:e2e', TELEGRAM_API_URL: tg.apiUrl })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await tg.stop()
})

/** Waits until fn() returns the expected value (the UI saves asynchronously). */
async function until<T>(fn: () => T | Promise<T>, expected: T, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs
  let last: T = await fn()
  while (last !== expected && Date.now() < end) {
    await Bun.sleep(25)
    last = await fn()
  }
  expect(last).toBe(expected)
}

async function signedIn(
  opts: Parameters<typeof createUserWithSession>[1] = {},
): Promise<{ context: BrowserContext; page: Page; userId: number; errors: string[] }> {
  const u = await createUserWithSession(server.deps, opts)
  const { context, page, errors } = await newPage(browser)
  const [name, value] = u.cookie.split('=') as [string, string]
  await context.addCookies([{ name, value, url: server.url }])
  return { context, page, userId: u.userId, errors }
}

async function openDialog(page: Page) {
  await page.goto(server.url + '/settings/account#notification-settings')
  const dialog = page.getByTestId('notification-settings')
  await dialog.getByRole('heading', { name: 'Notification Settings' }).waitFor()
  await dialog.getByRole('switch', { name: 'Email notifications' }).waitFor()
  return dialog
}

describe('Notification Settings dialog', () => {
  test('defaults to email on as the digest (its interval named) and push off; toggles save and persist', async () => {
    const { context, page, userId, errors } = await signedIn()
    const dialog = await openDialog(page)
    const email = dialog.getByRole('switch', { name: 'Email notifications' })
    const push = dialog.getByRole('switch', { name: /Web push notifications/ })
    const frequency = dialog.getByRole('combobox', { name: /^How often/ })
    expect(await email.isChecked()).toBe(true)
    expect(await push.isChecked()).toBe(false)
    expect(await frequency.inputValue()).toBe('batched')
    expect(await frequency.locator('option:checked').textContent()).toBe('Digest every 15 minutes')
    await dialog.getByText('One email every 15 minutes listing your new matches, only when there are any.').waitFor()
    expect(await frequency.locator('option[value="instant"]').textContent()).toBe('Instant: one email per match')
    await screenshot(page, 'notify-settings-default')
    await frequency.selectOption('instant')
    await until(async () => (await getPrefs(server.deps, userId)).email_frequency, 'instant')
    await dialog.getByText('An email for every match the moment it is found; busy search terms can send many.').waitFor()
    await email.click()
    await until(async () => (await getPrefs(server.deps, userId)).email_frequency, 'none')
    expect(await email.isChecked()).toBe(false)
    await screenshot(page, 'notify-settings-email-off')
    // Back on: the last choice is remembered.
    await email.click()
    await until(async () => (await getPrefs(server.deps, userId)).email_frequency, 'instant')
    await page.reload()
    const again = await openDialog(page)
    expect(await again.getByRole('combobox', { name: /^How often/ }).inputValue()).toBe('instant')
    expect(errors).toEqual([])
    await context.close()
  })

  test('a failed save reverts the toggle with the spec toast', async () => {
    const { context, page, userId } = await signedIn()
    const dialog = await openDialog(page)
    await page.route('**/api/notifications/preferences', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"INTERNAL","message":"boom"}}' })
        : route.continue(),
    )
    const email = dialog.getByRole('switch', { name: 'Email notifications' })
    await email.click()
    await page.getByText('Failed to save email preference').waitFor()
    expect(await email.isChecked()).toBe(true)
    expect((await getPrefs(server.deps, userId)).email_frequency).toBe('batched')
    await dialog.getByRole('combobox', { name: /^How often/ }).selectOption('instant')
    await page.getByText('Failed to save preference', { exact: true }).waitFor()
    expect(await dialog.getByRole('combobox', { name: /^How often/ }).inputValue()).toBe('batched')
    await screenshot(page, 'notify-settings-revert')
    await context.close()
  })

  test("the dialog refuses to close while a save runs ('Saving in progress'), one save at a time", async () => {
    const { context, page, userId } = await signedIn()
    const dialog = await openDialog(page)
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let puts = 0
    await page.route('**/api/notifications/preferences', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue()
      puts++
      await held
      await route.continue()
    })
    const email = dialog.getByRole('switch', { name: 'Email notifications' })
    await email.click()
    expect(await email.isDisabled()).toBe(true) // one save at a time for this toggle
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page.getByText('Saving in progress').waitFor()
    expect(await dialog.isVisible()).toBe(true)
    release()
    await until(async () => (await getPrefs(server.deps, userId)).email_frequency, 'none')
    await until(() => email.isDisabled(), false)
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(puts).toBe(1)
    await context.close()
  })

  test('without a subscription both toggles are locked with the spec texts', async () => {
    const { context, page } = await signedIn({ role: 'trial_expired' })
    await page.goto(server.url + '/settings/account')
    // The blocking overlay may cover the page; the dialog is still reachable through its link.
    await page.evaluate(() => (window.location.hash = '#notification-settings'))
    const dialog = page.getByTestId('notification-settings')
    await dialog.getByText('Email notifications require a subscription').waitFor()
    await dialog.getByText('Web push notifications require a subscription').waitFor()
    await context.close()
  })

  test('turning push on asks the browser; when the push service is unreachable it reverts with the toast', async () => {
    const { context, page } = await signedIn()
    await context.grantPermissions(['notifications'], { origin: server.url })
    const dialog = await openDialog(page)
    const push = dialog.getByRole('switch', { name: /Web push notifications/ })
    await push.click()
    // Headless Chromium here has no push service (no network): subscribe() fails → revert.
    await page.getByText('Failed to save notification preference').waitFor({ timeout: 20_000 })
    expect(await push.isChecked()).toBe(false)
    await context.close()
  })
})

describe('per-term alerts and external channels', () => {
  test("a term's email and mute are set from its chip; a webhook is added and 'Send test' shows the result", async () => {
    const hook = fakeWebhookReceiver()
    try {
      const { context, page, userId, errors } = await signedIn()
      const t = server.deps.db.insert(searchTerms).values({ userId, category: 'wts', term: 'rmr' }).returning().get()
      await page.goto(server.url + '/dashboard/gafs/wts')
      await page.getByRole('button', { name: 'Search WTS Posts' }).click()
      await page.getByRole('button', { name: 'Alert settings for rmr' }).click()
      const settings = page.getByTestId('term-delivery')
      await settings.getByRole('heading', { name: 'Alerts for “rmr”' }).waitFor()
      // the dialog lives outside the chip, so it does not take the chip's small, borderless button style
      expect(await page.locator('li.chip [data-testid="term-delivery"]').count()).toBe(0)
      expect(await settings.getByRole('button', { name: '8 hours' }).evaluate((b) => getComputedStyle(b).borderStyle)).not.toBe('none')
      await settings.getByRole('combobox', { name: /^Email/ }).selectOption('off')
      await settings.getByRole('button', { name: '8 hours' }).click()
      await settings.getByText(/^Muted until/).waitFor()
      const row = () => server.deps.db.select().from(searchTerms).where(eq(searchTerms.id, t.id)).get()!
      expect((row().delivery as { email: string }).email).toBe('off')
      expect(row().mutedUntil!.getTime() - Date.now()).toBeGreaterThan(7.9 * 3600_000)
      await screenshot(page, 'term-delivery-muted')
      await settings.getByRole('button', { name: 'Unmute' }).click()
      await settings.getByRole('button', { name: 'Until I unmute' }).waitFor()
      expect(row().mutedUntil).toBeNull()
      await settings.getByRole('button', { name: 'Done' }).click()
      await page.keyboard.press('Escape')

      const dialog = await openDialog(page)
      const add = dialog.getByRole('form', { name: 'Add channel' })
      await add.getByRole('textbox', { name: 'URL' }).fill(hook.hookUrl)
      await add.getByRole('button', { name: 'Add channel' }).click()
      await dialog.getByText(/^Signing secret \(shown once/).waitFor()
      await dialog.getByRole('button', { name: 'Send test' }).click()
      await dialog.getByText('Test sent: delivered (204)').waitFor()
      expect(hook.received).toHaveLength(1)
      await screenshot(page, 'notify-settings-webhook')
      expect(errors).toEqual([])
      await context.close()
    } finally {
      await hook.stop()
    }
  })
})

describe('channel dialogs from the registry', () => {
  test("Telegram shows '/start <code>' with the bot's name until the chat is linked; a Matrix field error marks its field", async () => {
    const { context, page, errors } = await signedIn()
    const dialog = await openDialog(page)
    const add = dialog.getByRole('form', { name: 'Add channel' })
    await add.getByRole('combobox', { name: 'Type' }).selectOption('telegram')
    await add.getByText(/send the \/start code it shows to the bot/).waitFor()
    await add.getByRole('button', { name: 'Add channel' }).click()
    const link = dialog.getByTestId('telegram-link')
    await link.waitFor()
    const code = (await link.locator('code').textContent())!.replace('/start ', '')
    expect(await link.textContent()).toBe(`To link your chat, send /start ${code} to @DibsTestBot in Telegram.`)
    await screenshot(page, 'notify-settings-telegram')

    tg.userSends(9001, `/start ${code}`)
    await telegramPoller(providerHooks).poll(server.deps, 0)
    await page.reload()
    const dialog2 = await openDialog(page)
    await dialog2.getByText('chat Alice').waitFor()
    expect(await dialog2.getByTestId('telegram-link').count()).toBe(0)

    const add2 = dialog2.getByRole('form', { name: 'Add channel' })
    await add2.getByRole('combobox', { name: 'Type' }).selectOption('matrix')
    await add2.getByRole('textbox', { name: 'Homeserver URL' }).fill(server.url)
    await add2.getByRole('textbox', { name: 'Room ID' }).fill('#alias:example.org')
    await add2.getByLabel('Access token').fill('syt_x')
    await add2.getByRole('button', { name: 'Add channel' }).click()
    await add2
      .getByRole('alert')
      .getByText(/internal ID/)
      .waitFor()
    expect(await add2.getByRole('textbox', { name: 'Room ID' }).getAttribute('aria-invalid')).toBe('true')
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('/unsubscribe page', () => {
  const cases: [string, RegExp][] = [
    ['status=success', /You've been unsubscribed/],
    ['status=error&code=TOKEN_INVALID', /invalid or has expired/],
    ['status=error&code=MISSING_TOKEN', /link is incomplete/],
    ['status=error&code=DB_ERROR', /couldn't update your preferences/],
    ['status=error&code=CONFIG_ERROR', /not available right now/],
    ['status=error&code=SOMETHING_ELSE', /Something went wrong/],
  ]
  test('shows a clear text for success and for every error code', async () => {
    const { context, page } = await newPage(browser)
    for (const [query, text] of cases) {
      await page.goto(`${server.url}/unsubscribe?${query}`)
      await page.getByRole('heading', { name: text }).waitFor()
    }
    await screenshot(page, 'notify-unsubscribe-default')
    await context.close()
  })

  test("an emailed link opens a page that says what will stop; only its 'Unsubscribe' button unsubscribes", async () => {
    const u = await createUserWithSession(server.deps, { emailFrequency: 'instant' })
    const { unsubscribeUrl } = await import('../../src/notify/unsubscribe')
    const link = unsubscribeUrl({ config: server.deps.config, now: () => new Date() }, u.userId).replace(server.deps.config.appUrl, server.url)
    const { context, page, errors } = await newPage(browser)
    await page.goto(link)
    await page.getByRole('heading', { name: 'Unsubscribe from alert emails?' }).waitFor()
    await page.getByText('You will stop getting match alert emails').waitFor()
    expect(await page.getByRole('button').allTextContents()).toEqual(['Unsubscribe'])
    await screenshot(page, 'notify-unsubscribe-confirm')
    // Opening the link (as a link scanner or a mail preview does) changed nothing.
    await page.reload()
    await page.getByRole('button', { name: 'Unsubscribe' }).waitFor()
    expect((await getPrefs(server.deps, u.userId)).email_frequency).toBe('instant')
    await page.getByRole('button', { name: 'Unsubscribe' }).click()
    await page.getByRole('heading', { name: "You've been unsubscribed" }).waitFor()
    expect(new URL(page.url()).search).toBe('?status=success')
    expect((await getPrefs(server.deps, u.userId)).email_frequency).toBe('none')
    // 'Go to Notification Settings' leads a signed-out reader through sign-in to the open dialog (issue 12 item 5)
    await page.getByRole('button', { name: 'Go to Notification Settings' }).click()
    await page.waitForURL(/\/login\?next=/)
    await context.addCookies([{ name: 'dibs_session', value: u.token, url: server.url }])
    await page.goto(server.url + new URL(page.url()).searchParams.get('next')!)
    await page.getByTestId('notification-settings').waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  test('the button answers with the error page when the token is refused', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(`${server.url}/unsubscribe?token=not-a-token`)
    await page.getByRole('button', { name: 'Unsubscribe' }).click()
    await page.getByRole('heading', { name: /invalid or has expired/ }).waitFor()
    expect(new URL(page.url()).search).toBe('?status=error&code=TOKEN_INVALID')
    expect(errors).toEqual([])
    await context.close()
  })

  test('a link with a bad token lands on the error page at once', async () => {
    const { context, page } = await newPage(browser)
    await page.goto(`${server.url}/api/unsubscribe?token=not-a-token`)
    await page.getByRole('heading', { name: /invalid or has expired/ }).waitFor()
    expect(new URL(page.url()).search).toBe('?status=error&code=TOKEN_INVALID')
    await context.close()
  })
})

describe('PWA', () => {
  test('the manifest and its icons load and the service worker registers at /sw.js', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(server.url + '/')
    const href = await page.getAttribute('link[rel="manifest"]', 'href')
    const manifest = await (await fetch(new URL(href!, server.url))).json()
    expect(manifest).toMatchObject({ name: 'Dibs', display: 'standalone', start_url: '/dashboard' })
    const sizes = manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes}:${i.purpose}`)
    expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']))
    for (const icon of manifest.icons) {
      const r = await fetch(new URL(icon.src, server.url))
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toBe(icon.type)
    }
    const sw = await fetch(server.url + '/sw.js')
    expect(sw.headers.get('cache-control')).toBe('no-cache')
    const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
    expect(script).toBe(server.url + '/sw.js')
    expect(errors).toEqual([])
    await context.close()
  })

  test('the app shell starts offline from the cache and the offline badge shows', async () => {
    const { context, page } = await newPage(browser)
    await page.goto(server.url + '/')
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }))
    })
    await page.getByText('Start Free Trial').first().waitFor()
    expect(await page.getByTestId('offline-badge').count()).toBe(0)
    await context.setOffline(true)
    await page.getByTestId('offline-badge').waitFor()
    await page.reload()
    await page.getByText('Start Free Trial').first().waitFor()
    await page.getByTestId('offline-badge').waitFor()
    await screenshot(page, 'notify-offline-start')
    await context.setOffline(false)
    await page.getByTestId('offline-badge').waitFor({ state: 'detached' })
    await context.close()
  })
})
