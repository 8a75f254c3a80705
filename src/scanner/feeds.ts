// The sources at run time (one per process, in Services): feed polling, 'Fetch now', previews before a source is
// saved, and changes that apply without a restart.
//
// Feeds: a job ticks each second; an enabled feed source is due when its host's politeness interval (60 s by
// default, admin-settable in `feed_settings`, never below 15 s; src/sources/politeness.ts) has passed since the
// host was last asked and since the source was last polled. A poll sends the stored validators (ETag /
// Last-Modified): a 304 costs the forum nothing. New items are stored, matched and announced like a Reddit poll's
// (src/scanner/ingest.ts); the source's health (last poll, last success, the error in words, failures in a row)
// is kept in its row. A 429 or 503's Retry-After rests the host at least that long.
//
// Preview ('Fetch now' before saving, `dibs sources test`): one fetch, the parsed posts and how each was
// classified, nothing stored. The preview of the address being added is kept for 10 minutes, and saving that
// source stores and matches those posts at once (the next poll would otherwise wait for the host's interval).
// Reddit sources have no poller of their own: every enabled one joins the scanner's one multireddit request
// (src/scanner/source.ts `applySources`).
import type { Deps } from '../deps'
import type { ForumPost } from '../forums/listing'
import { RedditClient, RedditError } from '../forums/reddit-client'
import { JOB, logJob } from '../jobs/log'
import { AppError } from '../lib/errors'
import { log } from '../lib/log'
import type { WithMatcher } from '../matches/matcher'
import { ingestPosts } from './ingest'
import { recordPollGap } from './gaps'
import { knownPosts, newestOfSource } from '../forums/store'
import { applySources, redditAccess, type WithSource } from './source'
import { storedSetting, storedSettingAtStartSqlite, storeSetting } from '../settings/service'
import { fetchFeed, FeedFetchError, type Validators } from '../sources/feed-fetch'
import { feedToPosts, previewPosts, type PreviewPost } from '../sources/feed-posts'
import { DEFAULT_FEED_INTERVAL_MS, HostPoliteness, hostKey, MIN_FEED_INTERVAL_MS } from '../sources/politeness'
import { enabledSources, getSource, postForum, recordPoll, type SourceInput, type SourceRow } from '../sources/store'

export type RunnerDeps = Deps & WithMatcher & WithSource

export type Preview = { posts: PreviewPost[]; fetched: number; title: string | null; software: string | null; notes: string[] }
export type PollOutcome = {
  status: 'ok' | 'not_modified' | 'failed' | 'waiting'
  fetched: number
  new: number
  matches: number
  error: string | null
  /** 'waiting': when the host may be asked again (ISO) */
  retryAt: string | null
  posts: PreviewPost[]
}

/** A source's preview or 'Fetch now' could not run: the reason in words, with the HTTP status the routes answer with. */
const fetchError = (message: string, status: 400 | 404 | 429 | 502 = 502) => new AppError(status, 'SOURCE_FETCH_FAILED', message)

export const FEED_SETTINGS = 'feed_settings'
const PREVIEW_TTL_MS = 10 * 60_000

type Cached = { at: number; posts: ForumPost[]; validators: Validators | null }

/** The politeness interval (seconds) of the stored feed settings' value: the default when none, never below the least. */
function politenessOf(value: unknown): number {
  const v = value as { politenessSeconds?: unknown } | undefined
  const s = typeof v?.politenessSeconds === 'number' ? v.politenessSeconds : DEFAULT_FEED_INTERVAL_MS / 1000
  return Math.max(MIN_FEED_INTERVAL_MS / 1000, s)
}

export class SourceRunner {
  readonly politeness: HostPoliteness
  private readonly running = new Map<number, Promise<PollOutcome>>()
  private readonly previews = new Map<string, Cached>()

  constructor(private readonly deps: RunnerDeps) {
    // start-up: the stored interval read synchronously (the wiring cannot await yet); each tick reads it again
    this.politeness = new HostPoliteness(() => deps.now().getTime(), politenessOf(storedSettingAtStartSqlite(deps, FEED_SETTINGS)?.value) * 1000)
  }

  /** The admin's politeness interval per host (seconds), as stored. */
  async politenessSeconds(): Promise<number> {
    return politenessOf((await storedSetting(this.deps, FEED_SETTINGS))?.value)
  }

  async setPolitenessSeconds(seconds: number): Promise<number> {
    const s = Math.max(MIN_FEED_INTERVAL_MS / 1000, Math.round(seconds))
    await storeSetting(
      this.deps,
      FEED_SETTINGS,
      { active: true, politenessSeconds: s },
      'Feed sources: the least seconds between two requests to one host',
      this.deps.now(),
    )
    this.politeness.setInterval(s * 1000)
    return s
  }

  /** Sources changed (admin, CLI): Reddit reads the enabled reddit sources from its next poll; feeds are read from the table each tick. */
  async applied(): Promise<void> {
    await applySources(this.deps)
  }

  /**
   * The job's tick: every feed source that is due, one after the other, the one waiting longest first (never read
   * before all others): sources on one host take turns instead of the first in the table taking the host's every turn.
   */
  async tick(): Promise<PollOutcome[]> {
    this.politeness.setInterval((await this.politenessSeconds()) * 1000)
    const now = this.deps.now().getTime()
    const out: PollOutcome[] = []
    const longestWaiting = (await enabledSources(this.deps, 'feed')).sort((a, b) => (a.lastPolledAt ?? 0) - (b.lastPolledAt ?? 0))
    for (const s of longestWaiting) {
      if (!s.url || !this.due(s, now)) continue
      const o = await this.poll(s)
      if (o.status !== 'waiting')
        await logJob(this.deps, JOB.feeds, o.status === 'failed' ? 'failed' : 'success', 0, {
          source: s.id,
          name: s.name,
          status: o.status,
          posts_fetched: o.fetched,
          posts_new: o.new,
          matches_created: o.matches,
          ...(o.error ? { error: o.error } : {}),
        })
      out.push(o)
    }
    return out
  }

  private due(s: SourceRow, now: number): boolean {
    if (s.lastPolledAt !== null && now - s.lastPolledAt < this.politeness.intervalMs * Math.min(8, 2 ** Math.min(s.failures, 3))) return false
    return this.politeness.mayFetch(s.url!)
  }

  /** Polls one feed source now (the job, 'Fetch now'), never twice at once; stores and matches what is new. */
  poll(s: SourceRow): Promise<PollOutcome> {
    const running = this.running.get(s.id)
    if (running) return running
    const p = this.pollOnce(s).finally(() => this.running.delete(s.id))
    this.running.set(s.id, p)
    return p
  }

  private async pollOnce(s: SourceRow): Promise<PollOutcome> {
    const at = this.deps.now().getTime()
    const empty: PollOutcome = { status: 'ok', fetched: 0, new: 0, matches: 0, error: null, retryAt: null, posts: [] }
    if (!s.url) return { ...empty, status: 'failed', error: 'the source has no feed URL' }
    if (!this.politeness.mayFetch(s.url)) return { ...empty, status: 'waiting', retryAt: new Date(this.politeness.nextAt(s.url)).toISOString() }
    this.politeness.fetched(s.url)
    try {
      const res = await fetchFeed(s.url, {
        allowPrivate: this.deps.config.allowPrivateSources,
        now: () => this.deps.now().getTime(),
        validators: { etag: s.etag, lastModified: s.lastModified },
      })
      if (res.status === 'not_modified') {
        await recordPoll(this.deps, s.id, { at, ok: true, posts: 0, ...res.validators })
        return { ...empty, status: 'not_modified' }
      }
      const posts = feedToPosts(s, res.url, res.feed, this.deps.now().getTime())
      await this.noteGap(
        s,
        posts,
        res.feed.items.every((i) => i.publishedAt !== null),
      )
      return { ...(await this.store(s, posts, { at, validators: res.validators })), fetched: posts.length }
    } catch (e) {
      const error = describe(e)
      if (e instanceof FeedFetchError && e.detail.retryAfterMs) this.politeness.deferUntil(s.url, this.deps.now().getTime() + e.detail.retryAfterMs)
      await recordPoll(this.deps, s.id, { at, ok: false, error })
      log.warn(`source ${s.id} (${s.name}) failed: ${error}`)
      return { ...empty, status: 'failed', error }
    }
  }

  /**
   * A feed holds only its newest items: a poll that shows none already stored, whose oldest item is newer than the
   * source's newest stored post, may have missed what came between (a coverage gap, src/scanner/gaps.ts, shown on
   * Admin → Logs and by the explainer). Not for a first poll, nor for a feed whose items carry no dates.
   */
  private async noteGap(s: SourceRow, posts: ForumPost[], dated: boolean): Promise<void> {
    if (!dated || posts.length === 0) return
    const known = knownPosts(this.deps)
    let reachedKnown = false
    for (const p of posts) if ((reachedKnown = await known(p.redditId))) break
    const gap = await recordPollGap(this.deps, {
      source: `feed:${s.id}`,
      forums: [{ forum: postForum(s.forum), subreddits: s.name }],
      newestStoredAt: await newestOfSource(this.deps, s.id),
      posts,
      reachedKnown,
      at: this.deps.now().getTime(),
    })
    if (gap)
      log.warn(
        `coverage gap: ${s.name} not read between ${new Date(gap.fromAt).toISOString()} and ${new Date(gap.toAt).toISOString()} (more posts than the feed holds came between two polls)`,
      )
  }

  /** Stores, matches and announces a source's posts; records the poll. */
  private async store(s: SourceRow, posts: ForumPost[], poll: { at: number; validators: Validators | null }): Promise<PollOutcome> {
    const forums = this.deps.config.forums
    const ingested = await ingestPosts(this.deps, posts, this.deps.now().getTime())
    await recordPoll(this.deps, s.id, { at: poll.at, ok: true, posts: ingested.stored.length, ...poll.validators })
    return {
      status: 'ok',
      fetched: posts.length,
      new: ingested.stored.length,
      matches: ingested.matchesCreated,
      error: null,
      retryAt: null,
      posts: previewPosts(posts, forums),
    }
  }

  /** 'Fetch now' on a saved source: a feed is polled at once (the host's politeness still holds); a reddit source is read by the next scan; a push source has nothing to fetch. */
  async fetchNow(id: number): Promise<PollOutcome> {
    const s = await this.fetchable(id)
    if (s.kind === 'reddit') {
      const preview = await this.preview(s)
      return { status: 'ok', fetched: preview.fetched, new: 0, matches: 0, error: null, retryAt: null, posts: preview.posts }
    }
    const outcome = await this.poll(s)
    if (outcome.status === 'waiting') throw this.waitError(s.url!)
    return outcome
  }

  /** The host may not be asked yet (its politeness interval, or the Retry-After it sent): a 429 saying when it may. */
  private waitError(url: string): AppError {
    const wait = Math.max(1, Math.ceil((this.politeness.nextAt(url) - this.deps.now().getTime()) / 1000))
    const why =
      wait > this.politeness.intervalMs / 1000
        ? `${hostKey(url)} asked Dibs to wait (Retry-After)`
        : `${hostKey(url)} was asked less than ${this.politeness.intervalMs / 1000} s ago; Dibs asks one host at most that often`
    return new AppError(429, 'SOURCE_FETCH_FAILED', `${why}. Try again in ${wait} s.`, { retryAfter: wait })
  }

  /** `dibs sources test`: one fetch of a saved source (enabled or not), nothing stored. */
  async testSaved(id: number): Promise<Preview> {
    return this.preview(await this.fetchable(id))
  }

  /** A saved source that can be fetched: a 404 when there is none, a 400 for a push source. */
  private async fetchable(id: number): Promise<SourceRow> {
    const s = await getSource(this.deps, id)
    if (!s) throw fetchError('No such source.', 404)
    if (s.kind === 'push') throw fetchError(`a push source has nothing to fetch: its posts arrive at POST /api/ingest/${s.id}`, 400)
    return s
  }

  /** One fetch of a source (saved or not), nothing stored: the posts and how each was classified. */
  async preview(input: Pick<SourceInput, 'kind' | 'forum' | 'url' | 'subreddits' | 'name'> & { id?: number }): Promise<Preview> {
    const now = this.deps.now().getTime()
    const labelled = { id: input.id ?? 0, name: input.name, forum: input.forum }
    if (input.kind === 'push') throw fetchError('a push source has nothing to fetch: its posts arrive when they are pushed', 400)
    if (input.kind === 'feed') {
      const url = input.url!
      if (!this.politeness.mayFetch(url)) throw this.waitError(url)
      this.politeness.fetched(url)
      try {
        const res = await fetchFeed(url, { allowPrivate: this.deps.config.allowPrivateSources, now: () => this.deps.now().getTime() })
        if (res.status !== 'ok') throw fetchError('the feed answered 304 Not Modified to a request without validators', 502)
        const posts = feedToPosts(labelled, res.url, res.feed, now)
        this.remember(`feed ${url}`, posts, res.validators)
        return {
          posts: previewPosts(posts, this.deps.config.forums),
          fetched: posts.length,
          title: res.feed.title,
          software: res.feed.software?.name ?? null,
          notes: res.feed.skipped,
        }
      } catch (e) {
        if (e instanceof AppError) throw e
        if (e instanceof FeedFetchError && e.detail.retryAfterMs) this.politeness.deferUntil(url, now + e.detail.retryAfterMs)
        throw fetchError(describe(e), e instanceof FeedFetchError && e.kind === 'refused' ? 400 : 502)
      }
    }
    const client = this.redditClient(input.subreddits)
    try {
      const page = await client.fetchNew({ limit: 25 })
      const posts = page.posts.map((p) => ({ ...p, forum: input.forum === 'deals' ? ('gd' as const) : ('product' as const) }))
      this.remember(`reddit ${input.subreddits.map((s) => s.toLowerCase()).join('+')}`, posts, null)
      return {
        posts: previewPosts(posts, this.deps.config.forums),
        fetched: posts.length,
        title: `r/${input.subreddits.join('+')}`,
        software: 'reddit',
        notes: [],
      }
    } catch (e) {
      const retryAt = e instanceof RedditError ? e.details.retryAt : undefined
      if (e instanceof RedditError && e.kind === 'rate_limited' && e.details.sent === false)
        throw fetchError(`Reddit's request budget is spent for now; try again${retryAt ? ` in ${Math.ceil((retryAt - now) / 1000)} s` : ' shortly'}.`, 429)
      throw fetchError(describe(e))
    }
  }

  /** A source was just saved: the posts its preview showed are stored and matched now. */
  async saved(s: SourceRow): Promise<PollOutcome | null> {
    // the preview is taken from the cache before anything awaits: a second save of the same source finds none
    const key = !s.enabled
      ? null
      : s.kind === 'feed'
        ? `feed ${s.url}`
        : s.kind === 'reddit'
          ? `reddit ${s.subreddits.map((x) => x.toLowerCase()).join('+')}`
          : null
    const cached = key === null ? undefined : this.previews.get(key)
    const fresh = key !== null && cached !== undefined && this.deps.now().getTime() - cached.at <= PREVIEW_TTL_MS
    if (fresh) this.previews.delete(key)
    await this.applied()
    if (!fresh) return null
    const posts = cached.posts.map((p) => ({
      ...p,
      ...(s.kind === 'feed' ? { redditId: p.redditId.replace(/^f0_/, `f${s.id}_`) } : {}),
      sourceId: s.id,
      sourceName: s.name,
    }))
    posts.forEach((p) => (p.name = p.redditId))
    return this.store(s, posts, { at: cached.at, validators: cached.validators })
  }

  private remember(key: string, posts: ForumPost[], validators: Validators | null): void {
    const now = this.deps.now().getTime()
    for (const [k, v] of this.previews) if (now - v.at > PREVIEW_TTL_MS) this.previews.delete(k)
    this.previews.set(key, { at: now, posts, validators })
  }

  /** A client for a preview: the scanner's settings and its rate budget (Reddit counts every request against one limit). */
  private redditClient(subreddits: string[]): RedditClient {
    const { config } = this.deps
    return new RedditClient({
      ...redditAccess(config),
      subreddits,
      ...(this.deps.source.budget ? { budget: this.deps.source.budget } : {}),
      now: () => this.deps.now().getTime(),
    })
  }
}

function describe(e: unknown): string {
  if (e instanceof RedditError) return `${e.kind}: ${e.message}`
  return e instanceof Error ? e.message : String(e)
}
