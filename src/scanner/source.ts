// Which forum source the scanner reads: the offline demo forum (DEMO=1) or Reddit. The wiring
// (src/services.ts) creates one per process, so its rate budget and `limit` rotation live as long
// as the process.
import type { Deps } from '../deps'
import { createDemoSource } from '../demo/source'
import type { PostSnapshot } from '../forums/info'
import type { AboutResult } from '../forums/authors'
import type { ForumSource } from '../forums/listing'
import type { RateBudget } from '../forums/rate-budget'
import { RedditClient } from '../forums/reddit-client'
import type { SourceHealth } from '../forums/source-health'
import { enabledSources, enabledSourcesAtStart, sourcesSeeded, sourcesSeededAtStartSqlite } from '../sources/store'

export type ScanSource = ForumSource & {
  /** the current state of up to 100 stored posts (the re-check, src/forums/recheck.ts); on the budget's side share */
  fetchInfo?(redditIds: string[]): Promise<PostSnapshot[]>
  /** the author's account (seller trust, src/forums/authors.ts); Reddit OAuth only, on the budget's side share */
  fetchAbout?(name: string): Promise<AboutResult>
  budget?: RateBudget
  mode?: string
  /** the source's health in words (src/forums/source-health.ts); absent for the demo forum */
  healthReport?(): SourceHealth
  /** listing requests sent so far, answered or not (a scan's count is the difference) */
  requestsSent?: number
  /** the scan running on this source now: a second caller waits for it instead of overlapping */
  running?: Promise<unknown> | null
  /** Reddit: the subreddits one poll reads (every enabled reddit source); empty: nothing to read, the scan idles */
  subredditList?: readonly string[]
  setSubreddits?(subreddits: string[]): void
}

/** What the scanner needs beside Deps. */
export type WithSource = { source: ScanSource }

/** Reddit banned the spec's default accessories forum in Oct 2025 (with r/partskits, under its firearms-transactions rule). */
export const BANNED_DEFAULT_FORUM = 'GunAccessoriesForSale'
export const BANNED_DEFAULT_NOTICE =
  "r/GunAccessoriesForSale was closed by Reddit in Oct 2025: the accessories forum gets no posts. Point it at a live forum: add a source on Admin → Logs → Sources (a board's classifieds feed, or a marketplace subreddit you use), or start with FORUM_PRESET or ACCESSORIES_SUBREDDIT; the deals forum r/gundeals still answers."

/** The notice while an enabled source (before seeding: the configured accessories forum) still reads the forum Reddit closed, or null. */
export async function forumNotice(deps: { config: Pick<Deps['config'], 'forums' | 'demo'> } & Partial<Pick<Deps, 'db'>>): Promise<string | null> {
  if (deps.config.demo) return null
  const banned = (sub: string) => sub.toLowerCase() === BANNED_DEFAULT_FORUM.toLowerCase()
  const subs =
    deps.db && (await sourcesSeeded(deps as Pick<Deps, 'db'>))
      ? (await enabledSources(deps as Pick<Deps, 'db'>, 'reddit')).flatMap((s) => s.subreddits)
      : [deps.config.forums.accessories]
  return subs.some(banned) ? BANNED_DEFAULT_NOTICE : null
}

/**
 * The subreddits of the enabled reddit sources, the accessories forum's first (one multireddit request reads them
 * all). Before the sources table is seeded (a bare test database), the configured forums.
 */
export async function redditSubreddits(deps: Pick<Deps, 'db' | 'config'>): Promise<string[]> {
  if (!(await sourcesSeeded(deps))) return [deps.config.forums.accessories, deps.config.forums.deals]
  return uniqueSubreddits(await enabledSources(deps, 'reddit'))
}

const uniqueSubreddits = (rows: { subreddits: string[] }[]) => {
  const subs = rows.flatMap((s) => s.subreddits)
  return [...new Map(subs.map((s) => [s.toLowerCase(), s])).values()]
}

/** redditSubreddits at the start of a process (its wiring is synchronous: src/services.ts). */
function subredditsAtStart(deps: Pick<Deps, 'db' | 'config'>): string[] {
  if (!sourcesSeededAtStartSqlite(deps)) return [deps.config.forums.accessories, deps.config.forums.deals]
  return uniqueSubreddits(enabledSourcesAtStart(deps, 'reddit'))
}

/** Sources changed: the Reddit client reads the enabled reddit sources' subreddits from its next poll on. */
export async function applySources(deps: Pick<Deps, 'db' | 'config'> & WithSource): Promise<void> {
  deps.source.setSubreddits?.(await redditSubreddits(deps))
}

/** How Dibs reaches Reddit (REDDIT_*): the scanner's client and a source preview's alike. */
export function redditAccess(config: Deps['config']) {
  const { baseUrl, authUrl, clientId, clientSecret, username, password, mode, userAgent } = config.reddit
  return { baseUrl, authUrl, clientId, clientSecret, username, password, mode, userAgent }
}

export function createScanSource(deps: Pick<Deps, 'config' | 'now' | 'sqlite' | 'db'>): ScanSource {
  const { config } = deps
  const now = () => deps.now().getTime()
  if (config.demo) return createDemoSource({ accessories: config.forums.accessories, deals: config.forums.deals, now, recheckShare: config.recheckBudgetShare })
  return new RedditClient({
    ...redditAccess(config),
    subreddits: subredditsAtStart(deps),
    intervalSeconds: config.scanIntervalSeconds,
    recheckShare: config.recheckBudgetShare,
    now,
  })
}
