// The spec's two scan-frequency texts in the browser (issue 30 §5): the search-terms dialog's helper
// ('every 20 seconds') and Admin → Tools' 'Scan frequency by tier', each with Dibs' own cadence beside it.
import { expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession } from '../helpers'
import { newPage, useServerAndBrowser } from './browser'

const world = useServerAndBrowser()

async function signedIn(role: string) {
  const user = await createUserWithSession(world.server.deps, { role })
  const made = await newPage(world.browser, { viewport: { width: 1280, height: 900 } })
  await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: world.server.url }])
  return made
}

test("the search-terms dialog says 'every 20 seconds' and the cadence in force", async () => {
  const { page, context, errors } = await signedIn('product+gd')
  const config = await (await fetch(world.server.url + '/api/config')).json()
  expect(typeof config.scanIntervalSeconds).toBe('number')
  await page.goto(world.server.url + '/dashboard/gafs/wts')
  await page.getByRole('button', { name: 'Search WTS Posts' }).click()
  const helper = page.getByTestId('scan-frequency')
  await helper.waitFor()
  expect(await helper.textContent()).toContain('Scan frequency: every 20 seconds')
  expect(await helper.textContent()).toContain(`Dibs checks the forums every ${config.scanIntervalSeconds} s`)
  expect(errors).toEqual([])
  await context.close()
})

test("Admin → Tools shows 'Scan frequency by tier': pro 1 minute, paid 5, free 10, guest 15, and that Dibs does not scan by tier", async () => {
  const { page, context, errors } = await signedIn('admin')
  await page.goto(world.server.url + '/admin/tools')
  const tiers = page.getByTestId('scan-tiers')
  await tiers.getByRole('heading', { name: 'Scan frequency by tier' }).waitFor()
  expect(await tiers.locator('li').allTextContents()).toEqual(['Pro: 1 minute', 'Paid: 5 minutes', 'Free: 10 minutes', 'Guest: 15 minutes'])
  expect(await tiers.textContent()).toContain('Dibs does not scan by tier')
  expect(errors).toEqual([])
  await context.close()
})
