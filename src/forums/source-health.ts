// The health of one forum source, in words an operator can act on: its state, why, since when, the last
// success, the requests and 429/403 answers of the last hour, and the next try. Kept by the source as it
// works (RedditClient calls ok/failed); read by Admin → Logs and Dashboard, /metrics, /readyz and
// `dibs doctor`. A change of state is logged once. Pure apart from that log line.
import { log } from '../lib/log'
import type { FailureReason } from './rate-budget'

export type HealthState = 'ok' | 'slow' | 'failing' | 'forum_missing' | 'blocked' | 'login_required'

export type SourceHealth = {
  name: string
  state: HealthState
  /** the reason in words, with what to do; null when ok */
  reason: string | null
  /** when the current state began (ISO) */
  since: string | null
  lastSuccessAt: string | null
  lastFailureAt: string | null
  requestsLastHour: number
  rateLimitedLastHour: number
  forbiddenLastHour: number
  /** subreddits that answered banned, private or not found: left out of the request until they answer again */
  missingForums: string[]
  nextTryAt: string | null
}

const HOUR_MS = 3600_000
/** A success slower than this reads 'slow'. */
export const SLOW_MS = 10_000

/** A state in words ('login required', 'forum missing'). */
export function stateWords(state: HealthState): string {
  return state.replace('_', ' ')
}

/**
 * A source that cannot read at all now: failing, blocked or asked to log in. Not 'slow' (it reads) nor
 * 'forum_missing' (the other forums are still read).
 */
export function cannotRead(h: SourceHealth | null | undefined): h is SourceHealth & { reason: string } {
  return h != null && h.reason !== null && (h.state === 'failing' || h.state === 'blocked' || h.state === 'login_required')
}

/** A source in trouble in one line ("blocked: this address is blocked by Reddit …"), or null when it is ok or unknown. */
export function troubleText(h: SourceHealth | null | undefined): string | null {
  return h && h.state !== 'ok' ? `${stateWords(h.state)}: ${h.reason ?? 'no reason given'}` : null
}

/** The state a failure puts a source in. */
export function stateOf(kind: FailureReason): HealthState {
  if (kind === 'blocked' || kind === 'closed') return 'blocked'
  if (kind === 'login_required') return 'login_required'
  if (kind === 'forum_missing') return 'forum_missing'
  return 'failing'
}

export class HealthTracker {
  private state: HealthState = 'ok'
  private reason: string | null = null
  private since: number | null = null
  private lastSuccess: number | null = null
  private lastFailure: number | null = null
  private readonly requests: { at: number; status: number }[] = []
  private missing: string[] = []

  constructor(private readonly name: string) {}

  /** Every answered request (status 0: no answer). */
  noteRequest(at: number, status: number): void {
    this.requests.push({ at, status })
    this.prune(at)
  }

  ok(at: number, tookMs: number, missing: string[] = this.missing): void {
    this.lastSuccess = at
    this.missing = missing
    if (missing.length > 0)
      this.set(
        'forum_missing',
        at,
        `${missing.map((m) => `r/${m}`).join(', ')} answered banned, private or not found: the other forums are still read; point the forum elsewhere (Admin → Logs, or ACCESSORIES_SUBREDDIT / DEALS_SUBREDDIT)`,
      )
    else if (tookMs > SLOW_MS) this.set('slow', at, `Reddit took ${Math.round(tookMs / 1000)} s to answer`)
    else this.set('ok', at, null)
  }

  failed(at: number, kind: FailureReason, reason: string): void {
    this.lastFailure = at
    this.set(stateOf(kind), at, reason)
  }

  report(now: number, nextTryAt: number | null): SourceHealth {
    this.prune(now)
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString())
    return {
      name: this.name,
      state: this.state,
      reason: this.reason,
      since: iso(this.since),
      lastSuccessAt: iso(this.lastSuccess),
      lastFailureAt: iso(this.lastFailure),
      requestsLastHour: this.requests.length,
      rateLimitedLastHour: this.requests.filter((r) => r.status === 429).length,
      forbiddenLastHour: this.requests.filter((r) => r.status === 403).length,
      missingForums: [...this.missing],
      nextTryAt: iso(nextTryAt),
    }
  }

  private set(state: HealthState, at: number, reason: string | null): void {
    const changed = state !== this.state || reason !== this.reason
    if (state !== this.state) {
      this.since = at
      if (state === 'ok') log.info(`source ${this.name} is ok again`)
      else log.warn(`source ${this.name} is ${state.replace('_', ' ')}: ${reason}`)
    } else if (changed && state !== 'ok') log.warn(`source ${this.name} is ${state.replace('_', ' ')}: ${reason}`)
    this.state = state
    this.reason = reason
    this.since ??= at
  }

  private prune(now: number): void {
    while (this.requests.length > 0 && this.requests[0]!.at < now - HOUR_MS) this.requests.shift()
  }
}
