// The scanner's state for the Logs page: running, paused (emergency pause), waiting for the rate
// budget, failing since the first failed scan after the last success, or idle until the next scan.
// Checked in that order: a scan in flight is 'running' whatever else holds. The scan log, the next
// scan's time, coverage gaps and the forums' last posts come from src/scanner; unreadable posts from
// src/forums/stats.ts.
import type { Deps } from '../../deps'
import { forumActivity, newestPostAt } from '../../scanner/forum-activity'
import { cannotRead } from '../../forums/source-health'
import { unparsedPostsSince, type UnparsedPost } from '../../forums/stats'
import type { ScanSource, WithSource } from '../../scanner/source'
import { isPaused } from '../../settings/service'
import { forumNotice } from '../../scanner/source'
import { gapSummary } from '../../scanner/gaps'
import { nextScanAt, scanStreak } from '../../scanner/scan-history'
import { RECHECK_AT_MS } from '../../forums/recheck'

export type ScannerState = 'running' | 'paused' | 'waiting' | 'failing' | 'idle'

export async function scannerStatus(deps: Pick<Deps, 'db' | 'now' | 'config'> & WithSource) {
  const now = deps.now().getTime()
  const b = deps.source.budget
  const { last, lastSuccessAt, failingSince } = await scanStreak(deps)
  const nextAt = await nextScanAt(deps)
  const allowedAt = b ? b.nextAllowedAt(now) : now
  const snap = b?.snapshot(now)
  const paused = await isPaused(deps)
  const health = deps.source.healthReport?.() ?? null
  const state: ScannerState = deps.source.running ? 'running' : paused ? 'paused' : failingSince !== null ? 'failing' : allowedAt > now ? 'waiting' : 'idle'
  return {
    state,
    paused,
    running: Boolean(deps.source.running),
    waitingUntil: allowedAt > now ? new Date(allowedAt).toISOString() : null,
    waitingReason: allowedAt > now ? (snap?.blockedReason ?? 'cap') : null,
    /** why no request may go now, in words with the fix (waitWhy) */
    waitingWhy: waitWhy(deps.source, now),
    failingSince: failingSince !== null ? new Date(failingSince).toISOString() : null,
    lastError: last?.status === 'failed' ? last.error : null,
    lastScanAt: last ? new Date(last.at).toISOString() : null,
    lastSuccessAt: lastSuccessAt !== null ? new Date(lastSuccessAt).toISOString() : null,
    nextScanAt: paused ? null : nextAt,
    mode: deps.source.mode ?? null,
    unparsed: await unparsedPosts(deps, now),
    /** the source's health: state, the reason in words with the fix, last success, requests and 429/403 of the last hour */
    health,
    /** how sold/removed re-checks work with this source: /api/info with a key, later polls of the feed without */
    recheck: recheckNote(deps.source),
    /** coverage gaps (src/scanner/gaps.ts) whose window ended in the last 24 h: windows, seconds not covered */
    gaps24h: await gapSummary(deps, now - 24 * 3600_000),
    /** a configured forum Reddit has closed (the spec's default accessories forum), in words with the fix */
    forumNotice: await forumNotice(deps),
    /** per forum, the newest post stored, its rhythm and a flag when it went quiet (banned, dropped from a multireddit) */
    lastPostPerForum: await forumActivity(deps, health?.missingForums ?? []),
    /** the newest post stored from the source (ISO), null when none */
    lastPostAt: await newestPostAt(deps),
  }
}

/**
 * Why the source may not be asked now, in words: a source that cannot read says its reason with the fix
 * (a block page, a login redirect, a failing Reddit); else what in the rate budget holds the request.
 * Null when a request may go now.
 */
export function waitWhy(source: ScanSource, now: number): string | null {
  const b = source.budget
  if (!b || b.nextAllowedAt(now) <= now) return null
  const h = source.healthReport?.()
  if (cannotRead(h)) return h.reason
  const snap = b.snapshot(now)
  if (snap.blockedReason === 'rate_limited') return 'Reddit asked Dibs to slow down (HTTP 429) and said when to ask again'
  if (snap.blockedReason) return `the last request failed (${snap.blockedReason.replace('_', ' ')}): Dibs waits a little longer after each failure`
  if (snap.remaining !== null && snap.remaining < 1) return "Reddit's allowance for this window is used up until it resets"
  return `the ${snap.capPerMinute === 1 ? '1 request' : `${snap.capPerMinute} requests`} a minute Dibs allows itself ${snap.capPerMinute === 1 ? 'is' : 'are'} used (Scan settings)`
}

/** Sold/removed re-checks in words: what this installation does, and (without a key) what it cannot. */
export function recheckNote(source: Pick<ScanSource, 'fetchInfo' | 'mode'>): string {
  if (source.mode === 'demo') return "Sold/removed re-checks: the demo forum answers them itself, as Reddit's /api/info would."
  if (source.fetchInfo)
    return `Sold/removed re-checks read Reddit's /api/info with the key: each stored post is re-read ${RECHECK_AT_MS.length} times over its first ${RECHECK_AT_MS.at(-1)! / 3600_000} h.`
  return 'Sold/removed re-checks come only from later polls of the feed (no Reddit key, so no /api/info): a post marked sold or pending in its title or text is seen only while it is still among the newest entries; a post that has left the feed keeps the state it had, and a removal is not seen (the feed drops removed posts).'
}

/** Posts of the last 24 hours that could not be read (stored unparsed, never matched), the newest 5. */
async function unparsedPosts(deps: Pick<Deps, 'db'>, now: number): Promise<{ last24h: number; recent: UnparsedPost[] }> {
  const { count, recent } = await unparsedPostsSince(deps, now - 24 * 3600_000, 5)
  return { last24h: count, recent }
}
