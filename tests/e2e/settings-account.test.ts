// Settings → Account in Chromium (issue 12 items 8 and 13, issue 11 item 3): the theme as
// light/dark/system, following the device live; the signed-in devices with 'Sign out' each — the
// other tab signs out at once, through its socket — and 'Sign out everywhere'.
import { expect, test } from 'bun:test'
import { createSession, SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession } from '../helpers'
import { useServerAndBrowser, newPage } from './browser'
import { deviceName } from '../../ui/pages/settings/DevicesSection'

const world = useServerAndBrowser()

test('deviceName reads common user agents', () => {
  expect(deviceName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36')).toBe('Chrome on Linux')
  expect(
    deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'),
  ).toBe('Safari on iPhone')
  expect(deviceName(null)).toBe('Unknown device')
})

test("'System' theme follows the device, live", async () => {
  const u = await createUserWithSession(world.server.deps, { email: 'theme@example.com' })
  const { page, context, errors } = await newPage(world.browser, { colorScheme: 'dark' })
  await context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: world.server.url }])
  await page.goto(world.server.url + '/settings/account')
  await page.getByRole('radio', { name: 'Light' }).check()
  expect(await page.getAttribute('html', 'data-theme')).toBe('light')
  await page.getByRole('radio', { name: 'System' }).check()
  expect(await page.getAttribute('html', 'data-theme')).toBe('dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'light')
  await page.reload()
  expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('system')
  expect(await page.getAttribute('html', 'data-theme')).toBe('light')
  expect(errors).toEqual([])
  await context.close()
})

test("signing out another device from the list signs that tab out at once; 'Sign out everywhere' ends them all", async () => {
  const u = await createUserWithSession(world.server.deps, { email: 'devices@example.com' })
  const other = await createSession(world.server.deps, u.userId, {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
    ip: '203.0.113.7',
  })
  const phone = await newPage(world.browser)
  await phone.context.addCookies([{ name: SESSION_COOKIE, value: other.token, url: world.server.url }])
  await phone.page.goto(world.server.url + '/archive')
  await phone.page.getByRole('heading', { name: 'Archive', exact: true }).waitFor()

  const desk = await newPage(world.browser)
  await desk.context.addCookies([{ name: SESSION_COOKIE, value: u.token, url: world.server.url }])
  await desk.page.goto(world.server.url + '/settings/account')
  await desk.page.getByRole('heading', { name: 'Signed-in devices' }).waitFor()
  const rows = desk.page.getByTestId('device')
  await rows.nth(1).waitFor()
  expect(await rows.count()).toBe(2)
  const phoneRow = rows.filter({ hasText: 'Safari on iPhone' })
  await phoneRow.getByText('203.0.113.7', { exact: false }).waitFor()
  await phoneRow.getByRole('button', { name: 'Sign out' }).click()
  await desk.page.getByText('Safari on iPhone was signed out.').waitFor()
  // the phone's tab is told by its socket and lands on the login page
  await phone.page.waitForURL(/\/login/, { timeout: 10_000 })
  await rows.nth(1).waitFor({ state: 'detached' }) // the list reloads after the toast
  expect(await rows.count()).toBe(1)

  await desk.page.getByRole('button', { name: 'Sign out everywhere' }).click()
  await desk.page.waitForURL(/\/login/)
  expect((await fetch(world.server.url + '/api/me', { headers: { cookie: u.cookie } })).status).toBe(401)
  expect(desk.errors).toEqual([])
  expect(phone.errors).toEqual([])
  await desk.context.close()
  await phone.context.close()
})
