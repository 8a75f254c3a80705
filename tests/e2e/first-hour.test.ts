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
