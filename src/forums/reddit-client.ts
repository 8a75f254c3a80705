// Talks to Reddit: one multireddit listing request per scan, app-only OAuth when credentials
// are configured, every request gated by the RateBudget. See README.md beside this file.
import { MalformedListingError, parseListingText, type FetchNewResult, type FetchSinceResult, type ForumPost, type ForumSource } from './listing.ts'
import { infoQuery, parseInfoText, type PostSnapshot } from './info.ts'
import { OAUTH_CAP_PER_MINUTE, PUBLIC_CAP_PER_MINUTE, RateBudget, type FailureReason } from './rate-budget.ts'

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
}

type Token = { value: string; expiresAt: number }

const DEFAULT_WEB = 'https://www.reddit.com'
const DEFAULT_OAUTH = 'https://oauth.reddit.com'
const DEFAULT_AUTH = 'https://www.reddit.com/api/v1/access_token'
/** Reddit will not page a listing deeper than this. */
export const LISTING_DEPTH = 1000
/** Rotated `limit` values: a different query string misses Reddit's ~30 s edge cache (as PRAW does). */
const LIMITS = [100, 99, 98]

export class RedditClient implements ForumSource {
  readonly budget: RateBudget
  readonly mode: 'public' | 'oauth'
  private readonly base: string
  private readonly authUrl: string
  private readonly multi: string
  private readonly doFetch: typeof fetch
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private token: Token | null = null
  private limitTurn = 0

  constructor(private readonly opts: RedditClientOptions) {
    if (opts.subreddits.length === 0) throw new Error('RedditClient needs at least one subreddit')
    if (!opts.userAgent.trim()) throw new Error('RedditClient needs a descriptive User-Agent')
    this.mode = opts.clientId && opts.clientSecret ? 'oauth' : 'public'
    this.base = (opts.baseUrl ?? (this.mode === 'oauth' ? DEFAULT_OAUTH : DEFAULT_WEB)).replace(/\/+$/, '')
    this.authUrl = opts.authUrl ?? DEFAULT_AUTH
    this.multi = opts.subreddits.map((s) => s.replace(/^\/?r\//i, '')).join('+')
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
  async fetchInfo(redditIds: string[]): Promise<PostSnapshot[]> {
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
   * One listing page, newest first. Throws RedditError; when the budget forbids a request it
   * throws kind 'rate_limited' with details.sent === false and details.retryAt, sending nothing.
   */
  async fetchNew(opts: { after?: string; limit?: number } = {}): Promise<FetchNewResult & { skipped: number }> {
    const limit = opts.limit ?? LIMITS[this.limitTurn++ % LIMITS.length]!
    const query = new URLSearchParams({ limit: String(Math.max(1, Math.min(100, limit))), raw_json: '1' })
    if (opts.after) query.set('after', opts.after)
    // OAuth host: /r/A+B/new (what PRAW sends); public host: /r/A+B/new.json
    const path = `/r/${this.multi}/new${this.mode === 'oauth' ? '' : '.json'}`
    const text = await this.get(`${this.base}${path}?${query}`)
    try {
      const listing = parseListingText(text)
      this.budget.succeeded()
      return { posts: listing.posts, after: listing.after, skipped: listing.skipped }
    } catch (e) {
      if (!(e instanceof MalformedListingError)) throw e
      this.budget.backoff('malformed', this.now())
      throw new RedditError('malformed', e.message, { sent: true }, e)
    }
  }

  /**
   * Pages back from the newest post until one is known, the listing depth (1000) or maxPages
   * is reached. Returns the unknown posts oldest first (deduplicated by id). Between pages it
   * waits for the budget (up to maxWaitMs, default 60 s); any error aborts the whole catch-up so
   * the caller never stores a newer slice while an older gap stays unfetched.
   */
  async fetchSince(isKnown: (redditId: string) => boolean, opts: { maxPages?: number } = {}): Promise<FetchSinceResult> {
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
      for (const post of page.posts) {
        if (isKnown(post.redditId)) return { posts: fresh.reverse(), pages, reachedKnown: true }
        if (seen.has(post.redditId)) continue
        seen.add(post.redditId)
        fresh.push(post)
      }
      if (page.after === null || page.posts.length === 0) break
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
      else this.budget.noteRequest(this.now())
      const res = await this.send(url, { headers }, side)
      this.budget.record(res.headers, this.now())
      if (res.status === 200) return this.readBody(res, side)
      await res.body?.cancel().catch(() => {})
      if (res.status === 401 && this.mode === 'oauth' && attempt === 0) {
        this.token = null // expired or revoked early: fetch a new one, retry once
        continue
      }
      throw this.failure(res, side)
    }
  }

  private failure(res: Response, side = false): RedditError {
    const now = this.now()
    const status = res.status
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
    const kind: FailureReason = status === 401 || status === 403 ? 'auth' : 'server'
    const retryAt = side ? this.budget.sideBackoff(now) : this.budget.backoff(kind, now)
    return new RedditError(kind, `Reddit answered HTTP ${status}`, { status, retryAt, sent: true })
  }

  private async readBody(res: Response, side = false): Promise<string> {
    try {
      return await res.text()
    } catch (e) {
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
      body: 'grant_type=client_credentials',
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
      throw new RedditError(kind, `Reddit token request failed: ${String(why)}`, { status: res.status, retryAt, sent: true })
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600
    this.token = { value: body.access_token, expiresAt: this.now() + expiresIn * 1000 }
    return this.token.value
  }
}

function num(v: string | null): number | null {
  if (v === null || v.trim() === '') return null
  const n = Number(v)
  return Number.isFinite(n) && n >= 0 ? n : null
}
