// Shared plumbing for the subscriber and landing journeys: a real server whose scanner reads the
// fake Reddit, a browser, and a signed-in browser context for a freshly created subscriber.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { runRecheck } from '../../src/scanner/recheck'
import { runScan } from '../../src/scanner/scan'
import { SESSION_COOKIE } from '../../src/auth/session'
import { startFakeReddit, type FakeReddit, fakeRedditClient, fakeOauthClient } from '../fakes/reddit'
import { createUserWithSession, startTestServer } from '../helpers'
import { launchBrowser, newPage } from './browser'

export type World = {
  server: Awaited<ReturnType<typeof startTestServer>>
  reddit: FakeReddit
  browser: Browser
  /** Fetches the fake Reddit's listing once, as the scan job would. */
  scan(): Promise<unknown>
  /** One run of the re-check job (its own client: the scans' budget is not touched). */
  recheck(): Promise<unknown>
  /** A subscriber (GAFS + GD by default) and a browser context signed in as them. */
  subscriber(opts?: ContextOpts & { role?: string }): Promise<{ page: Page; context: BrowserContext; errors: string[]; userId: number }>
  visitor(opts?: ContextOpts): Promise<{ page: Page; context: BrowserContext; errors: string[] }>
  stop(): Promise<void>
}

/** `bypassCSP` only for contexts that inject test scripts (axe-core, tests/e2e/axe.ts). */
type ContextOpts = { viewport?: { width: number; height: number }; theme?: 'light' | 'dark'; bypassCSP?: boolean; reducedMotion?: 'reduce' }

/** `env`: more settings for the server (the screenshots offer every channel kind with stand-ins). */
export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const reddit = await startFakeReddit()
  const server = await startTestServer({ REDDIT_BASE_URL: reddit.url, ...env })
  const browser = await launchBrowser()
  const client = fakeRedditClient(reddit, { timeoutMs: 3000, sleep: async () => {} })
  const contextFor = async (opts: ContextOpts = {}) => {
    const made = await newPage(browser, {
      viewport: opts.viewport ?? { width: 1280, height: 900 },
      bypassCSP: opts.bypassCSP,
      reducedMotion: opts.reducedMotion,
    })
    if (opts.theme) await made.context.addInitScript((t) => localStorage.setItem('ui-theme', t), opts.theme)
    return made
  }
  return {
    server,
    reddit,
    browser,
    scan: () => runScan(server.deps, client),
    recheck: () => runRecheck(server.deps, fakeOauthClient(reddit)),
    async subscriber(opts = {}) {
      const user = await createUserWithSession(server.deps, { role: opts.role ?? 'product+gd', name: 'Sam Subscriber' })
      const made = await contextFor(opts)
      await made.context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: server.url }])
      return { ...made, userId: user.userId }
    },
    visitor: (opts = {}) => contextFor(opts),
    async stop() {
      await browser.close()
      await server.stop()
      await reddit.stop()
    },
  }
}
