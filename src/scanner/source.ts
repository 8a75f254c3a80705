// Which forum source the scanner reads: the offline demo forum (DEMO=1) or Reddit. One source per
// open database, so its rate budget and `limit` rotation live as long as the process.
import type { Deps } from '../deps'
import { createDemoSource } from '../demo/source'
import type { ForumSource } from '../forums/listing'
import type { RateBudget } from '../forums/rate-budget'
import { RedditClient } from '../forums/reddit-client'

export type ScanSource = ForumSource & { budget?: RateBudget; mode?: string }

const sources = new WeakMap<object, ScanSource>()

export function createScanSource(deps: Pick<Deps, 'config' | 'now'>): ScanSource {
  const { config } = deps
  const now = () => deps.now().getTime()
  if (config.demo) return createDemoSource({ accessories: config.forums.accessories, deals: config.forums.deals, now })
  return new RedditClient({
    baseUrl: config.reddit.baseUrl,
    authUrl: config.reddit.authUrl,
    clientId: config.reddit.clientId,
    clientSecret: config.reddit.clientSecret,
    userAgent: config.reddit.userAgent,
    subreddits: [config.forums.accessories, config.forums.deals],
    intervalSeconds: config.scanIntervalSeconds,
    now,
  })
}

export function scanSourceFor(deps: Pick<Deps, 'db' | 'config' | 'now'>): ScanSource {
  let s = sources.get(deps.db)
  if (!s) sources.set(deps.db, (s = createScanSource(deps)))
  return s
}

/** Replace the process's source (tests, benchmarks). */
export function setScanSource(deps: Pick<Deps, 'db'>, source: ScanSource): void {
  sources.set(deps.db, source)
}
