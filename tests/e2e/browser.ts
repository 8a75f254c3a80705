// Debian's Chromium driven by playwright-core (browser downloads are not possible here).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, setDefaultTimeout } from 'bun:test'
import { startTestServer } from '../helpers'

export const ARTIFACTS = 'test-artifacts'

// A browser test is a journey of many steps, each waiting on Chromium and a real server; on a shared
// 2-core machine running the other suites beside it, a 10 s journey can take three times as long.
// The whole-test limit is a hang guard, not a speed target (speed lives in bench/): 90 s. Bun scopes
// setDefaultTimeout to the file that calls it, so scripts/test.sh gives the browser process
// --timeout 90000 and useServerAndBrowser (called at the top of a suite) sets it for its own file.
export const BROWSER_TEST_TIMEOUT_MS = 90_000

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

export async function newPage(
  browser: Browser,
  opts: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  // Reduced motion unless a test asks otherwise: Pico then ends every transition and animation at
  // once, so Playwright's actionability checks do not wait for them and Chromium paints less (CI time).
  const context = await browser.newContext({ ...opts, reducedMotion: opts.reducedMotion ?? 'reduce' })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  // A Content-Security-Policy violation is a failure like an uncaught error (issue 11 item 5).
  await context.exposeBinding('__cspViolation', (_source, text: string) => void errors.push(text))
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`),
    )
  })
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().includes('Content Security Policy')) errors.push(m.text())
  })
  return { context, page, errors }
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true })
}

/**
 * One real server (jobs off) and one Chromium for a suite: started before its tests, stopped
 * after. Read them through the returned object (`world.server`, `world.browser`).
 */
export function useServerAndBrowser(env: Record<string, string> = {}) {
  setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS)
  const world = {} as { server: Awaited<ReturnType<typeof startTestServer>>; browser: Browser }
  beforeAll(async () => {
    world.server = await startTestServer(env)
    world.browser = await launchBrowser()
  })
  afterAll(async () => {
    await world.browser?.close()
    await world.server?.stop()
  })
  return world
}
