// Claim in one tap in Chromium: a real push reaches the service worker (CDP ServiceWorker.deliverPushMessage), which
// shows the notification with the Claim / Open / Mark read buttons; pressing 'Mark read' through the worker's click
// handler marks the match read without opening the app. The match card's Claim opens the prefilled message and
// the card then says how long after the post the user was.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { pushMessage } from '../../src/notify/dispatcher'
import { alertActionsFor } from '../../src/notify/alert-links'
import { claimTemplateOf } from '../../src/notify/prefs'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession, startTestServer } from '../helpers'
import { launchBrowser, newPage } from './browser'

let server: Awaited<ReturnType<typeof startTestServer>>
let browser: Browser
beforeAll(async () => {
  server = await startTestServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function liveMatch(userId: number, author: string) {
  const d = server.deps
  await addTerm(d, userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
  await Bun.sleep(5)
  const now = Date.now()
  const stored = await storePosts(d, [forumPost(`[WTS] Trijicon RMR Type 2 by ${author} - $400`, { author, now, ageMs: 0 })])
  const created = (await matchPosts(d, stored, 'live', { receivedAt: now, storedAt: now })).created.filter((c) => c.userId === userId)
  expect(created).toHaveLength(1)
  return created[0]!.item
}
const isNew = (id: number) => server.deps.sqlite.query<{ is_new: number }, [number]>('SELECT is_new FROM matches WHERE id = ?').get(id)!.is_new

describe('push actions', () => {
  test("a push shows Claim / Open / Mark read; 'Mark read' through the service worker's handler marks the match read", async () => {
    const u = await createUserWithSession(server.deps)
    const match = await liveMatch(u.userId, 'push_seller')
    const message = pushMessage(server.deps, match, alertActionsFor(server.deps, u.userId, 'push', match, await claimTemplateOf(server.deps, u.userId)))
    const { context, page } = await newPage(browser)
    await context.grantPermissions(['notifications'], { origin: server.url })
    await page.goto(server.url + '/')
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    const cdp = await context.newCDPSession(page)
    const registration = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: any) => {
        const r = e.registrations.find((x: any) => x.scopeURL.startsWith(server.url) && !x.isDeleted)
        if (r) resolve(r.registrationId)
      }),
    )
    await cdp.send('ServiceWorker.enable')
    const registrationId = await registration
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: JSON.stringify(message) })
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    const shown = await worker.evaluate(async () => {
      // up to 20 s: under a full test run's load the worker's showNotification has taken over 5 s
      for (let i = 0; i < 400; i++) {
        const list = await (self as any).registration.getNotifications()
        if (list.length > 0) return { title: list[0].title, actions: list[0].actions.map((a: any) => `${a.action}:${a.title}`) }
        await new Promise((r) => setTimeout(r, 50))
      }
      return null
    })
    expect(shown?.title).toBe('New GAFS WTS match')
    // Chromium shows at most Notification.maxActions buttons; the payload carries all three
    expect(message.actions?.map((a) => `${a.action}:${a.title}`)).toEqual(['claim:Claim', 'open:Open', 'mark-read:Mark read'])
    expect(shown!.actions).toEqual(['claim:Claim', 'open:Open', 'mark-read:Mark read'].slice(0, shown!.actions.length))
    expect(isNew(match.id)).toBe(1)
    await worker.evaluate(async () => {
      const [n] = await (self as any).registration.getNotifications()
      await (self as any).dibsNotificationClick(n, 'mark-read')
    })
    expect(isNew(match.id)).toBe(0)
    expect(await worker.evaluate(async () => (await (self as any).registration.getNotifications()).length)).toBe(0)
    expect(server.deps.sqlite.query('SELECT claimed_at FROM alert_latency WHERE match_id = ?').get(match.id)).toEqual({ claimed_at: null })
    await context.close()
  })
})

describe('match card', () => {
  test("Claim opens the prefilled message to the seller, records the claim once, and the card says 'You were … after the post'", async () => {
    const u = await createUserWithSession(server.deps)
    const match = await liveMatch(u.userId, 'card_seller')
    const { context, page, errors } = await newPage(browser)
    const [name, value] = u.cookie.split('=') as [string, string]
    await context.addCookies([{ name, value, url: server.url }])
    await context.route('https://www.reddit.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>reddit stand-in</p>' }))
    await page.goto(`${server.url}/dashboard/${server.deps.config.productSlug}/wts`)
    const card = page.locator(`[data-match-id="${match.id}"]`)
    const claim = card.getByTestId('claim')
    await claim.waitFor()
    const href = await claim.getAttribute('href')
    expect(href).toStartWith(
      'https://www.reddit.com/message/compose/?to=card_seller&subject=Re%3A+%5BWTS%5D+Trijicon+RMR+Type+2+by+card_seller+-+%24400&message=Hi+card_seller',
    )
    const [popup] = await Promise.all([context.waitForEvent('page'), claim.click()])
    await popup.close()
    await card.getByTestId('claimed-after').waitFor()
    expect(await card.getByTestId('claimed-after').textContent()).toMatch(/^You were \d+ s after the post$/)
    const end = Date.now() + 5000
    let row: any = null
    while (
      Date.now() < end &&
      !(row = server.deps.sqlite.query('SELECT claim_channel, claim_action FROM alert_latency WHERE match_id = ? AND claimed_at IS NOT NULL').get(match.id))
    )
      await Bun.sleep(25)
    expect(row).toEqual({ claim_channel: 'app', claim_action: 'claim' })
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('Admin → Alerts: sellers Dibs never alerts on', () => {
  test('an admin adds a seller with a reason and takes them off again', async () => {
    const admin = await createUserWithSession(server.deps, { role: 'admin' })
    const { context, page, errors } = await newPage(browser)
    const [name, value] = admin.cookie.split('=') as [string, string]
    await context.addCookies([{ name, value, url: server.url }])
    await page.goto(server.url + '/admin/alerts')
    const card = page.getByTestId('blocked-sellers')
    await card.getByText('No seller is on the list.').waitFor()
    await card.getByLabel('Seller').fill('u/Scam_Acct')
    await card.getByLabel('Reason').fill('Universal Scammer List')
    await card.getByRole('button', { name: 'Never alert on this seller' }).click()
    await card.getByText('u/scam_acct · Universal Scammer List').waitFor()
    expect(server.deps.sqlite.query('SELECT name FROM blocked_sellers').all()).toEqual([{ name: 'scam_acct' }])
    await card.getByRole('button', { name: 'Allow alerts on u/scam_acct again' }).click()
    await card.getByText('No seller is on the list.').waitFor()
    expect(errors).toEqual([])
    await context.close()
  })
})
