import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { startTestServer } from '../helpers'
import { launchBrowser, newPage, screenshot } from './browser'

describe('the UI shell in Chromium', () => {
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

  test('the landing page loads in the dark theme by default', async () => {
    const { page, errors, context } = await newPage(browser)
    await page.goto(server.url + '/')
    await page.getByText('Start Free Trial').first().waitFor()
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark')
    await screenshot(page, 'foundation-landing-dark')
    expect(errors).toEqual([])
    await context.close()
  })

  test('the theme toggle persists across a reload under the ui-theme key', async () => {
    const { page, context } = await newPage(browser)
    await page.goto(server.url + '/')
    await page.getByTestId('theme-toggle').click()
    expect(await page.getAttribute('html', 'data-theme')).toBe('light')
    expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('light')
    await page.reload()
    // applied before first paint by the inline script: check before React renders anything else
    expect(await page.getAttribute('html', 'data-theme')).toBe('light')
    await page.getByTestId('theme-toggle').click()
    await page.reload()
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark')
    await context.close()
  })

  test('an unknown path shows the not-found page with the spec texts, and logs the path', async () => {
    const { page, context } = await newPage(browser)
    const logs: string[] = []
    page.on('console', (m) => logs.push(m.text()))
    const res = await page.goto(server.url + '/no/such/page')
    expect(res?.status()).toBe(404)
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    expect(await page.getByText('404', { exact: true }).count()).toBe(1)
    expect(await page.getByTestId('missing-path').textContent()).toBe('/no/such/page')
    expect(logs.some((l) => l.includes('/no/such/page'))).toBe(true)
    await page.getByRole('button', { name: 'Reload App' }).waitFor()
    await page.getByText('Return Home').click()
    await page.waitForURL(server.url + '/')
    await context.close()
  })

  test('a page without a root element shows Application Error', async () => {
    const { page, context } = await newPage(browser)
    // Serve the real bundle but remove #root before the module runs.
    await page.route(server.url + '/', async (route) => {
      const res = await route.fetch()
      const html = (await res.text()).replace('<div id="root"></div>', '')
      await route.fulfill({ response: res, body: html })
    })
    await page.goto(server.url + '/')
    await page.getByRole('heading', { name: 'Application Error' }).waitFor()
    await context.close()
  })
})
