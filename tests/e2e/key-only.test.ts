// In Chromium, on an installation without a Reddit key (issue 24 §5, §6): a flair:/trades>= term is saved and the
// search-terms dialog says why it cannot match here; the 'Wait before email and push' setting says re-checks come
// only from later polls of the feed; a match card shows the seller's location from the title. Axe-clean, light and dark.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { KEY_ONLY_TEXTS } from '../../src/forums/key-only'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession } from '../helpers'
import { axeFindings } from './axe'
import { newPage, screenshot, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()
const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }

async function signedIn(theme: 'light' | 'dark') {
  const u = await createUserWithSession(world.server.deps, { role: 'product+gd', subscriptionStatus: 'active' })
  const { context, page, errors } = await newPage(world.browser, { bypassCSP: true })
  const [name, value] = u.cookie.split('=') as [string, string]
  await context.addCookies([{ name, value, url: world.server.url }])
  await context.addInitScript((t) => localStorage.setItem('ui-theme', t), theme)
  return { context, page, errors, userId: u.userId }
}

async function noFindings(page: Page, within: string) {
  expect(await axeFindings(page, within)).toEqual([])
}

describe('without a Reddit key', () => {
  for (const theme of ['light', 'dark'] as const)
    test(`a flair: term is saved with a note saying why it cannot match here (${theme})`, async () => {
      const { context, page, errors } = await signedIn(theme)
      await page.goto(world.server.url + '/dashboard/gafs/wts')
      await page.getByRole('heading', { name: 'WTS Matches' }).waitFor()
      await page.getByRole('button', { name: 'Search WTS Posts' }).click()
      const dialog = page.locator('dialog.terms-dialog')
      await dialog.getByPlaceholder('Enter search term').fill('rmr flair:wts')
      await dialog.getByPlaceholder('Enter search term').press('Enter')
      await dialog.locator('.chip', { hasText: 'rmr flair:wts' }).waitFor()
      const note = dialog.getByTestId('term-notes')
      await note.waitFor()
      expect(await note.textContent()).toContain(`rmr flair:wts: ${KEY_ONLY_TEXTS.flair}`)
      // the chip is described by its note
      const chip = dialog.getByRole('button', { name: 'Edit rmr flair:wts' })
      const describedBy = (await chip.getAttribute('aria-describedby'))!
      expect(await page.locator(`#${describedBy}`).textContent()).toContain('cannot match on this installation')
      // a plain term has no note
      await dialog.getByPlaceholder('Enter search term').fill('aimpoint')
      await dialog.getByPlaceholder('Enter search term').press('Enter')
      await dialog.locator('.chip', { hasText: 'aimpoint' }).waitFor()
      expect(await dialog.getByTestId('term-notes').locator('li').count()).toBe(1)
      await screenshot(page, `key-only-term-note-${theme}`)
      // the dialog's own content (toasts render into the dialog too; their list markup is the toaster's business)
      await noFindings(page, 'dialog.terms-dialog > article')
      expect(errors).toEqual([])
      await context.close()
    })

  test("the 'Wait before email and push' setting says re-checks come only from later polls of the feed", async () => {
    const { context, page, errors } = await signedIn('light')
    await page.goto(world.server.url + '/settings/account#notification-settings')
    const dialog = page.getByTestId('notification-settings')
    const note = dialog.getByTestId('hold-recheck-note')
    await note.waitFor()
    expect(await note.textContent()).toBe(KEY_ONLY_TEXTS.hold)
    expect(await dialog.locator('input[name="hold-seconds"]').getAttribute('aria-describedby')).toBe('hold-seconds-means hold-recheck-note')
    await screenshot(page, 'key-only-hold-note')
    await noFindings(page, '[data-testid="hold-setting"]')
    expect(errors).toEqual([])
    await context.close()
  })

  for (const theme of ['light', 'dark'] as const)
    test(`a match card shows the seller's location from the title (${theme})`, async () => {
      const { context, page, errors, userId } = await signedIn(theme)
      const deps = world.server.deps
      await addTerm(deps, userId, FULL, 'wts', 'widget')
      const now = deps.now().getTime()
      const stored = await storePosts(deps, [forumPost(`[USA-TX] [H] Widget ${theme} [W] PayPal`, { now, ageMs: 1000 })])
      expect(stored[0]!.location).toBe('USA-TX')
      await matchPosts(deps, stored, 'live')
      await page.goto(world.server.url + '/dashboard/gafs/wts')
      const card = page.getByTestId('match-card').filter({ hasText: `Widget ${theme}` })
      const chip = card.getByTestId('location-chip')
      await chip.waitFor()
      expect(await chip.textContent()).toBe('Location: USA-TX')
      expect(await chip.isVisible()).toBe(true)
      await screenshot(page, `location-chip-${theme}`)
      await noFindings(page, '[data-testid="match-card"]')
      expect(errors).toEqual([])
      await context.close()
    })
})
