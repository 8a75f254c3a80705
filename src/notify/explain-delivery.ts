// "Why didn't I get an alert?" — what each channel did with one match, in words (issue 16 item 4).
// `channelOutcomes` is pure: it reads the match's outbox rows (dedupe keys `match:<id>:email`,
// `match:<id>:push:<sub>`, `match:<id>:<kind>:<endpoint>`), the digest that covered it, the alert
// latency stamps, and re-derives what the dispatcher decided (delivery.ts deliveryPlan at the match's
// time, the §6 gates, the user's preferences) for channels without a row. `deliveryFacts` reads
// those facts from the database. Times are written, named, in the zone given (src/explain picks it).
import type { OwnerDb } from '../db/async-db'
import { deliveryPlan, isMuted, MUTED_FOREVER, type TermSettings } from './delivery'
import type { EmailFrequency } from './prefs'
import { RATE_NOTE, RATE_SUMMARY_NOTE, SUMMARY_NOTE } from './quiet-summary'
import type { EndpointKind, Level } from './endpoints'
import { channelLabel } from '../outbox/channels/registry'
import { digestsOf, type MatchRowFact } from '../outbox/stats'
import { formatTime } from '../lib/zoned-time'

export type OutcomeStatus = 'sent' | 'queued' | 'held' | 'waiting' | 'skipped' | 'failed' | 'off'
export type ChannelOutcome = { channel: string; label: string; status: OutcomeStatus; text: string; at: string | null }

/** One of the match's outbox rows (src/outbox/stats.ts rowsOfMatch). */
export type OutboxFact = MatchRowFact
export type EndpointFact = { id: number; kind: EndpointKind; name: string; createdAt: number; level?: Level }

export type DeliveryFacts = {
  now: number
  timeZone: string
  match: { id: number; source: string; isNew: boolean; matchedAt: number; postCreatedAt: number | null }
  /** the post's state now (open, pending, sold, removed) */
  postState: string
  terms: TermSettings[]
  emailFrequency: EmailFrequency
  webPushEnabled: boolean
  gates: { email: boolean; push: boolean; external: boolean }
  devices: number
  endpoints: EndpointFact[]
  rows: OutboxFact[]
  /** the first digest email queued after the match, if any */
  digest: { at: number; status: string } | null
  digestIntervalMinutes: number
  socketAt: number | null
  /** why the match never alerted (backfill, created before the term), null when it was live */
  noAlert: string | null
  /** the match alerts a price drop (channels set to 'important' take those) */
  priceDrop?: boolean
}

/** "Nov 24, 07:00:05 (Europe/Berlin)" in the user's zone. */
export { formatTime }

/** A row's status in words (email, a push device, an external channel). */
function rowOutcome(r: OutboxFact, tz: string, facts: Pick<DeliveryFacts, 'postState'>): { status: OutcomeStatus; text: string; at: number | null } {
  const at = (ms: number) => formatTime(ms, tz)
  switch (r.status) {
    case 'sent':
      if (r.lastError === SUMMARY_NOTE) return { status: 'sent', text: `sent in the quiet-hours summary${r.sentAt ? ` at ${at(r.sentAt)}` : ''}`, at: r.sentAt }
      if (r.lastError === RATE_SUMMARY_NOTE)
        return { status: 'sent', text: `sent folded into one message (the channel's cap per minute)${r.sentAt ? ` at ${at(r.sentAt)}` : ''}`, at: r.sentAt }
      return { status: 'sent', text: r.sentAt ? `sent at ${at(r.sentAt)}` : 'sent', at: r.sentAt }
    case 'pending':
      if (r.attempts === 0) return { status: 'queued', text: 'waiting in the queue', at: r.nextAttemptAt }
      return {
        status: 'queued',
        text: `waiting in the queue (retry ${r.attempts} at ${at(r.nextAttemptAt)}${r.lastError ? `; last error: ${r.lastError}` : ''})`,
        at: r.nextAttemptAt,
      }
    case 'sending':
      return { status: 'queued', text: 'being sent now', at: null }
    case 'failed':
      return { status: 'failed', text: `failed: ${r.lastError ?? 'unknown error'}`, at: null }
    case 'held':
      if (r.lastError === RATE_NOTE)
        return { status: 'held', text: `over the channel's cap per minute: folded into one message at ${at(r.nextAttemptAt)}`, at: r.nextAttemptAt }
      return { status: 'held', text: `held for quiet hours until ${at(r.nextAttemptAt)}`, at: r.nextAttemptAt }
    case 'waiting':
      return {
        status: 'waiting',
        text: `waiting for a re-check of the post (your wait before email and push) until ${at(r.nextAttemptAt)}`,
        at: r.nextAttemptAt,
      }
    case 'skipped': {
      const why = r.lastError?.replace(/^not sent: /, '').replace(/ before delivery$/, '')
      return { status: 'skipped', text: `skipped: ${why ?? `the post was ${facts.postState}`}`, at: null }
    }
    default:
      return { status: 'queued', text: r.status, at: null }
  }
}

/** The latest mute among the match's terms when every one of them was muted at the match (else null). */
function allMutedUntil(terms: TermSettings[], at: Date): number | null {
  if (terms.length === 0 || !terms.every((t) => isMuted(t, at))) return null
  return Math.max(...terms.map((t) => t.mutedUntil!.getTime()))
}

function mutedText(until: number, tz: string): string {
  return until >= MUTED_FOREVER ? 'term muted until you unmute it' : `term muted until ${formatTime(until, tz)}`
}

function emailOutcome(f: DeliveryFacts, plan: ReturnType<typeof deliveryPlan>, muted: number | null): Omit<ChannelOutcome, 'channel' | 'label'> {
  const tz = f.timeZone
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
  const row = f.rows.find((r) => r.dedupeKey === `match:${f.match.id}:email`)
  if (row) {
    const o = rowOutcome(row, tz, f)
    return { status: o.status, text: o.text, at: iso(o.at) }
  }
  if (!f.gates.email) return { status: 'off', text: 'plan without email', at: null }
  if (f.noAlert) return { status: 'off', text: `no alert: ${f.noAlert}`, at: null }
  if (muted !== null) return { status: 'off', text: mutedText(muted, tz), at: null }
  if (plan.email === 'digest') {
    if (f.digest)
      return { status: f.digest.status === 'sent' ? 'sent' : 'queued', text: `in the digest of ${formatTime(f.digest.at, tz)}`, at: iso(f.digest.at) }
    if (f.postState !== 'open') return { status: 'skipped', text: `left out of the digest: the post is ${f.postState}`, at: null }
    return { status: 'queued', text: `waiting for the next digest (every ${f.digestIntervalMinutes} min)`, at: null }
  }
  if (plan.email === 'off') {
    const everyDefault = f.terms.length === 0 || f.terms.every((t) => t.delivery.email === 'default' || isMuted(t, new Date(f.match.matchedAt)))
    return { status: 'off', text: everyDefault && f.emailFrequency === 'none' ? 'email frequency off' : 'term set to email off', at: null }
  }
  return { status: 'off', text: 'not queued (the account was not active or alerts were paused at the time)', at: null }
}

function pushOutcomes(f: DeliveryFacts, plan: ReturnType<typeof deliveryPlan>, muted: number | null): Omit<ChannelOutcome, 'channel' | 'label'>[] {
  const tz = f.timeZone
  const rows = f.rows.filter((r) => r.channel === 'push' && r.dedupeKey.startsWith(`match:${f.match.id}:push:`))
  if (rows.length > 0) {
    // One line per outcome: "sent to 2 devices at …", "failed on 1 device: …".
    const groups = new Map<string, { o: ReturnType<typeof rowOutcome>; n: number }>()
    for (const r of rows) {
      const o = rowOutcome(r, tz, f)
      const key = o.status === 'sent' ? 'sent' : o.text
      const g = groups.get(key)
      if (g) {
        g.n++
        if ((o.at ?? 0) > (g.o.at ?? 0)) g.o = o
      } else groups.set(key, { o, n: 1 })
    }
    return [...groups.values()].map(({ o, n }) => {
      const devices = `${n} device${n === 1 ? '' : 's'}`
      const text = o.status === 'sent' ? `sent to ${devices}${o.at ? ` at ${formatTime(o.at, tz)}` : ''}` : `${o.text} (${devices})`
      return { status: o.status, text, at: o.at === null ? null : new Date(o.at).toISOString() }
    })
  }
  const off = (text: string) => [{ status: 'off' as const, text, at: null }]
  if (!f.gates.push) return off('plan without push')
  if (f.noAlert) return off(`no alert: ${f.noAlert}`)
  if (muted !== null) return off(mutedText(muted, tz))
  if (!plan.push) return off('term set to push off')
  if (!f.webPushEnabled || f.devices === 0) return off('push not enabled on any device')
  return off('not queued (the account was not active or alerts were paused at the time)')
}

function endpointOutcome(
  f: DeliveryFacts,
  ep: EndpointFact,
  plan: ReturnType<typeof deliveryPlan>,
  muted: number | null,
): Omit<ChannelOutcome, 'channel' | 'label'> {
  const row = f.rows.find((r) => r.dedupeKey === `match:${f.match.id}:${ep.kind}:${ep.id}`)
  if (row) {
    const o = rowOutcome(row, f.timeZone, f)
    return { status: o.status, text: o.text, at: o.at === null ? null : new Date(o.at).toISOString() }
  }
  const off = (text: string) => ({ status: 'off' as const, text, at: null })
  if (!f.gates.external) return off('plan without alerts on other channels')
  if (f.noAlert) return off(`no alert: ${f.noAlert}`)
  if (ep.createdAt > f.match.matchedAt) return off('channel added after this match')
  if (muted !== null) return off(mutedText(muted, f.timeZone))
  if (!plan.endpoints.has(ep.id)) return off(`term set to ${channelLabel(ep.kind)} off`)
  if (ep.level === 'important' && !plan.important && !f.priceDrop) return off('the channel takes only price drops and important terms')
  return off('not queued (the account was not active or alerts were paused at the time)')
}

/** Every channel's outcome for one match: in-app, email, push (per outcome), each external channel. */
export function channelOutcomes(f: DeliveryFacts): ChannelOutcome[] {
  const at = new Date(f.match.matchedAt)
  const plan = deliveryPlan(
    f.terms,
    f.emailFrequency,
    f.endpoints.map((e) => e.id),
    at,
  )
  const muted = allMutedUntil(f.terms, at)
  const out: ChannelOutcome[] = []
  const inApp = f.noAlert
    ? `in your match list, marked read (${f.noAlert})`
    : f.socketAt !== null
      ? `shown at ${formatTime(f.socketAt, f.timeZone)}`
      : `in your match list since ${formatTime(f.match.matchedAt, f.timeZone)} (no Dibs tab was open)`
  out.push({ channel: 'in-app', label: 'In-app', status: 'sent', text: inApp, at: new Date(f.socketAt ?? f.match.matchedAt).toISOString() })
  out.push({ channel: 'email', label: 'Email', ...emailOutcome(f, plan, muted) })
  for (const o of pushOutcomes(f, plan, muted)) out.push({ channel: 'push', label: 'Push', ...o })
  for (const ep of f.endpoints)
    out.push({ channel: ep.kind, label: `${channelLabel(ep.kind)}${ep.name ? ` "${ep.name}"` : ''}`, ...endpointOutcome(f, ep, plan, muted) })
  return out
}

/** The first digest of the user queued after the match (dedupe key `digest:<user>:<window end>`). */
export async function digestAfter(deps: OwnerDb, userId: number, matchedAt: number): Promise<{ at: number; status: string } | null> {
  const rows = await digestsOf(deps, userId)
  let best: { at: number; status: string } | null = null
  for (const r of rows) {
    const end = Number(r.dedupeKey.slice(r.dedupeKey.lastIndexOf(':') + 1))
    if (Number.isFinite(end) && end >= matchedAt && (best === null || end < best.at)) best = { at: end, status: r.status }
  }
  return best
}
