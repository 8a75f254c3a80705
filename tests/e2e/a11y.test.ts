// Accessibility in Chromium (issue 12 items 1, 4, 18, 19): axe-core over every page and dialog in
// both themes at 1280 and 390 px; dialogs modal for the keyboard; toasts above dialogs; contrast
// and layout of the phone-sized views.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import type { AccessState } from '../../src/access/rules'
import { addTerm } from '../../src/terms/service'
import { archiveMatch } from '../../src/matches/service'
import { axeFindings, type AxeFinding } from './axe'
import { startWorld, type World } from './journey'

const ACTIVE: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const
const THEMES = ['light', 'dark'] as const

let world: World
type Visitor = Awaited<ReturnType<World['visitor']>>
type Member = Awaited<ReturnType<World['subscriber']>>
/** axe runs in contexts that bypass the CSP (it injects a script); the keyboard and layout tests
 * run under the CSP, and their page errors and CSP violations fail the last test. */
let axeVisitor: Visitor
let axeMember: Member
let visitor: Visitor
let member: Member
const tally: Record<string, number> = {}

beforeAll(async () => {
  world = await startWorld()
  // Posts for the live feed (two pages, so the pagination shows) and matches for the subscriber.
  const now = Math.floor(Date.now() / 1000)
  for (let i = 0; i < 12; i++)
    world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title: `[WTS] Holosun 507c number ${i} - $250`, author: 'seller', created_utc: now - 600 + i })
  axeVisitor = await world.visitor({ bypassCSP: true, reducedMotion: 'reduce' })
  axeMember = await world.subscriber({ bypassCSP: true, reducedMotion: 'reduce' })
  visitor = await world.visitor()
  member = await world.subscriber()
  for (const { userId } of [axeMember, member]) {
    await addTerm(world.server.deps, userId, ACTIVE, 'wts', 'holosun')
    await addTerm(world.server.deps, userId, ACTIVE, 'wts', 'trijicon rmr type 2 with a very long description that must wrap inside the sheet')
    await addTerm(world.server.deps, userId, ACTIVE, 'wtb', 'aimpoint')
    await addTerm(world.server.deps, userId, ACTIVE, 'gd', 'ammo')
  }
  world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title: '[WTB] Aimpoint Micro T-2', author: 'buyer', created_utc: now - 30 })
  world.reddit.publish({ subreddit: 'gundeals', title: '[Ammo] 9mm 1000 rounds - $249', author: 'dealer', created_utc: now - 20 })
  await world.scan()
  const first = world.server.deps.sqlite
    .query<{ id: number }, [number]>("SELECT id FROM matches WHERE user_id = ? AND category = 'wts' ORDER BY id LIMIT 1")
    .get(axeMember.userId)!
  await archiveMatch(world.server.deps, axeMember.userId, first.id)
})
afterAll(async () => {
  console.log(`axe findings by rule: ${JSON.stringify(tally)}`)
  await world?.stop()
})

/** Client-side navigation within the signed-in app (no reload, so the dashboard's start screen
 * shows only once); a full load when the page is not in the app yet. */
async function go(page: Page, path: string) {
  if (!/\/(dashboard|archive|settings)/.test(page.url())) return void (await page.goto(world.server.url + path))
  await page.evaluate((p) => {
    history.pushState(null, '', p)
    dispatchEvent(new PopStateEvent('popstate'))
  }, path)
}

/**
 * axe on the state in both themes: across both widths, the dark theme at 1280 px and the light one
 * at 390 px (each theme and each width once: every axe run costs CI time); a state that exists at
 * one width only gets both themes there. Findings as 'state width theme rule: nodes'.
 */
async function sweep(page: Page, state: string, widths: readonly { width: number; height: number }[] = WIDTHS): Promise<string[]> {
  const out: string[] = []
  for (const [i, size] of widths.entries()) {
    await page.setViewportSize(size)
    for (const theme of widths.length > 1 ? [i === 0 ? 'dark' : 'light'] : THEMES) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      const found: AxeFinding[] = await axeFindings(page)
      for (const f of found) {
        tally[f.rule] = (tally[f.rule] ?? 0) + f.nodes.length
        out.push(`${state} ${size.width}px ${theme} ${f.rule} (${f.impact}): ${f.nodes.join(' | ')}`)
      }
    }
  }
  return out
}

const PUBLIC: [string, string, string][] = [
  ['landing', '/', 'Live updates enabled'],
  ['login', '/login', 'Sign in with Email'],
  ['signup', '/signup', 'Create account'],
  ['forgot password', '/forgot-password', 'We will email you a link to set a new password.'],
  ['reset password', '/reset-password?token=abc', 'Choose a new password of at least 8 characters.'],
  ['reset password without a token', '/reset-password', 'This password reset link is invalid or has expired.'],
  ['check email', '/check-email', 'Confirm Your Email'],
  ['email confirmed', '/email-confirmation?status=success', 'Please sign in to continue.'],
  ['confirmation link expired', '/email-confirmation?status=expired', 'Link Expired'],
  ['confirmation link invalid', '/email-confirmation?status=invalid', 'Invalid Link'],
  ['unsubscribed', '/unsubscribe?status=success', "You've been unsubscribed"],
  ['unsubscribe failed', '/unsubscribe?status=error&code=TOKEN_INVALID', 'This unsubscribe link is invalid or has expired'],
  ['not found', '/no-such-page', 'Page not found'],
]

describe('axe-core: no critical or serious violations, no skipped heading level', () => {
  for (const [state, path, ready] of PUBLIC)
    test(state, async () => {
      const { page } = axeVisitor
      await page.setViewportSize(WIDTHS[0])
      await page.goto(world.server.url + path)
      await page.getByText(ready, { exact: false }).first().waitFor()
      expect(await sweep(page, state)).toEqual([])
    })

  test('landing page, second feed page', async () => {
    const { page } = axeVisitor
    await page.setViewportSize(WIDTHS[0])
    await page.goto(world.server.url + '/')
    await page.getByText('Live updates enabled').waitFor()
    await page.getByRole('button', { name: 'Page 2' }).click()
    await page.getByText('[WTS] Holosun 507c number 0 - $250').waitFor()
    expect(await sweep(page, 'landing page 2')).toEqual([])
  })

  const SIGNED_IN: [string, string, (p: Page) => Promise<unknown>][] = [
    ['dashboard WTS', '/dashboard/gafs/wts', (p) => p.getByTestId('match-card').first().waitFor()],
    ['dashboard WTB', '/dashboard/gafs/wtb', (p) => p.getByTestId('match-card').first().waitFor()],
    ['dashboard Gundeals', '/dashboard/gundeals', (p) => p.getByTestId('match-card').first().waitFor()],
    ['archive', '/archive', (p) => p.getByTestId('match-card').first().waitFor()],
    ['settings: subscription', '/settings/subscription', (p) => p.getByRole('button', { name: 'Manage Subscription' }).waitFor()],
    ['settings: account', '/settings/account', (p) => p.getByRole('button', { name: 'Delete Account' }).waitFor()],
  ]
  for (const [state, path, ready] of SIGNED_IN)
    test(state, async () => {
      const { page } = axeMember
      await page.setViewportSize(WIDTHS[0])
      await go(page, path)
      await ready(page)
      expect(await sweep(page, state)).toEqual([])
    })

  /** Opens a dialog from the desktop SETTINGS menu on the WTS page. */
  async function fromSettingsMenu(page: Page, item: string) {
    await page.setViewportSize(WIDTHS[0])
    await go(page, '/dashboard/gafs/wts')
    await page.getByTestId('match-card').first().waitFor()
    await page.locator('.settings-menu > summary').click()
    await page.locator('.settings-menu').getByText(item, { exact: true }).click()
  }

  const DIALOGS: [string, string, string][] = [
    ['Profile', 'Profile', 'Email cannot be changed'],
    ['Notification Settings', 'Notification Settings', 'Email notifications'],
    ['Help & FAQ', 'Help', 'Contact Us'],
    // an active subscriber's modal: role badge and details, no plan grid (spec §4)
    ['Subscription (upgrade dialog)', 'Subscription', 'Active'],
  ]
  for (const [state, item, ready] of DIALOGS)
    test(`dialog: ${state}`, async () => {
      const { page } = axeMember
      await fromSettingsMenu(page, item)
      await page.locator('dialog').getByText(ready).first().waitFor()
      const found = await sweep(page, state)
      await page.locator('dialog [rel=prev]').click()
      await page.locator('dialog').getByText(ready).first().waitFor({ state: 'detached' })
      expect(found).toEqual([])
    })

  test('dialog: search terms, then its Clear All confirmation', async () => {
    const { page } = axeMember
    await page.setViewportSize(WIDTHS[0])
    await go(page, '/dashboard/gafs/wts')
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    await page.locator('dialog.terms-dialog .chip').first().waitFor()
    const found = await sweep(page, 'search terms')
    await page.getByRole('button', { name: 'Clear All' }).click()
    await page.getByText('Clear all search terms?').waitFor()
    found.push(...(await sweep(page, 'clear all confirmation')))
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'Done' }).click()
    expect(found).toEqual([])
  })

  test('the mobile menu sheet', async () => {
    const { page } = axeMember
    await page.setViewportSize(WIDTHS[1])
    await go(page, '/dashboard/gafs/wts')
    await page.getByTestId('bottom-tabs').getByRole('button', { name: 'MENU' }).click()
    await page.locator('dialog.mobile-menu').getByText('Notification Settings').waitFor()
    const found = await sweep(page, 'mobile menu', [WIDTHS[1]])
    await page.locator('dialog.mobile-menu [rel=prev]').click()
    expect(found).toEqual([])
  })

  test('the access overlay of an expired trial', async () => {
    const expired = await world.subscriber({ role: 'app_trial', bypassCSP: true, reducedMotion: 'reduce' })
    world.server.deps.sqlite
      .query('UPDATE user_access SET subscription_status = ?, access_expires_at = ? WHERE user_id = ?')
      .run('trialing', Date.now() - 60_000, expired.userId)
    await expired.page.goto(world.server.url + '/dashboard/gafs/wts')
    await expired.page.getByTestId('access-overlay').waitFor()
    expect(await sweep(expired.page, 'access overlay')).toEqual([])
    await expired.context.close()
  })
})

/** Whether the focused element is inside the topmost open dialog matching `selector`. */
const focusInside = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const dialogs = [...document.querySelectorAll<HTMLDialogElement>(sel)]
    const top = dialogs.at(-1)
    return !!top && top.contains(document.activeElement)
  }, selector)

/** A short name of the focused element, to say where focus went. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    return el ? `${el.tagName.toLowerCase()}${el.textContent?.trim() ? ` "${el.textContent.trim().slice(0, 30)}"` : ''}` : 'none'
  })

/** Tab 12 times, then Shift+Tab 12 times: focus never leaves the dialog. */
async function expectTrapped(page: Page, selector: string) {
  expect(await focusInside(page, selector)).toBe(true)
  for (const key of ['Tab', 'Shift+Tab'])
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(key)
      if (!(await focusInside(page, selector))) throw new Error(`${key} #${i + 1} left ${selector} for ${await focused(page)}`)
    }
}

/** Back on the WTS page at 1280 px; a reload only when a dialog was left open (a failed test). */
async function freshDashboard({ page }: { page: Page } = member) {
  await page.setViewportSize(WIDTHS[0])
  if ((await page.locator('dialog[open]').count()) > 0 || !page.url().includes('/dashboard/gafs/wts')) await page.goto(world.server.url + '/dashboard/gafs/wts')
  await page.getByTestId('match-card').first().waitFor()
}

describe('dialogs are modal for the keyboard', () => {
  beforeEach(() => freshDashboard())

  test('the search-terms dialog: focus moves in, Tab stays inside, Escape, Done and × return focus to its button', async () => {
    const { page } = member
    const opener = page.getByRole('button', { name: 'Search WTS Posts' })
    const dialog = page.locator('dialog.terms-dialog')
    for (const close of ['Escape', 'Done', '×', 'Escape after a click on its text']) {
      await opener.focus()
      await page.keyboard.press('Enter')
      await dialog.locator('.chip').first().waitFor()
      await expectTrapped(page, 'dialog.terms-dialog')
      if (close === 'Escape') await page.keyboard.press('Escape')
      else if (close === 'Done') await dialog.getByRole('button', { name: 'Done' }).click()
      else if (close === '×') await dialog.locator('[rel=prev]').click()
      else {
        await dialog.getByTestId('term-counter').click()
        await page.keyboard.press('Escape')
      }
      await dialog.waitFor({ state: 'detached' })
      expect(`${close}: ${await focused(page)}`).toBe(`${close}: button "Search WTS Posts"`)
    }
  })

  test("Clear All's confirmation takes focus and keeps it; Escape closes only the confirmation", async () => {
    const { page } = member
    await page.getByRole('button', { name: 'Search WTS Posts' }).click()
    const clearAll = page.getByRole('button', { name: 'Clear All' })
    await page.locator('dialog.terms-dialog .chip').first().waitFor()
    await clearAll.focus()
    await page.keyboard.press('Enter')
    await page.getByText('Clear all search terms?').waitFor()
    await expectTrapped(page, 'dialog.confirm-dialog')
    await page.keyboard.press('Escape')
    await page.locator('dialog.confirm-dialog').waitFor({ state: 'detached' })
    expect(await page.locator('dialog.terms-dialog').isVisible()).toBe(true)
    expect(await focused(page)).toBe('button "Clear All"')
    await page.keyboard.press('Escape')
    await page.locator('dialog.terms-dialog').waitFor({ state: 'detached' })
  })

  for (const [item, title] of [
    ['Notification Settings', 'Notification Settings'],
    ['Profile', 'Profile'],
    ['Help', 'Help & FAQ'],
    ['Subscription', 'Subscription'],
  ])
    test(`${item} from the SETTINGS menu: focus moves in and stays; Escape returns it to SETTINGS`, async () => {
      const { page } = member
      await page.locator('.settings-menu > summary').click()
      await page.locator('.settings-menu').getByText(item, { exact: true }).click()
      const dialog = page.locator('dialog', { has: page.getByRole('heading', { name: title }) })
      await dialog.waitFor()
      await expectTrapped(page, 'dialog')
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      expect(await focused(page)).toBe('summary "SETTINGS"')
    })

  test('the desktop SETTINGS menu closes on Escape with focus back on its summary', async () => {
    const { page } = member
    const summary = page.locator('.settings-menu > summary')
    await summary.focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('a "Profile"')
    await page.keyboard.press('Escape')
    expect(await page.locator('.settings-menu').getAttribute('open')).toBeNull()
    expect(await focused(page)).toBe('summary "SETTINGS"')
  })

  test('the mobile menu sheet: focus moves in and stays; Escape returns it to MENU, and so does a dialog opened from it', async () => {
    const { page } = member
    await page.setViewportSize(WIDTHS[1])
    const menu = page.getByTestId('bottom-tabs').getByRole('button', { name: 'MENU' })
    const sheet = page.locator('dialog.mobile-menu')
    await menu.focus()
    await page.keyboard.press('Enter')
    await sheet.waitFor()
    await expectTrapped(page, 'dialog.mobile-menu')
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })
    expect(await focused(page)).toBe('button "MENU"')

    await menu.click()
    await sheet.getByText('Profile', { exact: true }).click()
    await page.getByText('Email cannot be changed').waitFor()
    await expectTrapped(page, 'dialog')
    await page.keyboard.press('Escape')
    await page.getByText('Email cannot be changed').waitFor({ state: 'detached' })
    expect(await focused(page)).toBe('button "MENU"')
    await page.setViewportSize(WIDTHS[0])
  })
})

describe('toasts show above every dialog and sheet', () => {
  beforeEach(() => freshDashboard(axeMember))
  /** The toast with this title is what the pointer hits at its centre, and its × closes it. */
  async function expectOnTop(page: Page, title: string) {
    const toast = page.locator('li.toast', { hasText: title }).first()
    await toast.waitFor()
    const hit = await toast.evaluate((el) => {
      const r = el.getBoundingClientRect()
      const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
      return at && el.contains(at) ? 'toast' : (at?.outerHTML.slice(0, 80) ?? 'nothing')
    })
    expect(`${title}: ${hit}`).toBe(`${title}: toast`)
    // and readable, in both themes
    for (const theme of THEMES) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme)
      expect((await axeFindings(page, 'li.toast')).map((f) => `${theme}: ${f.nodes.join(' | ')}`)).toEqual([])
    }
    await toast.getByRole('button', { name: 'Close' }).click({ timeout: 15_000 })
    await toast.waitFor({ state: 'detached' })
  }

  for (const size of WIDTHS)
    test(`${size.width} px: 'Term already exists' over the search-terms dialog, 'Missing Information' over Help`, async () => {
      const { page } = axeMember
      await page.setViewportSize(size)
      await go(page, '/dashboard/gafs/wtb')
      await page.getByRole('button', { name: 'Search WTB Posts' }).click()
      const dialog = page.locator('dialog.terms-dialog')
      await dialog.locator('.chip').first().waitFor()
      await dialog.getByPlaceholder('Enter search term').fill('aimpoint')
      await dialog.getByPlaceholder('Enter search term').press('Enter')
      await expectOnTop(page, 'Term already exists')
      await dialog.getByRole('button', { name: 'Done' }).click()

      // Help is in the desktop SETTINGS menu only.
      await page.setViewportSize(WIDTHS[0])
      await page.locator('.settings-menu > summary').click()
      await page.locator('.settings-menu').getByText('Help', { exact: true }).click()
      await page.setViewportSize(size)
      await page.getByRole('button', { name: 'Send Message' }).click()
      await expectOnTop(page, 'Missing Information')
      await page.keyboard.press('Escape')
      await page.setViewportSize(WIDTHS[0])
    })
})

describe('the phone layout, 390 px', () => {
  beforeEach(() => freshDashboard())
  test('long term chips wrap inside the bottom sheet', async () => {
    const { page } = member
    await addTerm(world.server.deps, member.userId, ACTIVE, 'gd', 'supercalifragilisticexpialidociousandthensomemorecharactersthatdonotbreak')
    await page.setViewportSize(WIDTHS[1])
    await go(page, '/dashboard/gundeals')
    await page.getByRole('button', { name: 'Search Gundeals Posts' }).click()
    const sheet = page.locator('dialog.terms-dialog > article')
    await sheet.locator('.chip', { hasText: 'supercalifragilistic' }).waitFor()
    const overflow = await sheet.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      chips: [...el.querySelectorAll('.chip')].filter((c) => c.getBoundingClientRect().right > el.getBoundingClientRect().right).length,
    }))
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client)
    expect(overflow.chips).toBe(0)
    await page.keyboard.press('Escape')
    await page.setViewportSize(WIDTHS[0])
  })

  test('the landing header keeps each action on one line, signed out and signed in', async () => {
    for (const who of [visitor, member]) {
      const { page } = who
      await page.setViewportSize(WIDTHS[1])
      await page.goto(world.server.url + '/')
      await page.locator('header.topbar nav').first().waitFor()
      await page.getByText('Live updates enabled').waitFor()
      const wrapped = await page.evaluate(() => {
        const header = document.querySelector('header.topbar')!
        const lines = (el: Element) => {
          const range = document.createRange()
          range.selectNodeContents(el)
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size
        }
        return [...header.querySelectorAll('a, button, span[aria-busy]')]
          .filter((el) => (el as HTMLElement).offsetParent !== null && lines(el) > 1)
          .map((el) => el.textContent)
          .concat(header.scrollWidth > header.clientWidth ? ['(header overflows)'] : [])
      })
      expect(wrapped).toEqual([])
    }
    await visitor.page.setViewportSize(WIDTHS[0])
    await member.page.setViewportSize(WIDTHS[0])
  })
})

test('no page errors or CSP violations in the keyboard and layout tests', () => {
  expect([...visitor.errors, ...member.errors]).toEqual([])
})
