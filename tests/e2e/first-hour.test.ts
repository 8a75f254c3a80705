// The rough edges of a first hour (issue 30 §5) in Chromium, on one server with billing off (no
// Stripe keys) and a support address: what the pages promise and how a locked-out account reaches
// the administrator.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession } from '../helpers'
import { newPage, useServerAndBrowser } from './browser'

const SUPPORT = 'help@example.com'
const world = useServerAndBrowser({ SUPPORT_EMAIL: SUPPORT, ADMIN_EMAILS: 'root@example.com' })

async function signedIn(opts: Parameters<typeof createUserWithSession>[1]) {
  const user = await createUserWithSession(world.server.deps, opts)
  const made = await newPage(world.browser)
  await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
  return { ...made, userId: user.userId }
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent()) ?? ''

describe('billing off says what is true (issue 30 §5)', () => {
  test('the landing and sign-up pages promise no trial or price nobody can pay: plans are free here', async () => {
    const { page, context, errors } = await newPage(world.browser)
    await page.goto(world.server.url + '/')
    const plans = page.locator('section.plans')
    await plans.getByTestId('plan-product+gd').waitFor()
    const plansText = (await plans.textContent()) ?? ''
    expect(plansText).not.toContain('7-day free trial')
    expect(plansText).not.toContain('$')
    expect(plansText).toContain('This server takes no payments')
    expect(plansText).toContain('every new account gets GAFS + GD free')
    expect(await text(page, 'section.faq')).not.toContain('7-day free trial')
    await page.goto(world.server.url + '/signup')
    await page.getByRole('heading', { name: 'Create an account' }).waitFor()
    expect(await text(page, 'main')).not.toContain('7-day free trial')
    await page.getByText('Free: GAFS + GD for every new account').waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  test('an ended trial meets the overlay with the support address and a message form, not "Contact the administrator" three times', async () => {
    const { page, context, errors } = await signedIn({ role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() - 60_000) })
    await page.goto(world.server.url + '/dashboard')
    const overlay = page.getByTestId('access-overlay')
    await overlay.getByRole('heading', { name: 'Your Free Trial Has Ended' }).waitFor()
    expect(await overlay.getByText('Contact the administrator to activate this plan.').count()).toBe(0)
    expect(await overlay.getByText('Choose a plan', { exact: false }).count()).toBe(0)
    await overlay.getByText('This server takes no payments: the administrator grants plans.', { exact: false }).waitFor()
    expect(await overlay.getByRole('link', { name: SUPPORT }).getAttribute('href')).toBe(`mailto:${SUPPORT}`)
    await overlay.getByText('Send the administrator a message').click()
    await overlay.getByLabel('Subject').fill('Access please')
    await overlay.getByLabel('Message').fill('My trial ended; may I have the bundle?')
    await overlay.getByRole('button', { name: 'Send Message' }).click()
    await page.getByTestId('toasts').getByText('Message sent').waitFor()
    const row = world.server.deps.sqlite.query('SELECT subject FROM contact_messages ORDER BY id DESC LIMIT 1').get() as { subject: string }
    expect(row.subject).toBe('Access please')
    expect(errors).toEqual([])
    await context.close()
  })

  test("the admin's conversion rate is not 100 % when nobody can pay", async () => {
    await createUserWithSession(world.server.deps, { role: 'product+gd', subscriptionStatus: 'active' })
    const { page, context, errors } = await signedIn({ role: 'admin', email: 'root@example.com' })
    await page.goto(world.server.url + '/admin')
    const card = page.getByTestId('kpi-cards').locator('.kpi-card').filter({ hasText: 'Conversion rate' })
    await card.waitFor()
    expect(await card.locator('.kpi-value').textContent()).toBe('—')
    expect(await card.locator('.kpi-note').textContent()).toBe('billing is off: plans are granted, not sold')
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('destructive actions ask first (issue 30 §5)', () => {
  test('Admin → Tools "Archive old posts" says how many posts go and that the live feed loses them; Cancel keeps them', async () => {
    const now = Date.now()
    const post = world.server.deps.sqlite.query('INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    for (const [id, hoursAgo] of [
      ['arch1', 30],
      ['arch2', 50],
      ['arch3', 1],
    ] as const)
      post.run(id, 'product', 'GunAccessoriesForSale', `[WTS] Post ${id}`, `https://reddit.example/${id}`, now - hoursAgo * 3_600_000)
    const posts = () => (world.server.deps.sqlite.query("SELECT count(*) AS n FROM posts WHERE reddit_id LIKE 'arch%'").get() as { n: number }).n
    const { page, context, errors } = await signedIn({ role: 'admin' })
    await page.goto(world.server.url + '/admin/tools')
    await page.getByRole('button', { name: 'Archive old posts' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Archive old posts?' })
    await ask.waitFor()
    const said = (await ask.locator('#confirm-text').textContent()) ?? ''
    expect(said).toContain('2 posts older than 24 hours will be deleted')
    expect(said).toContain('live feed')
    expect(posts()).toBe(3)
    await ask.getByRole('button', { name: 'Cancel' }).click()
    await ask.waitFor({ state: 'detached' })
    expect(posts()).toBe(3)
    await page.getByRole('button', { name: 'Archive old posts' }).click()
    await ask.getByRole('button', { name: 'Archive' }).click()
    await page.getByTestId('toasts').getByText('Archive completed').waitFor()
    expect(posts()).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })

  test('Notification Settings → Remove channel asks first; Cancel keeps the channel', async () => {
    const { page, context, errors, userId } = await signedIn({ role: 'product+gd' })
    const { notifyEndpoints } = await import('../../src/db/schema')
    world.server.deps.db.insert(notifyEndpoints).values({ userId, kind: 'ntfy', name: 'Phone', url: 'https://ntfy.sh/my-topic' }).run()
    const channels = () => world.server.deps.sqlite.query('SELECT count(*) AS n FROM notify_endpoints WHERE user_id = ?').get(userId) as { n: number }
    await page.goto(world.server.url + '/settings/account#notification-settings')
    const dialog = page.getByTestId('notification-settings')
    await dialog.getByRole('button', { name: 'Remove ntfy: Phone' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Remove ntfy: Phone?' })
    await ask.getByText('Alerts stop going to https://ntfy.sh/my-topic.', { exact: false }).waitFor()
    await ask.getByRole('button', { name: 'Cancel' }).click()
    expect(channels().n).toBe(1)
    await dialog.getByRole('button', { name: 'Remove ntfy: Phone' }).click()
    await ask.getByRole('button', { name: 'Remove' }).click()
    await dialog.getByRole('button', { name: 'Remove ntfy: Phone' }).waitFor({ state: 'detached' })
    expect(channels().n).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe("'Why didn't I get an alert?' speaks one time zone, named (issue 30 §5)", () => {
  test('the post time, when Dibs saw it and where the alert went are all in the quiet-hours zone, which is named', async () => {
    const user = await createUserWithSession(world.server.deps, { role: 'product+gd' })
    const { notificationPrefs } = await import('../../src/db/schema')
    world.server.deps.db
      .insert(notificationPrefs)
      .values({ userId: user.userId, quietStart: '22:00', quietEnd: '07:00', timeZone: 'Europe/Berlin' })
      .onConflictDoUpdate({ target: notificationPrefs.userId, set: { quietStart: '22:00', quietEnd: '07:00', timeZone: 'Europe/Berlin' } })
      .run()
    const at = Date.UTC(2026, 10, 24, 9, 2, 0) // 10:02 in Berlin, 04:02 in New York
    const sql = world.server.deps.sqlite
    const postId = (
      sql
        .query(
          "INSERT INTO posts (reddit_id, forum, subreddit, title, url, created_at, ingested_at, post_type) VALUES ('tz1ab', 'product', 'GunAccessoriesForSale', '[WTS] Glock 19', 'https://www.reddit.com/r/GunAccessoriesForSale/comments/tz1ab/x/', ?, ?, 'wts') RETURNING id",
        )
        .get(at, at + 5000) as { id: number }
    ).id
    sql
      .query(
        "INSERT INTO matches (user_id, post_id, category, matched_terms, post_title, post_url, post_created_at, source, created_at) VALUES (?, ?, 'wts', '[\"glock\"]', '[WTS] Glock 19', 'https://www.reddit.com/r/GunAccessoriesForSale/comments/tz1ab/x/', ?, 'live', ?)",
      )
      .run(user.userId, postId, at, at + 6000)
    // the browser is in New York: its own zone must not slip in beside Berlin's
    const made = await newPage(world.browser, { timezoneId: 'America/New_York' })
    await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
    const { page, context, errors } = made
    await page.goto(`${world.server.url}/why?url=t3_tz1ab`)
    const answer = page.getByRole('region', { name: 'Explanation' })
    await answer.getByRole('heading', { name: 'Where the alert went' }).waitFor()
    const all = (await answer.textContent()) ?? ''
    expect(await answer.locator('time').first().textContent()).toContain('10:02:00 (Europe/Berlin)')
    expect(all).toContain('10:02:05 (Europe/Berlin)') // seen by Dibs
    expect(all).toContain('10:02:06 (Europe/Berlin)') // matched, and the match list since
    expect(all).not.toMatch(/04:02|New_York|EST|GMT|UTC/)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('term errors name what was written wrong (issue 30 §5)', () => {
  test('a pasted HTML tag and a lone exclusion get messages about themselves in the search-terms dialog', async () => {
    const { page, context, errors } = await signedIn({ role: 'product+gd' })
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    const dialog = page.locator('dialog.terms-dialog')
    const input = dialog.getByPlaceholder('Enter search term')
    await input.fill('<b>bold</b>')
    await input.press('Enter')
    await dialog.getByRole('alert').getByText('Terms are plain words; "<" and ">" are only for prices like <$15: remove the tags from "<b>bold</b>"').waitFor()
    expect(await dialog.getByRole('alert').textContent()).not.toContain('per-unit')
    await input.fill('-airsoft')
    await input.press('Enter')
    await dialog.getByRole('alert').getByText('A term needs at least one word to look for; "-airsoft" only excludes').waitFor()
    expect(await dialog.getByRole('alert').textContent()).not.toContain('alternative')
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('the push line names the app (issue 30 §5)', () => {
  test('with unread matches in the tab title, Notification Settings still says "even when Dibs is closed"', async () => {
    const user = await createUserWithSession(world.server.deps, { role: 'product+gd' })
    for (const n of [1, 2])
      world.server.deps.sqlite
        .query(
          "INSERT INTO matches (user_id, category, matched_terms, post_title, post_url, source, created_at, is_new) VALUES (?, 'wts', '[\"rmr\"]', ?, 'https://www.reddit.com/r/x/comments/p/x/', 'live', ?, 1)",
        )
        .run(user.userId, `[WTS] RMR ${n}`, Date.now() - n * 1000)
    const made = await newPage(world.browser)
    await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
    const { page, context, errors } = made
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.waitForFunction(() => document.title.startsWith('(2) ')) // the unread count is in the tab title
    await page.locator('.settings-menu > summary').click()
    await page.locator('.settings-menu').getByText('Notification Settings', { exact: true }).click()
    const dialog = page.getByTestId('notification-settings')
    await dialog.getByRole('heading', { name: 'Notification Settings' }).waitFor()
    await dialog.getByText('Alerts pop up on this device even when Dibs is closed.').waitFor()
    expect(await dialog.getByText('even when (2)', { exact: false }).count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })
})
