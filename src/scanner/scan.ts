// One scan: ask the forum source for everything newer than the newest stored post, store the new
// posts, match them, record the scan. Called by the job loop, `dibs scan`, an admin button, tests.
//
// Order of a scan:
//   1. Emergency pause on → nothing is fetched, matched or alerted (status 'paused', not logged).
//      Else the subreddits are read again from the enabled reddit sources (a change made by
//      `dibs sources` in another process applies at this scan; the admin's apply at once).
//   2. The rate budget forbids a request now → status 'waiting', not logged (not a failure).
//   3. fetchSince(known): pages back with `after` until a stored post (catch-up after downtime);
//      on a fresh database only the newest page.
//   4. storePosts → matchPosts (one transaction each) → match.new / unread → post.new. Without
//      /api/info (no key) the stored posts the page shows again are re-read for sold/pending marks
//      (applyFeedReads → post.updated, queued alerts of a sold post skipped). A poll that
//      did not reach a stored post and whose oldest entry is newer than the newest stored post
//      records a coverage gap (gaps.ts), logged once.
//   5. A scan_metrics row and a maintenance_logs row (job fetch-reddit-posts), success or failed,
//      and scan.metric on the bus. Failures (5xx, timeout, malformed, 429) are logged as failed
//      scans; the budget's backoff spaces the next try, which starts from the last stored post.
//   6. metrics 'next_reddit_scrape' ← the next scan time (nextScanAt); scan.next on the bus.
import type { ScanMetric } from '../contract/events'
import type { Deps } from '../deps'
import { RedditError } from '../forums/reddit-client'
import { applyFeedReads } from '../forums/recheck'
import { hasAnyPost, knownPosts, newestOfSubreddits, storePosts } from '../forums/store'
import { JOB, logJob } from '../jobs/log'
import { log } from '../lib/log'
import type { WithMatcher } from '../matches/matcher'
import { announceStored } from './ingest'
import { isPaused } from '../settings/service'
import { announceChanges } from './recheck'
import { recordScanRow } from './scan-history'
import { polledSubreddits, recordPollGap, type GapWindow, type PolledForum } from './gaps'
import { redditSubreddits, type ScanSource, type WithSource } from './source'
import { enabledSources, postForum, recordRedditPolls, routeRedditPosts } from '../sources/store'

export type ScanDeps = Deps & WithSource & WithMatcher

export type ScanType = 'live' | 'catch-up' | 'manual' | 'demo'
export type ScanOutcome = {
  status: 'success' | 'failed' | 'paused' | 'waiting' | 'busy'
  scanType: ScanType
  postsFetched: number
  postsNew: number
  /** stored posts a later poll showed changed (sold, pending, a new price): the re-check without a key */
  postsChanged: number
  matchesCreated: number
  usersMatched: number
  pages: number
  /** requests sent to the source, a failed scan's included (the demo forum: its pages) */
  requests: number
  reachedKnown: boolean
  durationMs: number
  error: string | null
  /** the window this poll may have missed (gaps.ts), or null */
  gap: GapWindow | null
  /** when the next scan is due (ISO) */
  nextAt: string
}

/** When paused, how often the loop looks again. */
const PAUSED_POLL_MS = 5_000
/** The least gap between the end of one scan and the start of the next, whatever else allows. */
const MIN_GAP_MS = 250

/**
 * When the next scan should start (ms since epoch), given when the last one started and ended.
 * If the last scan sent requests, the budget's pacing decides: one interval after the last paced
 * request, more after a catch-up's pages, later while a 429's reset or a backoff holds. Its grid
 * absorbs a little lateness, so neither the timer nor the scan's own time stretch the cadence.
 * A scan that sent nothing (the demo forum, a failure before the request) counts from its start.
 * The job loop asks again when its timer fires, so a scan run in between (admin button) counts.
 */
export async function nextScanAt(
  deps: Pick<Deps, 'db' | 'now' | 'config'> & WithSource,
  last: { startedAt: number; endedAt: number },
  source: ScanSource = deps.source,
): Promise<number> {
  if (await isPaused(deps)) return last.endedAt + PAUSED_POLL_MS
  const b = source.budget
  const notBefore = last.endedAt + MIN_GAP_MS
  if (!b) return Math.max(last.startedAt + (deps.config.scanIntervalSeconds ?? 10) * 1000, notBefore)
  const now = deps.now().getTime()
  const sent = b.lastRequestAt !== null && b.lastRequestAt >= last.startedAt
  return Math.max(b.nextPacedAt(now), sent ? 0 : last.startedAt + b.recommendedIntervalMs(now), notBefore)
}

/** The scan interval in force now (ms): the budget's cadence, or SCAN_INTERVAL_SECONDS (10 s) for a source without one. */
export function scanIntervalNow(deps: Pick<Deps, 'now' | 'config'> & WithSource): { ms: number; adaptive: boolean } {
  const b = deps.source.budget
  if (!b) return { ms: (deps.config.scanIntervalSeconds ?? 10) * 1000, adaptive: false }
  return { ms: b.recommendedIntervalMs(deps.now().getTime()), adaptive: b.intervalSeconds === null }
}

/**
 * Startup: a SCAN_INTERVAL_SECONDS faster than the source's rate budget allows has been raised to
 * the allowance (src/forums/rate-budget.ts); say so once, with what was asked, what is used, why.
 */
export function warnRaisedInterval(source: ScanSource): void {
  const b = source.budget
  const raise = b?.intervalRaise
  if (!b || !raise) return
  const seconds = (ms: number) => `${+(ms / 1000).toFixed(2)} s`
  const mode = source.mode ?? 'this'
  log.warn(`SCAN_INTERVAL_SECONDS is faster than ${mode} mode allows: scanning every ${seconds(raise.usedMs)} instead of ${seconds(raise.configuredMs)}`, {
    configured: seconds(raise.configuredMs),
    used: seconds(raise.usedMs),
    why: `${mode} mode allows ${b.capPerMinute} requests/min; less ${Math.round(b.headroom * 100)}% headroom that is one every ${seconds(raise.usedMs)}, and scanning faster would spend the minute's budget in a burst, then stall`,
  })
}

export function runScan(deps: ScanDeps, source: ScanSource = deps.source, opts: { manual?: boolean } = {}): Promise<ScanOutcome> {
  // A scan never overlaps another on the same source (the job loop and an admin button).
  const running = source.running as Promise<ScanOutcome> | null | undefined
  if (running) return running.then((o) => ({ ...o, status: 'busy' as const }))
  const p = scanOnce(deps, source, opts).finally(() => (source.running = null))
  source.running = p
  return p
}

async function scanOnce(deps: ScanDeps, source: ScanSource, opts: { manual?: boolean }): Promise<ScanOutcome> {
  const started = deps.now().getTime()
  const t0 = performance.now()
  const baseType: ScanType = opts.manual ? 'manual' : source.mode === 'demo' ? 'demo' : 'live'
  const outcome: ScanOutcome = {
    status: 'success',
    scanType: baseType,
    postsFetched: 0,
    postsNew: 0,
    postsChanged: 0,
    matchesCreated: 0,
    usersMatched: 0,
    pages: 0,
    requests: 0,
    reachedKnown: true,
    durationMs: 0,
    error: null,
    gap: null,
    nextAt: '',
  }
  const finish = async (o: ScanOutcome) => ({
    ...o,
    nextAt: new Date(await nextScanAt(deps, { startedAt: started, endedAt: deps.now().getTime() }, source)).toISOString(),
  })

  if (await isPaused(deps)) return finish({ ...outcome, status: 'paused' })
  // The sources table may have changed since the last scan (`dibs sources` in another process): read it again.
  source.setSubreddits?.(await redditSubreddits(deps))
  // No enabled reddit source: nothing to read (feed and push sources have their own ways in).
  if (source.subredditList?.length === 0) return finish({ ...outcome, status: 'waiting' })
  if (source.budget && source.budget.nextAllowedAt(started) > started) return finish({ ...outcome, status: 'waiting' })

  const sentBefore = source.requestsSent
  try {
    const fresh = !(await hasAnyPost(deps))
    const result = await source.fetchSince(knownPosts(deps), fresh ? { maxPages: 1 } : {})
    const receivedAt = deps.now().getTime() // alert latency: the listing is here
    outcome.pages = result.pages
    outcome.postsFetched = result.posts.length
    outcome.reachedKnown = result.reachedKnown || fresh
    if (result.pages > 1 && baseType !== 'manual') outcome.scanType = 'catch-up'
    // The pause may have been switched on during the request: then nothing is stored or matched.
    if (await isPaused(deps)) return finish({ ...outcome, status: 'paused' })
    const polled = await polledForums(deps, source)
    const before = result.reachedKnown || fresh ? null : await newestOfSubreddits(deps, polledSubreddits(polled))
    const stored = await storePosts(deps, await routeRedditPosts(deps, result.posts))
    // Without /api/info (no key) the feed's later polls are the re-check: stored posts it shows again, now marked sold or pending.
    if (source.fetchInfo === undefined && result.known && result.known.length > 0) {
      const changes = await applyFeedReads(deps, result.known)
      await announceChanges(deps, changes)
      outcome.postsChanged = changes.length
    }
    const storedAt = deps.now().getTime()
    outcome.gap = await recordPollGap(deps, { source: sourceName(source), forums: polled, newestStoredAt: before, ...result, at: storedAt })
    if (outcome.gap) {
      const { fromAt, toAt } = outcome.gap
      const subs = polled.map((f) => `r/${f.subreddits}`).join(', ')
      log.warn(
        `coverage gap: ${subs} not read between ${new Date(fromAt).toISOString()} and ${new Date(toAt).toISOString()} (more posts than the feed holds came between two polls)`,
        { minutes: Math.round((toAt - fromAt) / 60_000) },
      )
    }
    outcome.postsNew = stored.length
    const announced = await announceStored(deps, stored, { receivedAt, storedAt })
    outcome.matchesCreated = announced.matchesCreated
    outcome.usersMatched = announced.usersMatched
    await recordRedditPolls(deps, storedAt, { ok: true, stored, missing: source.healthReport?.().missingForums ?? [] })
  } catch (err) {
    if (err instanceof RedditError && err.kind === 'rate_limited' && err.details.sent === false) return finish({ ...outcome, status: 'waiting' })
    outcome.status = 'failed'
    outcome.error = err instanceof RedditError ? `${err.kind}: ${err.message}` : String(err instanceof Error ? err.message : err)
    await recordRedditPolls(deps, deps.now().getTime(), { ok: false, error: outcome.error })
    log.warn('scan failed', { error: outcome.error })
  }
  outcome.requests = sentBefore === undefined ? outcome.pages : (source.requestsSent ?? 0) - sentBefore
  outcome.durationMs = Math.round(performance.now() - t0)
  const done = await finish(outcome)
  await recordScan(deps, done, started)
  return done
}

/**
 * The forums one poll of this source reads, each with its subreddits ('a+b'): the enabled reddit sources' (the
 * configured forums before sources are seeded), less those the source left out as missing.
 */
async function polledForums(deps: Pick<Deps, 'config' | 'db'>, source: ScanSource): Promise<PolledForum[]> {
  const missing = new Set((source.healthReport?.().missingForums ?? []).map((s) => s.toLowerCase()))
  const { accessories, deals } = deps.config.forums
  const forumOf = new Map<string, string>([
    [accessories.toLowerCase(), 'product'],
    [deals.toLowerCase(), 'gd'],
  ])
  for (const s of (await enabledSources(deps, 'reddit')).reverse()) for (const sub of s.subreddits) forumOf.set(sub.toLowerCase(), postForum(s.forum))
  const subs = new Map<string, string[]>()
  for (const sub of source.subredditList ?? [accessories, deals]) {
    const forum = forumOf.get(sub.toLowerCase())
    if (forum === undefined || missing.has(sub.toLowerCase())) continue
    subs.set(forum, [...(subs.get(forum) ?? []), sub])
  }
  return [...subs].map(([forum, list]) => ({ forum, subreddits: list.join('+') }))
}

/** The source's name in source_gaps and /metrics. */
const sourceName = (source: ScanSource) => (source.mode === 'demo' ? 'demo' : 'reddit')

async function recordScan(deps: Deps, o: ScanOutcome, startedAt: number): Promise<void> {
  const at = deps.now().getTime()
  // the scan_metrics row and the socket's ScanMetric carry the same figures
  const figures = {
    scanType: o.scanType,
    status: o.status,
    postsFetched: o.postsFetched,
    postsNew: o.postsNew,
    usersProcessed: o.usersMatched,
    matchesFound: o.matchesCreated,
    requests: o.requests,
    durationMs: o.durationMs,
    error: o.error,
  }
  const metricId = await recordScanRow(deps, at, figures, o.nextAt)
  const details = {
    scan_type: o.scanType,
    posts_fetched: o.postsFetched,
    posts_new: o.postsNew,
    matches_created: o.matchesCreated,
    pages: o.pages,
    ...(o.gap ? { gap: `${new Date(o.gap.fromAt).toISOString()} – ${new Date(o.gap.toAt).toISOString()}` } : {}),
    ...(o.error ? { error: o.error } : {}),
  }
  await logJob(deps, JOB.scan, o.status, o.durationMs, details, startedAt)
  const scanMetric: ScanMetric = { id: metricId, createdAt: new Date(at).toISOString(), ...figures }
  deps.bus.emit('scan.metric', { metric: scanMetric })
  deps.bus.emit('scan.next', { at: o.nextAt })
}
