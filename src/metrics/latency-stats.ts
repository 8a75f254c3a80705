// Alert latency percentiles per stage and end to end, over 1 h / 24 h / 7 d (the admin pages and
// GET /api/admin/latency). Pure apart from latencyRows; percentiles are nearest-rank (src/lib/percentile.ts).
import { desc, gte } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { alertLatency } from '../db/schema'
import { percentile } from '../lib/percentile'

export const LATENCY_WINDOWS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const
export type LatencyWindow = keyof typeof LATENCY_WINDOWS

export type LatencyRow = {
  created_at: number | null
  received_at: number | null
  stored_at: number | null
  matched_at: number
  socket_at: number | null
  push_at: number | null
  email_at: number | null
  /** the user's first open or claim of the alert, and the channel it came through (app, push, email, …) */
  claimed_at: number | null
  claim_channel: string | null
}
type Col = Exclude<keyof LatencyRow, 'claim_channel'>

/** The steps of an alert's path, in order; each stage is the time between two of them. */
export const STAGES: { key: string; label: string; from: Col; to: Col }[] = [
  { key: 'created_received', label: 'Posted on Reddit → listing received', from: 'created_at', to: 'received_at' },
  { key: 'received_stored', label: 'Listing received → post stored', from: 'received_at', to: 'stored_at' },
  { key: 'stored_matched', label: 'Post stored → match recorded', from: 'stored_at', to: 'matched_at' },
  { key: 'matched_socket', label: 'Match → socket message sent', from: 'matched_at', to: 'socket_at' },
  { key: 'matched_push', label: 'Match → push accepted by the push service', from: 'matched_at', to: 'push_at' },
  { key: 'matched_email', label: 'Match → email accepted by the mail server', from: 'matched_at', to: 'email_at' },
]

/** From the post's Reddit time to each channel: what a subscriber feels. */
export const END_TO_END: { key: string; label: string; channel: 'socket' | 'push' | 'email'; from: Col; to: Col }[] = [
  { key: 'created_socket', label: 'Posted → on screen (socket)', channel: 'socket', from: 'created_at', to: 'socket_at' },
  { key: 'created_push', label: 'Posted → push accepted', channel: 'push', from: 'created_at', to: 'push_at' },
  { key: 'created_email', label: 'Posted → email accepted', channel: 'email', from: 'created_at', to: 'email_at' },
]

export type StageFigures = { key: string; label: string; count: number; p50Ms: number | null; p95Ms: number | null; p99Ms: number | null }
/** Where a user first opened or claimed an alert, in the order the report lists them (others follow by name). */
export const CLAIM_CHANNELS: { channel: string; label: string }[] = [
  { channel: 'app', label: 'the match card' },
  { channel: 'push', label: 'a push' },
  { channel: 'email', label: 'an email' },
]

export type LatencyReport = {
  window: LatencyWindow
  since: string
  alerts: number
  stages: StageFigures[]
  endToEnd: StageFigures[]
  /** post → the user's first open or claim, per channel it came through: the number the product exists to make small */
  postToClaim: StageFigures[]
}

/** Post → claim per channel: p50/p95/p99 of claimed_at − created_at over the alerts claimed through each one. */
export function claimFigures(rows: readonly LatencyRow[]): StageFigures[] {
  const channels = [...new Set(rows.filter((r) => r.claimed_at !== null && r.claim_channel !== null).map((r) => r.claim_channel!))]
  const known = CLAIM_CHANNELS.map((c) => c.channel)
  channels.sort((a, b) => (known.indexOf(a) + 1 || 99) - (known.indexOf(b) + 1 || 99) || a.localeCompare(b))
  return channels.map((channel) => {
    const label = CLAIM_CHANNELS.find((c) => c.channel === channel)?.label ?? channel
    return figures(
      rows.filter((r) => r.claim_channel === channel),
      { key: `created_claimed_${channel}`, label: `Posted → opened or claimed from ${label}`, from: 'created_at', to: 'claimed_at' },
    )
  })
}

/** p50/p95/p99 of `to - from` over the rows where both times exist (negative gaps, from clock steps, count as 0). */
export function figures(rows: readonly LatencyRow[], s: { key: string; label: string; from: Col; to: Col }): StageFigures {
  const values: number[] = []
  for (const r of rows) {
    const a = r[s.from]
    const b = r[s.to]
    if (a !== null && b !== null) values.push(Math.max(0, b - a))
  }
  return { key: s.key, label: s.label, count: values.length, p50Ms: percentile(values, 50), p95Ms: percentile(values, 95), p99Ms: percentile(values, 99) }
}

/** The alerts matched within the window, newest first (at most 200 000: a week of a very busy instance). */
/** The columns of a LatencyRow, for a select. */
export const LATENCY_COLUMNS = {
  created_at: alertLatency.createdAt,
  received_at: alertLatency.receivedAt,
  stored_at: alertLatency.storedAt,
  matched_at: alertLatency.matchedAt,
  socket_at: alertLatency.socketAt,
  push_at: alertLatency.pushAt,
  email_at: alertLatency.emailAt,
  claimed_at: alertLatency.claimedAt,
  claim_channel: alertLatency.claimChannel,
}

export async function latencyRows(deps: OwnerDb, since: number): Promise<LatencyRow[]> {
  const a = alertLatency
  return asAsync(deps.db).select(LATENCY_COLUMNS).from(a).where(gte(a.matchedAt, since)).orderBy(desc(a.matchedAt)).limit(200_000)
}

export async function latencyReport(deps: OwnerDb, now: number, window: LatencyWindow): Promise<LatencyReport> {
  const since = now - LATENCY_WINDOWS[window]
  const rows = await latencyRows(deps, since)
  return {
    window,
    since: new Date(since).toISOString(),
    alerts: rows.length,
    stages: STAGES.map((s) => figures(rows, s)),
    endToEnd: END_TO_END.map((s) => figures(rows, s)),
    postToClaim: claimFigures(rows),
  }
}
