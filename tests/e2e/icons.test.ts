// Icons are SVG, not emoji (issue 30 §5): without an emoji font (this machine has none) 🔒, 🔔 or
// ☀ render as empty boxes. No text on the user pages, their dialogs, or the admin pages is an emoji
// (Unicode Extended_Pictographic); the icons that replaced them are there.
import { expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SESSION_COOKIE } from '../../src/auth/session'
import { addTerm } from '../../src/terms/service'
import { adminMenu } from '../../ui/routes'
import { createUserWithSession } from '../helpers'
import { newPage, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

/** Every text node and every accessible-name attribute of the page holding an emoji, with the emoji. */
const emoji = (page: Page, where: string) =>
  page.evaluate((w) => {
    const found: string[] = []
    const re = /\p{Extended_Pictographic}/gu
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      for (const m of n.textContent?.match(re) ?? []) found.push(`${w}: ${m} in "${n.textContent?.trim().slice(0, 40)}"`)
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]'))
      for (const a of ['title', 'aria-label', 'placeholder'])
        for (const m of el.getAttribute(a)?.match(re) ?? []) found.push(`${w}: ${m} in ${a}="${el.getAttribute(a)}"`)
    return found
  }, where)

async function signedIn(role: string) {
  const user = await createUserWithSession(world.server.deps, { role })
  const made = await newPage(world.browser, { viewport: { width: 1280, height: 900 } })
  await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
  return { ...made, userId: user.userId }
}

test('user pages and dialogs: no emoji; the padlock, bell, pause and theme icons are SVG', async () => {
  const deps = world.server.deps
  // GAFS only: the GUNDEALS tab is locked (a padlock)
  const { page, context, errors, userId } = await signedIn('product')
  await addTerm(deps, userId, { role: 'product', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'holosun')
  const found: string[] = []
  for (const theme of ['dark', 'light'] as const) {
    await context.addInitScript((t) => localStorage.setItem('ui-theme', t), theme)
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByRole('button', { name: 'Search WTS Posts' }).waitFor()
    expect(await page.getByTestId('tab-gd').first().locator('svg.icon').count()).toBe(1)
    expect(await page.getByTestId('theme-toggle').locator('svg.icon').count()).toBe(1)
    found.push(...(await emoji(page, `${theme} dashboard`)))
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    const chip = page.getByTestId('term-chip').first()
    await chip.waitFor()
    expect(await chip.getByRole('button', { name: 'Alert settings for holosun' }).locator('svg.icon').count()).toBe(1)
    expect(await chip.getByRole('button', { name: 'Pause holosun' }).locator('svg.icon').count()).toBe(1)
    found.push(...(await emoji(page, `${theme} search terms`)))
    await page.keyboard.press('Escape')
    for (const path of ['/archive', '/settings/account', '/unsubscribe?status=success']) {
      await page.goto(world.server.url + path)
      await page.locator('h1').first().waitFor()
      found.push(...(await emoji(page, `${theme} ${path}`)))
    }
  }
  expect(found).toEqual([])
  expect(errors).toEqual([])
  await context.close()
})

test('admin pages: no emoji', async () => {
  const { page, context, errors } = await signedIn('admin')
  const found: string[] = []
  for (const { label, path } of adminMenu(world.server.deps.config.productSlug)) {
    await page.goto(world.server.url + path)
    await page.locator('main h1').first().waitFor()
    await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 10_000 }).catch(() => {})
    found.push(...(await emoji(page, label)))
  }
  expect(found).toEqual([])
  expect(errors).toEqual([])
  await context.close()
})
