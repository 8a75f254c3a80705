// Talks to Reddit: one multireddit request per scan, every request gated by the RateBudget, in one of
// three modes (README.md beside this file):
//   atom   — no key (the default): the www Atom feed `/r/A+B/new/.rss`; no flair, no /api/info re-checks
//   oauth  — REDDIT_CLIENT_ID/SECRET (app-only, or the password grant with REDDIT_USERNAME/PASSWORD):
//            `oauth.reddit.com/r/A+B/new`, flairs, /api/info
//   public — logged-out JSON (`/r/A+B/new.json`, REDDIT_MODE=json): closed by Reddit since May 2026 (403)
// Every answer that is not a listing is named: a 403 block page, closed JSON, a login redirect, a banned or
// missing subreddit (probed one by one, then left out while the others are read), a 429 with its wait.
import {
  MalformedListingError,
  parseListingText,
  type FetchNewResult,
  type FetchSinceResult,
  type ForumPost,
  type ForumSource,
  type IsKnown,
} from './listing.ts'
import { infoQuery, parseInfoText, type PostSnapshot } from './info.ts'
import { OAUTH_CAP_PER_MINUTE, PUBLIC_CAP_PER_MINUTE, RateBudget, type FailureReason } from './rate-budget.ts'
import { parseRedditAtom } from './reddit-atom.ts'
import { parseAbout, type AboutResult } from './authors.ts'
import { HealthTracker, type SourceHealth } from './source-health.ts'
import { FeedFormatError } from './xml.ts'

export type RedditErrorKind = FailureReason

export class RedditError extends Error {
  constructor(
    readonly kind: RedditErrorKind,
    message: string,
    readonly details: { status?: number; resetSeconds?: number; retryAt?: number; sent?: boolean } = {},
    readonly cause?: unknown,
  ) {
    super(message)
    this.name = 'RedditError'
  }
}

export type RedditClientOptions = {
  /** default https://www.reddit.com, or https://oauth.reddit.com with credentials */
  baseUrl?: string
  /** default https://www.reddit.com/api/v1/access_token */
  authUrl?: string
  clientId?: string | null
  clientSecret?: string | null
  userAgent: string
  subreddits: string[]
  timeoutMs?: number
  fetch?: typeof fetch
  now?: () => number
  /** SCAN_INTERVAL_SECONDS (null = adaptive) */
  intervalSeconds?: number | null
  /** override the budget (tests); default: 10/min public, 100/min OAuth */
  budget?: RateBudget
  /** RECHECK_BUDGET_SHARE: share of the cap the re-check's /api/info requests may use (default 0.2) */
  recheckShare?: number
  /** fetchSince waits for the budget between pages up to this long, else throws */
  maxWaitMs?: number
  sleep?: (ms: number) => Promise<void>
  /** without credentials: 'atom' (default) or 'json' (logged-out JSON, closed since May 2026) */
  mode?: 'atom' | 'json'
  /** the password grant for a personal "script" app (with clientId/clientSecret) */
  username?: string | null
  password?: string | null
}

export type RedditMode = 'atom' | 'public' | 'oauth'

type Token = { value: string; expiresAt: number }

const DEFAULT_WEB = 'https://www.reddit.com'
const DEFAULT_OAUTH = 'https://oauth.reddit.com'
const DEFAULT_AUTH = 'https://www.reddit.com/api/v1/access_token'
/** Reddit will not page a listing deeper than this. */
export const LISTING_DEPTH = 1000
/** Rotated `limit` values: a different query string misses Reddit's ~30 s edge cache (as PRAW does). */
const LIMITS = [100, 99, 98]
/** The most bytes one answer may have (a 100-entry feed is well under 2 MB). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024
/** A subreddit left out as missing is tried again with the others after this long. */
const MISSING_RETRY_MS = 30 * 60_000

export const CLOSED_JSON = 'Reddit closed logged-out JSON in May 2026: use the Atom feed (unset REDDIT_MODE) or an approved key (REDDIT_CLIENT_ID/SECRET)'
export const BLOCK_PAGE =
  'this address is blocked by Reddit (403 "whoa there, pardner!" block page, common for cloud address ranges): run Dibs from another network, or use an approved key'
export const LOGIN_REDIRECT = 'Reddit sent this request to its login page (logged-out reading refused): use the Atom feed on www.reddit.com, or an approved key'

export class RedditClient implements ForumSource {
  readonly budget: RateBudget
  readonly mode: RedditMode
  readonly health: HealthTracker
  /** /api/info (re-checks, the explainer); absent in Atom mode, where Reddit offers no way to read posts by id */
  readonly fetchInfo?: (redditIds: string[]) => Promise<PostSnapshot[]>
  /** /user/<name>/about (seller trust: account age, karma), OAuth only, on the side share like the re-check */
  readonly fetchAbout?: (name: string) => Promise<AboutResult>
  private readonly base: string
  private readonly authUrl: string
  private subreddits: string[]
  /** subreddit → when it answered missing; left out of the multireddit until MISSING_RETRY_MS later */
  private readonly missing = new Map<string, number>()
  private readonly doFetch: typeof fetch
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private token: Token | null = null
  private limitTurn = 0
  /** listing requests sent so far (not the re-check's): a scan counts its own, failed or not */
  requestsSent = 0

  constructor(private readonly opts: RedditClientOptions) {
    if (!opts.userAgent.trim()) throw new Error('RedditClient needs a descriptive User-Agent')
    this.mode = opts.clientId && opts.clientSecret ? 'oauth' : opts.mode === 'json' ? 'public' : 'atom'
    this.base = (opts.baseUrl ?? (this.mode === 'oauth' ? DEFAULT_OAUTH : DEFAULT_WEB)).replace(/\/+$/, '')
    this.authUrl = opts.authUrl ?? DEFAULT_AUTH
    this.subreddits = opts.subreddits.map((s) => s.replace(/^\/?r\//i, ''))
    this.health = new HealthTracker(`reddit ${this.mode} r/${this.subreddits.join('+')}`)
    if (this.mode !== 'atom') this.fetchInfo = (ids) => this.readInfo(ids)
    if (this.mode === 'oauth') this.fetchAbout = (name) => this.readAbout(name)
    this.doFetch = opts.fetch ?? fetch
    this.now = opts.now ?? Date.now
    this.sleep = opts.sleep ?? ((ms) => Bun.sleep(ms))
    this.budget =
      opts.budget ??
      new RateBudget({
        capPerMinute: this.mode === 'oauth' ? OAUTH_CAP_PER_MINUTE : PUBLIC_CAP_PER_MINUTE,
        intervalSeconds: opts.intervalSeconds,
        sideShare: opts.recheckShare,
      })
  }

  /**
   * The current state of up to 100 posts (the re-check): one /api/info request on the budget's side
   * share, never the live scan's (rate-budget.ts). Throws RedditError like fetchNew; a request the
   * side share does not allow now throws 'rate_limited' with sent === false, sending nothing.
   */
  private async readInfo(redditIds: string[]): Promise<PostSnapshot[]> {
    const query = new URLSearchParams({ id: infoQuery(redditIds), raw_json: '1' })
    const path = this.mode === 'oauth' ? '/api/info' : '/api/info.json'
    const text = await this.get(`${this.base}${path}?${query}`, true)
    try {
      const posts = parseInfoText(text)
      this.budget.sideSucceeded()
      return posts
    } catch (e) {
      if (!(e instanceof MalformedListingError)) throw e
      this.budget.sideBackoff(this.now())
      throw new RedditError('malformed', e.message, { sent: true }, e)
    }
  }

  /**
   * One author's account (seller trust): /user/<name>/about on the side share. A 404 (deleted or never existed) and a
   * suspended account answer 'missing'; other failures throw RedditError as readInfo does.
   */
  private async readAbout(name: string): Promise<AboutResult> {
    const url = `${this.base}/user/${encodeURIComponent(name)}/about?raw_json=1`
    let text: string
    try {
      text = await this.get(url, true)
    } catch (e) {
      if (e instanceof RedditError && (e.details.status === 404 || e.kind === 'forum_missing')) {
        this.budget.sideSucceeded()
        return { status: 'missing' }
      }
      throw e
    }
    try {
      const about = parseAbout(text)
      this.budget.sideSucceeded()
      return about
    } catch (e) {
      this.budget.sideBackoff(this.now())
      throw new RedditError('malformed', `about ${name}: ${e instanceof Error ? e.message : String(e)}`, { sent: true }, e)
    }
  }

  /**
   * One listing page, newest first. Throws RedditError; when the budget forbids a request it
   * throws kind 'rate_limited' with details.sent === false and details.retryAt, sending nothing.
   */
  async fetchNew(opts: { after?: string; limit?: number } = {}): Promise<FetchNewResult & { skipped: number }> {
    const limit = opts.limit ?? LIMITS[this.limitTurn++ % LIMITS.length]!
    const subs = this.readable()
    try {
      return await this.listing(subs, { ...opts, limit })
    } catch (e) {
      // One dead subreddit must not stop the others: find which answers missing, leave it out, read the rest.
      if (!(e instanceof RedditError) || e.kind !== 'forum_missing' || subs.length < 2) throw e
      const alive: string[] = []
      for (const sub of subs) {
        await this.waitForBudget()
        try {
          await this.listing([sub], { limit: 1 }, true)
          alive.push(sub)
        } catch (probe) {
          if (!(probe instanceof RedditError) || probe.kind !== 'forum_missing') throw probe
          this.missing.set(sub, this.now())
        }
      }
      if (alive.length === 0) throw e
      await this.waitForBudget()
      return await this.listing(alive, { ...opts, limit })
    }
  }

  /** The subreddits one request reads (all enabled reddit sources); none: the client is idle and the scanner asks nothing. */
  get subredditList(): readonly string[] {
    return this.subreddits
  }

  /** Sources changed (Admin → Logs, `dibs sources`): read these from the next poll on, without a restart. */
  setSubreddits(subreddits: string[]): void {
    this.subreddits = subreddits.map((s) => s.replace(/^\/?r\//i, ''))
    for (const sub of this.missing.keys()) if (!this.subreddits.includes(sub)) this.missing.delete(sub)
  }

  /** The health of this source (Admin → Logs and Dashboard, /metrics, /readyz, doctor). */
  healthReport(): SourceHealth {
    const now = this.now()
    const next = this.budget.nextAllowedAt(now)
    return this.health.report(now, next > now ? next : null)
  }

  /** The subreddits read now: all but those that answered missing within MISSING_RETRY_MS. */
  private readable(): string[] {
    const now = this.now()
    for (const [sub, at] of this.missing) if (now - at >= MISSING_RETRY_MS) this.missing.delete(sub)
    const subs = this.subreddits.filter((s) => !this.missing.has(s))
    return subs.length > 0 ? subs : this.subreddits
  }

  /** One request for the newest posts of `subs`, newest first. */
  private async listing(subs: string[], opts: { after?: string; limit: number }, probe = false): Promise<FetchNewResult & { skipped: number }> {
    const multi = subs.join('+')
    const query = new URLSearchParams({ limit: String(Math.max(1, Math.min(100, opts.limit))) })
    if (this.mode !== 'atom') query.set('raw_json', '1')
    if (opts.after) query.set('after', opts.after)
    // OAuth host: /r/A+B/new (what PRAW sends); www: /r/A+B/new/.rss (Atom) or /r/A+B/new.json (closed)
    const path = `/r/${multi}/new${this.mode === 'oauth' ? '' : this.mode === 'atom' ? '/.rss' : '.json'}`
    const started = this.now()
    const text = await this.get(`${this.base}${path}?${query}`)
    try {
      const listing = this.mode === 'atom' ? atomListing(text, this.now()) : parseListingText(text)
      this.budget.succeeded()
      if (!probe) this.health.ok(this.now(), this.now() - started, [...this.missing.keys()])
      return { posts: listing.posts, after: listing.after, skipped: listing.skipped }
    } catch (e) {
      if (!(e instanceof MalformedListingError) && !(e instanceof FeedFormatError)) throw e
      this.budget.backoff('malformed', this.now())
      const err = new RedditError('malformed', `Reddit's answer could not be read: ${e.message}`, { sent: true }, e)
      this.health.failed(this.now(), 'malformed', err.message)
      throw err
    }
  }

  /**
   * Pages back from the newest post until one is known, the listing depth (1000) or maxPages
   * is reached. Returns the unknown posts oldest first (deduplicated by id). Between pages it
   * waits for the budget (up to maxWaitMs, default 60 s); any error aborts the whole catch-up so
   * the caller never stores a newer slice while an older gap stays unfetched.
   */
  async fetchSince(isKnown: IsKnown, opts: { maxPages?: number } = {}): Promise<FetchSinceResult> {
    const maxPages = opts.maxPages ?? Math.ceil(LISTING_DEPTH / 98)
    const fresh: ForumPost[] = []
    const seen = new Set<string>()
    let after: string | undefined
    let pages = 0
    let depth = 0
    while (pages < maxPages && depth < LISTING_DEPTH) {
      if (pages > 0) await this.waitForBudget()
      const page = await this.fetchNew({ after })
      pages++
      depth += page.posts.length
      const before = fresh.length
      // The page's stored posts are kept as they read now (re-checks without /api/info); entries older
      // than the first stored one are not new (as before: the catch-up ends there).
      const knownIds = new Set<string>()
      for (const p of page.posts) if (await isKnown(p.redditId)) knownIds.add(p.redditId)
      const known = page.posts.filter((p) => knownIds.has(p.redditId))
      for (const post of page.posts) {
        if (knownIds.has(post.redditId)) return { posts: fresh.reverse(), pages, reachedKnown: true, known }
        if (seen.has(post.redditId)) continue
        seen.add(post.redditId)
        fresh.push(post)
      }
      // a page with nothing new (a feed that ignores `after` repeats its first page): paging on would only spend the budget
      if (page.after === null || page.posts.length === 0 || fresh.length === before) break
      after = page.after
    }
    return { posts: fresh.reverse(), pages, reachedKnown: false }
  }

  private async waitForBudget(): Promise<void> {
    const now = this.now()
    const at = this.budget.nextAllowedAt(now)
    if (at <= now) return
    const max = this.opts.maxWaitMs ?? 60_000
    if (at - now > max) throw this.notNow(now)
    await this.sleep(at - now)
  }

  private notNow(now: number, side = false): RedditError {
    const retryAt = side ? this.budget.sideAllowedAt(now) : this.budget.nextAllowedAt(now)
    return new RedditError('rate_limited', `Reddit budget exhausted; next request allowed in ${Math.ceil((retryAt - now) / 1000)} s`, {
      retryAt,
      resetSeconds: Math.ceil((retryAt - now) / 1000),
      sent: false,
    })
  }

  /**
   * GET with budget gate, auth and one token refresh on 401. Returns the body text of a 200.
   * `side`: a re-check request, gated and counted on the budget's side share.
   */
  private async get(url: string, side = false): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const now = this.now()
      if (side ? this.budget.sideAllowedAt(now) > now : !this.budget.canRequest(now)) throw this.notNow(now, side)
      const headers: Record<string, string> = { 'User-Agent': this.opts.userAgent, Accept: 'application/json' }
      if (this.mode === 'oauth') headers.Authorization = `bearer ${await this.accessToken()}`
      if (side) this.budget.noteSideRequest(this.now())
      else {
        this.budget.noteRequest(this.now())
        this.requestsSent++
      }
      if (this.mode === 'atom') headers.Accept = 'application/atom+xml'
      const res = await this.send(url, { headers, redirect: 'manual' }, side)
      this.budget.record(res.headers, this.now())
      this.health.noteRequest(this.now(), res.status)
      if (res.status === 200) return this.readBody(res, side)
      if (res.status === 401 && this.mode === 'oauth' && attempt === 0) {
        await res.body?.cancel().catch(() => {})
        this.token = null // expired or revoked early: fetch a new one, retry once
        continue
      }
      const err = await this.failure(res, side)
      if (!side) this.health.failed(this.now(), err.kind, err.message)
      throw err
    }
  }

  private async failure(res: Response, side = false): Promise<RedditError> {
    const status = res.status
    const body = status === 403 || status === 404 ? await readCapped(res, 64 * 1024).catch(() => '') : (await res.body?.cancel().catch(() => {}), '')
    const now = this.now()
    if (status === 429) {
      const reset = num(res.headers.get('retry-after')) ?? num(res.headers.get('x-ratelimit-reset'))
      const retryAt = this.budget.backoff('rate_limited', now, reset)
      return new RedditError('rate_limited', `Reddit rate limit hit (429); reset in ${Math.ceil((retryAt - now) / 1000)} s`, {
        status,
        resetSeconds: Math.ceil((retryAt - now) / 1000),
        retryAt,
        sent: true,
      })
    }
    const { kind, message } = refusal(this.mode, status, res.headers.get('location'), body)
    const retryAt = side ? this.budget.sideBackoff(now) : this.budget.backoff(kind, now)
    return new RedditError(kind, message, { status, retryAt, sent: true })
  }

  private async readBody(res: Response, side = false): Promise<string> {
    try {
      return await readCapped(res, MAX_BODY_BYTES)
    } catch (e) {
      if (e instanceof FeedFormatError) {
        const retryAt = side ? this.budget.sideBackoff(this.now()) : this.budget.backoff('malformed', this.now())
        const err = new RedditError('malformed', `Reddit's answer could not be read: ${e.message}`, { retryAt, sent: true }, e)
        if (!side) this.health.failed(this.now(), 'malformed', err.message)
        throw err
      }
      throw this.transportError(e, side)
    }
  }

  private async send(url: string, init: RequestInit, side = false): Promise<Response> {
    try {
      return await this.doFetch(url, { ...init, signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000) })
    } catch (e) {
      throw this.transportError(e, side)
    }
  }

  private transportError(e: unknown, side = false): RedditError {
    const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
    const kind = timeout ? 'timeout' : 'network'
    const retryAt = side ? this.budget.sideBackoff(this.now()) : this.budget.backoff(kind, this.now())
    const msg = timeout ? `Reddit did not answer within ${this.opts.timeoutMs ?? 15_000} ms` : `Reddit unreachable: ${String(e)}`
    if (!side) {
      this.health.noteRequest(this.now(), 0)
      this.health.failed(this.now(), kind, msg)
    }
    return new RedditError(kind, msg, { retryAt, sent: true }, e)
  }

  /** App-only token (client_credentials), cached until 60 s before it expires. */
  private async accessToken(): Promise<string> {
    const now = this.now()
    if (this.token && now < this.token.expiresAt - 60_000) return this.token.value
    const basic = btoa(`${this.opts.clientId}:${this.opts.clientSecret}`)
    const res = await this.send(this.authUrl, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'User-Agent': this.opts.userAgent,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body:
        this.opts.username && this.opts.password
          ? new URLSearchParams({ grant_type: 'password', username: this.opts.username, password: this.opts.password }).toString()
          : 'grant_type=client_credentials',
    })
    let body: Record<string, unknown> | null = null
    try {
      body = (await res.json()) as Record<string, unknown>
    } catch {
      body = null
    }
    // Reddit reports some token errors as 200 with {"error": "..."}
    if (res.status !== 200 || !body || typeof body.access_token !== 'string' || body.error) {
      const kind: FailureReason = res.status >= 500 ? 'server' : 'auth'
      const retryAt = this.budget.backoff(kind, this.now())
      const why = body?.error ?? body?.message ?? `HTTP ${res.status}`
      const err = new RedditError(kind, `Reddit token request failed: ${String(why)}`, { status: res.status, retryAt, sent: true })
      this.health.failed(this.now(), kind, `${err.message}: check REDDIT_CLIENT_ID/SECRET (and REDDIT_USERNAME/PASSWORD for a script app)`)
      throw err
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600
    this.token = { value: body.access_token, expiresAt: this.now() + expiresIn * 1000 }
    return this.token.value
  }
}

/**
 * What a non-200, non-429 answer means, in words with the fix: a login redirect, Reddit's block page,
 * a banned/private/missing subreddit, closed logged-out JSON, a refused key, or a server error. Pure:
 * the client and `dibs doctor` both read answers through it.
 */
export function refusal(mode: RedditMode, status: number, location: string | null, body: string): { kind: FailureReason; message: string } {
  if (status >= 300 && status < 400) {
    const to = location ?? ''
    if (/\/(login|register|account\/login)\b/i.test(to)) return { kind: 'login_required', message: LOGIN_REDIRECT }
    return { kind: 'server', message: `Reddit redirected the request to ${to.slice(0, 200) || 'nowhere'} (HTTP ${status})` }
  }
  if (status === 403 && /whoa there|blocked due to a network policy|<title>\s*blocked/i.test(body)) return { kind: 'blocked', message: BLOCK_PAGE }
  const reason = /"reason"\s*:\s*"(\w+)"/.exec(body)?.[1]
  if (status === 404 || (status === 403 && (reason === 'private' || reason === 'banned' || reason === 'quarantined')))
    return { kind: 'forum_missing', message: `a subreddit of the request answered ${reason ?? 'not found'} (HTTP ${status})` }
  if (status === 403 && mode === 'public') return { kind: 'closed', message: CLOSED_JSON }
  if (status === 401 || status === 403)
    return {
      kind: 'auth',
      message:
        mode === 'oauth'
          ? `Reddit refused the key (HTTP ${status}): check REDDIT_CLIENT_ID/SECRET, and that the app is approved`
          : `Reddit refused the request (HTTP ${status})`,
    }
  return { kind: 'server', message: `Reddit answered HTTP ${status}` }
}

/** An Atom page as a listing: `after` is the oldest entry's fullname (Reddit pages its feeds with ?after=). */
function atomListing(text: string, now: number): { posts: ForumPost[]; after: string | null; skipped: number } {
  const { posts, skipped } = parseRedditAtom(text, now)
  return { posts, after: posts.at(-1)?.name ?? null, skipped }
}

/**
 * The body as UTF-8 text, read up to `max` bytes: a larger body is cancelled and refused (whatever
 * Content-Length said, chunked included), and bytes that are not UTF-8 are refused, both as FeedFormatError.
 */
export async function readCapped(res: Response, max: number): Promise<string> {
  const bytes = await readCappedBytes(res, max)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new FeedFormatError('the answer is not valid UTF-8')
  }
}

/** The body's bytes, read up to `max`: a larger body is cancelled and refused as FeedFormatError. */
export async function readCappedBytes(res: Response, max: number): Promise<Uint8Array> {
  const reader = res.body?.getReader()
  if (!reader) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      throw new FeedFormatError(`the answer is larger than ${Math.round(max / 1024 / 1024)} MB`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

function num(v: string | null): number | null {
  if (v === null || v.trim() === '') return null
  const n = Number(v)
  return Number.isFinite(n) && n >= 0 ? n : null
}
