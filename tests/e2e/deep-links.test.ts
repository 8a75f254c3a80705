// Issue 12 item 5: an alert email's link opened while signed out comes back to the match after
// sign-in, scrolled to and flashed.
import { describe, expect, test } from 'bun:test'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { createUserWithSession } from '../helpers'
import { useServerAndBrowser, newPage } from './browser'
import { loginPathFor, safePath } from '../../ui/lib/return-to'

describe('safePath', () => {
  const cases: [string | null, string | null][] = [
    ['/dashboard/gafs/wts?match=12', '/dashboard/gafs/wts?match=12'],
    ['//evil.example/x', null],
    ['https://evil.example', null],
    ['/\\evil.example', null],
    ['/login?next=/x', null],
    ['javascript:alert(1)', null],
    [null, null],
  ]
  for (const [input, want] of cases) test(`${input} → ${want}`, () => expect(safePath(input)).toBe(want))
  test('loginPathFor skips the plain dashboard', () => {
    expect(loginPathFor({ pathname: '/dashboard', search: '' })).toBe('/login')
  })
})

describe('in Chromium', () => {
  const world = useServerAndBrowser()

  test('signed out → /login?next=… → signed in → back on the match, which is flashed', async () => {
    const u = await createUserWithSession(world.server.deps, { email: 'deep@example.com', password: 'deep-password-1' })
    await addTerm(world.server.deps, u.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null } as never, 'wts', 'aimpoint')
    const posts = Array.from({ length: 30 }, (_, i) => forumPost(`[WTS] Aimpoint item ${i} - $${300 + i}`, { ageMs: (30 - i) * 1000 }))
    await matchPosts(world.server.deps, await storePosts(world.server.deps, posts), 'live')
    const target = world.server.deps.sqlite.query<{ id: number }, []>("SELECT id FROM matches WHERE post_title LIKE '%item 2 -%'").get()!.id

    const { page, context, errors } = await newPage(world.browser)
    await page.goto(`${world.server.url}/dashboard/gafs/wts?match=${target}`)
    await page.waitForURL(/\/login\?next=/)
    await page.getByLabel('Email').fill('deep@example.com')
    await page.getByLabel('Password').fill('deep-password-1')
    await page
      .getByRole('button', { name: /sign in|log in/i })
      .first()
      .click()
    await page.waitForURL(new RegExp(`/dashboard/gafs/wts\\?match=${target}$`))
    const card = page.locator(`[data-match-id="${target}"]`)
    await card.waitFor()
    expect(await card.getAttribute('aria-current')).toBe('true') // flashed (it was beyond the first 20 shown)
    await page.waitForFunction((id) => {
      const r = document.querySelector(`[data-match-id="${id}"]`)!.getBoundingClientRect()
      return r.top >= 0 && r.bottom <= window.innerHeight
    }, target)
    expect(errors).toEqual([])
    await context.close()
  })
})
