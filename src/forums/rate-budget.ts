// How often we may ask Reddit, and when to stop asking. Pure logic; every method takes `now`
// (ms since epoch) so tests drive the clock.
//
// Three limits apply together; nextAllowedAt() is the latest of them:
//   1. Our own cap: at most `capPerMinute` requests in any sliding 60 s window (10 public, 100
//      OAuth), counted locally by noteRequest() — holds even when Reddit sends no headers.
//   2. Reddit's word: X-Ratelimit-Remaining (a float, "586.0") for the window that ends in
//      X-Ratelimit-Reset seconds. Under one request left we wait for the reset.
//   3. Backoff after a failure: 429 waits for the reset Reddit names (Retry-After or
//      X-Ratelimit-Reset); 5xx, timeouts, malformed bodies, network and auth failures wait
//      base·2^(n-1) (2 s, 4 s, 8 s … capped at 5 min). A success clears the failure count.
// recommendedIntervalMs() is the scan cadence: the cap spread over a minute with 20% headroom
// (the mode's allowance: 7.5 s public, 0.75 s OAuth), never below 2 s when adaptive, slowed
// further when Reddit's remaining budget would not last until its reset. SCAN_INTERVAL_SECONDS
// replaces the adaptive value, but one faster than the allowance is raised to it (intervalRaise).
//
// Pacing spreads requests evenly instead of spending the cap in a burst and then stalling:
// each request moves nextPacedAt() one interval on. A request sent at most 10 % of an interval
// after its paced time moves it on from that paced time, so timer and set-up latency do not add up
// into a slower cadence; one sent later moves it on from when it was sent; one sent early (an
// admin's scan, a catch-up's next page) from the paced time, so it takes the next slot. A scan of
// several pages therefore pushes the next scan several intervals out. The pages of one catch-up are
// not paced, only capped: the gap they fill should close soon.
//
// Side requests (the re-check of recent posts, src/forums/recheck.ts) take at most `sideShare` of the
// cap (default 0.2 = 20 %), spaced evenly (one every 60 s / (cap × share): 30 s public, 3 s OAuth),
// and never the live scan's share: they count towards the cap and Reddit's remaining, but do not move
// the scan's pacing, and one goes only when (a) the gates allow a request now, (b) the window that
// ends at the scan's next paced time still has room for that scan after it, and (c) Reddit's
// remaining requests (when known) still cover the scan's cadence until the reset after it. Their
// failures back off only the side requests, except a 429 (Reddit's limit is shared).

/**
 * Why a request failed. Beyond the transport and HTTP classes: 'blocked' (Reddit's 403 block page for this
 * address), 'closed' (403 on logged-out JSON, closed since May 2026), 'login_required' (a redirect to the
 * login page), 'forum_missing' (a subreddit banned, private or not found).
 */
export type FailureReason = 'rate_limited' | 'server' | 'timeout' | 'malformed' | 'auth' | 'network' | 'blocked' | 'closed' | 'login_required' | 'forum_missing'

export type RateBudgetOptions = {
  /** requests per minute we allow ourselves: 10 public, 100 OAuth */
  capPerMinute: number
  /** SCAN_INTERVAL_SECONDS; null/undefined = adaptive */
  intervalSeconds?: number | null
  headroom?: number
  minIntervalMs?: number
  baseBackoffMs?: number
  maxBackoffMs?: number
  /** share of the cap side requests (re-checks) may use, 0–1; 0 = none. Default 0.2 */
  sideShare?: number
}

export type HeaderSource = Headers | Record<string, string | null | undefined>

export type BudgetSnapshot = {
  capPerMinute: number
  requestsLastMinute: number
  remaining: number | null
  used: number | null
  resetAt: number | null
  blockedUntil: number
  blockedReason: FailureReason | null
  consecutiveFailures: number
}

const WINDOW_MS = 60_000
/** A request this late (share of the interval) still keeps the pacing grid. */
const PACE_SLACK = 0.1

export const PUBLIC_CAP_PER_MINUTE = 10
export const OAUTH_CAP_PER_MINUTE = 100

export class RateBudget {
  /** requests per minute we allow ourselves now (an admin may set it lower at run time: configure) */
  capPerMinute: number
  /** the most this mode allows (10 public, 100 OAuth): configure never goes above it */
  readonly modeCapPerMinute: number
  /** share of the cap kept unused (0.2) */
  readonly headroom: number
  private readonly minIntervalMs: number
  private readonly baseBackoffMs: number
  private readonly maxBackoffMs: number
  /** the cap over a minute less the headroom: the fastest cadence the cap allows */
  allowanceMs: number
  /** SCAN_INTERVAL_SECONDS in ms, raised to the allowance; null = adaptive */
  private intervalMs: number | null
  /** set when SCAN_INTERVAL_SECONDS was faster than the allowance (worth one warning at startup) */
  intervalRaise: { configuredMs: number; usedMs: number } | null
  private configuredSeconds: number | null
  private sent: number[] = []
  private pacedAt = 0
  private lastSent: number | null = null
  private remaining: number | null = null
  private used: number | null = null
  private resetAt: number | null = null
  private blockedUntil = 0
  private blockedReason: FailureReason | null = null
  private failures = 0
  /** RECHECK_BUDGET_SHARE: share of the cap side requests may use (0 = off) */
  sideShare: number
  private sideSent: number[] = []
  private sideBlockedUntil = 0
  private sideFailures = 0

  constructor(opts: RateBudgetOptions) {
    if (!(opts.capPerMinute > 0)) throw new Error('capPerMinute must be positive')
    this.capPerMinute = opts.capPerMinute
    this.modeCapPerMinute = opts.capPerMinute
    this.headroom = opts.headroom ?? 0.2
    this.minIntervalMs = opts.minIntervalMs ?? 2_000
    this.baseBackoffMs = opts.baseBackoffMs ?? 2_000
    this.maxBackoffMs = opts.maxBackoffMs ?? 300_000
    this.allowanceMs = 0
    this.intervalMs = null
    this.intervalRaise = null
    this.configuredSeconds = null
    this.sideShare = Math.max(0, Math.min(1, opts.sideShare ?? 0.2))
    this.configure({ intervalSeconds: opts.intervalSeconds ?? null })
  }

  /**
   * Changes the cap (at most the mode's) and/or the interval (null = adaptive) at run time, as the
   * admin's scan settings do (src/admin/logs/scan-settings.ts). An interval faster than the cap allows
   * is raised to the allowance, as at startup.
   */
  configure(opts: { capPerMinute?: number; intervalSeconds?: number | null }): void {
    if (opts.capPerMinute !== undefined) {
      if (!(opts.capPerMinute > 0)) throw new Error('capPerMinute must be positive')
      this.capPerMinute = Math.min(opts.capPerMinute, this.modeCapPerMinute)
    }
    if (opts.intervalSeconds !== undefined) this.configuredSeconds = opts.intervalSeconds || null
    this.allowanceMs = Math.ceil(WINDOW_MS / (this.capPerMinute * (1 - this.headroom)))
    const configured = this.configuredSeconds === null ? null : this.configuredSeconds * 1000
    this.intervalMs = configured === null ? null : Math.max(configured, this.allowanceMs)
    this.intervalRaise = configured !== null && configured < this.allowanceMs ? { configuredMs: configured, usedMs: this.allowanceMs } : null
  }

  /** The configured interval in seconds (null = adaptive). */
  get intervalSeconds(): number | null {
    return this.configuredSeconds
  }

  /** Call right before sending a request. */
  noteRequest(now: number): void {
    this.prune(now)
    const interval = this.recommendedIntervalMs(now)
    const onGrid = now >= this.pacedAt && now <= this.pacedAt + interval * PACE_SLACK
    this.pacedAt = (onGrid ? this.pacedAt : Math.max(this.pacedAt, now)) + interval
    this.lastSent = now
    this.sent.push(now)
    if (this.remaining !== null) this.remaining = Math.max(0, this.remaining - 1)
  }

  /** Read Reddit's rate-limit headers from any response (success or not). */
  record(headers: HeaderSource, now: number): void {
    const remaining = num(header(headers, 'x-ratelimit-remaining'))
    const reset = num(header(headers, 'x-ratelimit-reset'))
    const used = num(header(headers, 'x-ratelimit-used'))
    if (remaining !== null) this.remaining = remaining
    if (used !== null) this.used = used
    if (reset !== null) this.resetAt = now + reset * 1000
  }

  /** A request succeeded: failures no longer count towards the next backoff. */
  succeeded(): void {
    this.failures = 0
    this.blockedReason = null
  }

  /**
   * A request failed. 429 blocks until Reddit's reset (retryAfterSeconds, else the last
   * X-Ratelimit-Reset, else exponential); everything else backs off exponentially.
   * Returns the time until which requests are blocked.
   */
  backoff(reason: FailureReason, now: number, retryAfterSeconds?: number | null): number {
    this.failures++
    let wait = Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** (this.failures - 1))
    if (reason === 'rate_limited') {
      if (retryAfterSeconds != null && retryAfterSeconds >= 0) wait = Math.max(1_000, retryAfterSeconds * 1000)
      else if (this.resetAt !== null && this.resetAt > now) wait = this.resetAt - now
      this.remaining = 0
      this.resetAt = now + wait
    }
    this.blockedUntil = Math.max(this.blockedUntil, now + wait)
    this.blockedReason = reason
    return this.blockedUntil
  }

  canRequest(now: number): boolean {
    return this.nextAllowedAt(now) <= now
  }

  /** Earliest time the next request may be sent (== now when it may go now). */
  nextAllowedAt(now: number): number {
    this.prune(now)
    let at = Math.max(now, this.blockedUntil)
    if (this.sent.length >= this.capPerMinute) {
      const oldestThatMustExpire = this.sent[this.sent.length - this.capPerMinute]!
      at = Math.max(at, oldestThatMustExpire + WINDOW_MS)
    }
    if (this.remaining !== null && this.remaining < 1 && this.resetAt !== null && this.resetAt > now) at = Math.max(at, this.resetAt)
    return at
  }

  /** When the last request went out (null: none yet). */
  get lastRequestAt(): number | null {
    return this.lastSent
  }

  /** When the next scheduled request should go: one interval after the last paced one, within the gates. */
  nextPacedAt(now: number): number {
    return Math.max(this.nextAllowedAt(now), this.pacedAt)
  }

  /** The scan interval in ms (see header comment). */
  recommendedIntervalMs(now?: number): number {
    let interval = this.intervalMs ?? Math.max(this.minIntervalMs, this.allowanceMs)
    if (now !== undefined && this.remaining !== null && this.resetAt !== null && this.resetAt > now) {
      const usable = this.remaining * (1 - this.headroom)
      interval = Math.max(interval, usable >= 1 ? (this.resetAt - now) / usable : this.resetAt - now)
    }
    return Math.ceil(interval)
  }

  snapshot(now: number): BudgetSnapshot {
    this.prune(now)
    return {
      capPerMinute: this.capPerMinute,
      requestsLastMinute: this.sent.length,
      remaining: this.remaining,
      used: this.used,
      resetAt: this.resetAt,
      blockedUntil: this.blockedUntil,
      blockedReason: this.blockedUntil > now ? this.blockedReason : null,
      consecutiveFailures: this.failures,
    }
  }

  /** The least time between two side requests: the share of the cap spread over a minute (Infinity when off). */
  sideSpacingMs(): number {
    return this.sideShare > 0 ? Math.ceil(WINDOW_MS / (this.capPerMinute * this.sideShare)) : Number.POSITIVE_INFINITY
  }

  /** Earliest time a side request may go (Infinity when the share is 0). See the header comment. */
  sideAllowedAt(now: number): number {
    const spacing = this.sideSpacingMs()
    if (!Number.isFinite(spacing)) return Number.POSITIVE_INFINITY
    let at = Math.max(this.nextAllowedAt(now), this.sideBlockedUntil)
    const lastSide = this.sideSent.at(-1)
    if (lastSide !== undefined) at = Math.max(at, lastSide + spacing)
    // (b) the scan's next paced request must still fit in its window after this one
    const scanAt = Math.max(this.pacedAt, at)
    const inWindow = this.sent.filter((t) => t > scanAt - WINDOW_MS)
    const excess = inWindow.length + 2 - this.capPerMinute
    if (excess > 0) at = this.pacedAt > at ? this.pacedAt + 1 : Math.max(at, inWindow[excess - 1]! + WINDOW_MS) // after that scan / after enough expire
    // (c) Reddit's remaining must still cover the scan's cadence until the reset
    if (this.remaining !== null && this.resetAt !== null && this.resetAt > at) {
      const base = this.intervalMs ?? Math.max(this.minIntervalMs, this.allowanceMs)
      const scansNeeded = (this.resetAt - at) / base
      if ((this.remaining - 1) * (1 - this.headroom) < scansNeeded) at = Math.max(at, this.resetAt)
    }
    return at
  }

  /** Call right before sending a side request: counted in the cap, the pacing of the scan untouched. */
  noteSideRequest(now: number): void {
    this.prune(now)
    this.sent.push(now)
    this.sent.sort((a, b) => a - b)
    this.sideSent.push(now)
    if (this.remaining !== null) this.remaining = Math.max(0, this.remaining - 1)
  }

  /** A side request failed (not a 429): only side requests back off, 2 s doubling to 5 min. */
  sideBackoff(now: number): number {
    this.sideFailures++
    this.sideBlockedUntil = now + Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** (this.sideFailures - 1))
    return this.sideBlockedUntil
  }

  sideSucceeded(): void {
    this.sideFailures = 0
  }

  /** Side requests sent in the last minute (tests, the bench). */
  sideRequestsLastMinute(now: number): number {
    this.prune(now)
    return this.sideSent.length
  }

  private prune(now: number): void {
    while (this.sent.length > 0 && this.sent[0]! <= now - WINDOW_MS) this.sent.shift()
    while (this.sideSent.length > 0 && this.sideSent[0]! <= now - WINDOW_MS) this.sideSent.shift()
  }
}

function header(h: HeaderSource, name: string): string | null {
  if (h instanceof Headers) return h.get(name)
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return v ?? null
  return null
}

function num(v: string | null): number | null {
  if (v === null || v.trim() === '') return null
  const n = Number(v)
  return Number.isFinite(n) && n >= 0 ? n : null
}
