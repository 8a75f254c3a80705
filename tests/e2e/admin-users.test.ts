// Admin Users and Feedback pages in Chromium (issue 14 items 6, 13, 15): an admin finds a user,
// bans them from the account's dialog, and the user's open tab is signed out at once; the page
// works as cards at 390 px; an admin answers a contact message and the reply arrives over SMTP.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { submitContact } from '../../src/notify/contact'
import { outboxWorker, type OutboxWorker } from '../../src/outbox/worker'
import { channelStore } from '../../src/notify/channel-store'
import { createChannels } from '../../src/outbox/channels'
import { attachListeners } from '../../src/services'
import { createUserWithSession, startTestServer } from '../helpers'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { launchBrowser, newPage, screenshot } from './browser'
import { axeFindings } from './axe'

let smtp: FakeSmtp
let server: Awaited<ReturnType<typeof startTestServer>>
let worker: OutboxWorker
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

async function signedIn(token: string, viewport?: { width: number; height: number }) {
  const p = await newPage(browser, viewport ? { viewport } : {})
  await p.context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }])
  return p
}

test("an admin bans a user on the Users page and the user's open tab is signed out", async () => {
  const admin = await createUserWithSession(server.deps, { email: 'ops@example.com', role: 'admin', name: 'Ops' })
  const victim = await createUserWithSession(server.deps, { email: 'victim@example.com', name: 'Vic Tim' })
  await createUserWithSession(server.deps, { email: 'bystander@example.com' })

  const user = await signedIn(victim.token)
  await user.page.goto(server.url + '/archive')
  await user.page.getByRole('heading', { name: 'Archive', exact: true }).waitFor()

  const ops = await signedIn(admin.token)
  await ops.page.goto(server.url + '/admin/users')
  await ops.page.getByRole('heading', { name: 'Users', level: 1 }).waitFor()
  await ops.page.getByTestId('user-row').nth(2).waitFor()
  await screenshot(ops.page, 'admin-users')
  await ops.page.getByRole('searchbox', { name: 'Search' }).fill('vic tim')
  await ops.page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1)

  await ops.page.getByRole('button', { name: 'Manage victim@example.com' }).click()
  const detail = ops.page.getByRole('dialog', { name: 'victim@example.com' })
  await detail.getByRole('heading', { name: 'Search terms and matches' }).waitFor()
  await screenshot(ops.page, 'admin-user-detail')
  await detail.getByRole('button', { name: 'Ban', exact: true }).click()
  const confirm = ops.page.getByRole('dialog', { name: 'Ban victim@example.com?' })
  // keyboard: focus starts on Cancel; Tab reaches Ban, Enter confirms
  await ops.page.keyboard.press('Tab')
  await ops.page.keyboard.press('Enter')
  await ops.page.getByText('victim@example.com is banned and signed out.').waitFor()
  expect(await confirm.count()).toBe(0)
  await detail.getByRole('button', { name: 'Unban' }).waitFor()
  await detail.getByText('Banned', { exact: true }).first().waitFor()

  // the user's tab hears it on its socket and lands on the sign-in page
  await user.page.waitForURL(/\/login/, { timeout: 10_000 })
  expect((await fetch(server.url + '/api/me', { headers: { cookie: victim.cookie } })).status).toBe(401)
  expect(ops.errors).toEqual([])
  expect(user.errors).toEqual([])
  await ops.context.close()
  await user.context.close()
})

test('at 390 px the accounts are cards and none of the page content is wider than the screen', async () => {
  const admin = await createUserWithSession(server.deps, { email: 'narrow-admin@example.com', role: 'admin' })
  const phone = await signedIn(admin.token, { width: 390, height: 844 })
  await phone.page.goto(server.url + '/admin/users')
  await phone.page.getByTestId('user-row').first().waitFor()
  // (the section menu above is the admin frame's, ui/admin.css)
  const widest = await phone.page.evaluate(() =>
    Math.max(...[...document.querySelectorAll('.users-toolbar *, .users-table *, .users-paging *')].map((e) => e.getBoundingClientRect().right)),
  )
  expect(widest).toBeLessThanOrEqual(390)
  expect(await phone.page.locator('.users-table thead').isVisible()).toBe(false)
  await screenshot(phone.page, 'admin-users-390')
  await phone.page.getByRole('button', { name: 'Manage narrow-admin@example.com' }).click()
  await phone.page.getByRole('heading', { name: 'Actions' }).waitFor()
  // no ban or delete for one's own account
  expect(await phone.page.getByRole('button', { name: 'Ban', exact: true }).count()).toBe(0)
  expect(await phone.page.getByRole('button', { name: 'Delete account' }).count()).toBe(0)
  expect(phone.errors).toEqual([])
  await phone.context.close()
})

test('an admin replies to a feedback message from the page; the sender receives it by SMTP', async () => {
  const admin = await createUserWithSession(server.deps, { email: 'helpdesk@example.com', role: 'admin' })
  const sender = await createUserWithSession(server.deps, { email: 'asker@example.com' })
  await submitContact(server.deps, { userId: sender.userId, email: sender.email }, { subject: 'Alerts stopped', message: 'No emails since Monday.' })
  await worker.tick()
  const before = smtp.messages.length

  const ops = await signedIn(admin.token)
  await ops.page.goto(server.url + '/admin/feedback')
  await ops.page.getByRole('heading', { name: 'Feedback', level: 1 }).waitFor()
  const item = ops.page.getByRole('article', { name: 'Alerts stopped' })
  await item.getByText('No emails since Monday.').waitFor()
  await screenshot(ops.page, 'admin-feedback')
  await item.getByRole('button', { name: 'Reply' }).click()
  await item.getByRole('textbox', { name: 'Reply to asker@example.com' }).fill('Thanks! Your digest was paused; it is back on.')
  await item.getByRole('button', { name: 'Send reply' }).click()
  await ops.page.getByText('Your reply to asker@example.com is on its way.').waitFor()

  const mails = await smtp.waitFor(before + 1)
  const reply = mails.slice(before).find((m) => m.to.includes('asker@example.com'))!
  expect(reply.subject).toBe('Re: Alerts stopped')
  expect(reply.text).toContain('Thanks! Your digest was paused; it is back on.')
  expect(reply.text).toContain('No emails since Monday.')

  // replying marked it read: it left the Unread list and shows under Read with the reply
  await ops.page.getByRole('button', { name: /^Read \(1\)$/ }).click()
  await ops.page.getByRole('article', { name: 'Alerts stopped' }).getByText('Thanks! Your digest was paused; it is back on.').waitFor()
  await ops.page.getByRole('button', { name: 'Mark resolved' }).click()
  await ops.page.getByRole('button', { name: /^Resolved \(1\)$/ }).waitFor()
  expect(ops.errors).toEqual([])
  await ops.context.close()
})

test('Users (with an account open), Feedback and Revenue pass axe in the dark theme at 1280 px and the light one at 390 px', async () => {
  const admin = await createUserWithSession(server.deps, { email: 'axe-admin@example.com', role: 'admin' })
  await createUserWithSession(server.deps, {
    email: 'axe-member@example.com',
    role: 'app_trial',
    subscriptionStatus: 'trialing',
    accessExpiresAt: new Date(Date.now() + 86_400_000),
  })
  await submitContact(server.deps, { userId: null, email: 'guest@example.com' }, { subject: 'Question', message: 'Is there an app?' })
  const p = await newPage(browser, { bypassCSP: true, reducedMotion: 'reduce' })
  await p.context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: server.url }])
  const found: string[] = []
  // The section menu is the admin frame's (ui/admin.css), checked with the frame.
  const check = async (label: string, within: string) => {
    // Each theme once, each at one of the two widths (CI time: every axe run costs a second or two).
    for (const [width, theme] of [
      [1280, 'dark'],
      [390, 'light'],
    ] as const) {
      await p.page.setViewportSize({ width, height: 900 })
      await p.page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      await p.page.waitForTimeout(400) // Pico's colour transitions
      for (const f of await axeFindings(p.page, { include: [[within]], exclude: [['.admin-sections']] } as never))
        found.push(`${label} ${width} ${theme} ${f.rule}: ${f.nodes.join(' | ')}`)
    }
  }
  await p.page.goto(server.url + '/admin/users')
  await p.page.getByTestId('user-row').first().waitFor()
  await check('users', 'main')
  await p.page.getByRole('button', { name: 'Manage axe-member@example.com' }).click()
  await p.page.getByRole('heading', { name: 'Actions' }).waitFor()
  await check('user detail', 'dialog')
  await p.page.goto(server.url + '/admin/feedback')
  await p.page.getByTestId('feedback-item').first().waitFor()
  await check('feedback', 'main')
  await p.page.goto(server.url + '/admin/revenue')
  await p.page.getByTestId('mrr').waitFor()
  await p.page.setViewportSize({ width: 1280, height: 900 })
  await screenshot(p.page, 'admin-revenue')
  await check('revenue', 'main')
  expect(found).toEqual([])
  expect(p.errors).toEqual([])
  await p.context.close()
})
