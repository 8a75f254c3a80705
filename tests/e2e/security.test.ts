// Issue 11 item 5 in Chromium: the UI, the socket, the service worker and the API reference work
// under the Content-Security-Policy with no violation, and the policy is really enforced.
import { describe, expect, test } from 'bun:test'
import { createUserWithSession } from '../helpers'
import { useServerAndBrowser, newPage } from './browser'

describe('the app under its Content-Security-Policy', () => {
  const world = useServerAndBrowser()

  test('landing, sign-in, dashboard, settings, the live socket and the service worker: no violation', async () => {
    const { page, errors, context } = await newPage(world.browser)
    await createUserWithSession(world.server.deps, { email: 'csp@example.com', password: 'csp-password-1' })
    await page.goto(world.server.url + '/')
    await page.getByText('Start Free Trial').first().waitFor()
    await page.goto(world.server.url + '/login')
    await page.getByLabel('Email').fill('csp@example.com')
    await page.getByLabel('Password').fill('csp-password-1')
    await page
      .getByRole('button', { name: /sign in|log in/i })
      .first()
      .click()
    await page.waitForURL(/\/dashboard/)
    // the socket connected (hello received) under connect-src
    await page.waitForFunction(() => document.body.innerText.length > 0)
    const sw = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.register('/sw.js')
      await navigator.serviceWorker.ready
      return reg.active?.scriptURL ?? reg.installing?.scriptURL ?? reg.waiting?.scriptURL ?? null
    })
    expect(sw).toContain('/sw.js')
    await page.goto(world.server.url + '/settings')
    await page.waitForLoadState('networkidle')
    await page.goto(world.server.url + '/api/docs')
    await page.getByText('/api/auth/login').first().waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  test('the policy is enforced: an injected inline script is refused and reported', async () => {
    const { page, errors, context } = await newPage(world.browser)
    await page.goto(world.server.url + '/login')
    await page.getByLabel('Email').waitFor()
    const ran = await page.evaluate(async () => {
      const s = document.createElement('script')
      s.textContent = 'window.__injected = true'
      document.body.appendChild(s)
      await new Promise((r) => setTimeout(r, 100))
      return (window as unknown as { __injected?: boolean }).__injected === true
    })
    expect(ran).toBe(false)
    await page.waitForTimeout(100)
    expect(errors.some((e) => e.includes('script-src'))).toBe(true)
    // and framing is refused by header
    const r = await page.request.get(world.server.url + '/')
    expect(r.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    await context.close()
  })
})
