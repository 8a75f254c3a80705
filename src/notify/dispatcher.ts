// The dispatcher turns `match.new` bus events into queued deliveries. Order per event:
//   1. only live matches (`notify: true`) alert; nothing while the emergency pause is on;
//   2. the user must exist, be confirmed and not banned; the channel gates of spec §6 apply;
//   3. email `instant` → one queued email (dedupe `match:<id>:email`); `batched` → nothing here,
//      the digest job collects it; `none` → nothing;
//   4. web push on → one queued push per device (dedupe `match:<id>:push:<subscriptionId>`);
//   5. each external channel (every provider of src/outbox/channels/registry.ts) → one row
//      (`match:<id>:<kind>:<endpointId>`), unless the channel is set to 'important' and the match
//      is neither a price drop nor from a term marked important.
// Per-term delivery (delivery.ts) decides 3–5: the union of the channels of the terms that made
// the match; a muted term adds nothing. Quiet hours (quiet-hours.ts) turn the rows of 3–5 into
// `held` rows, due when the window ends, unless a term says "always notify"; the quiet-summary job
// folds them into one email, one push per device and one message per channel. A channel with a
// cap per minute that has had that many alerts in the last minute gets the row `held` too (note
// RATE_NOTE), due when the oldest of them leaves the minute: the same job folds those into one message.
// The in-app channel needs nothing: the socket hub listens to the same event.
// Enqueueing is database work only (one transaction per batch); delivery happens in the outbox worker, so a slow SMTP
// server never slows the matcher and a failure of one channel never stops another.
// The match runner records each alerting match as owed (src/matches/owed.ts) in the match's own
// transaction; the transaction that queues its rows settles it. What a killed process left owed
// is dispatched at the next start (dispatchOwed), so no stored match loses its alerts.
import { eq } from 'drizzle-orm'
import { notificationGate } from '../access/rules'
import { userWithAccess } from '../access/state'
import type { BusEvents, MatchItem } from '../contract/events'
import type { AsyncDb, OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { pushSubscriptions } from '../db/schema'
import type { Deps } from '../deps'
import { priceDropText } from '../forums/price-history'
import { postPrice } from '../forums/store'
import { log } from '../lib/log'
import { owedAlerts, settleOwed } from '../matches/owed'
import { enqueue, enqueueEmail } from '../outbox/queue'
import { providerOf } from '../outbox/channels/registry'
import { queuedForEndpoint } from '../outbox/stats'
import { isPaused } from '../settings/service'
import { deliveryPlan } from './delivery'
import { matchTermSettings } from './term-settings'
import { controlOf, externalGate, userEndpoints, type EndpointKind } from './endpoints'
import { externalAlert } from './external'
import { holdAlerts } from './hold'
import { claimTemplateOf, getPrefs } from './prefs'
import { alertActionsFor } from './alert-links'
import type { AlertActions } from './claim'
import { sellerText } from '../forums/seller'
import { quietUntil } from './quiet-hours'
import { RATE_NOTE } from './quiet-summary'
import { categoryLabel, matchEmail, matchPageUrl, termText, type AlertMatch } from './templates'
import { unsubscribeUrl } from './unsubscribe'

/** The push notification's buttons (ui/sw.js handles each; 'mark-read' POSTs the link without opening the app). */
export const PUSH_ACTIONS = [
  { action: 'claim', title: 'Claim' },
  { action: 'open', title: 'Open' },
  { action: 'mark-read', title: 'Mark read' },
] as const

/**
 * The JSON a push carries; ui/sw.js shows it with the Claim / Open / Mark read buttons (`actions`, their links in
 * `claimUrl`, `openUrl`, `markReadUrl`) and opens `url` on a click on the notification itself.
 */
export function pushMessage(deps: Pick<Deps, 'config'>, m: AlertMatch, actions?: AlertActions) {
  const label = categoryLabel(deps.config, m.category)
  const seller = sellerText(m.seller)
  return {
    title: m.priceDrop ? priceDropText(m.priceDrop) : `New ${label} match`,
    body: `${m.title}\nMatched: ${termText(m)}${seller ? `\nSeller: ${seller}` : ''}`,
    url: matchPageUrl(deps.config, m.category, m.id),
    tag: `match-${m.id}`,
    matchId: m.id,
    category: m.category,
    matchedTerm: termText(m),
    postTitle: m.title,
    postUrl: m.url,
    ...(actions ? { actions: PUSH_ACTIONS, claimUrl: actions.claim, openUrl: actions.open, markReadUrl: actions.markRead } : {}),
  }
}

/**
 * A channel's cap per minute: when it has had `cap` rows (alerts or summaries, not held ones) in the
 * last minute, the time the oldest of them leaves the minute; else null (send now).
 */
async function capUntil(deps: OwnerDb, userId: number, endpointId: number, kind: string, cap: number, now: Date): Promise<Date | null> {
  const r = await queuedForEndpoint(deps, { userId, channel: kind, endpointId, sinceMs: now.getTime() - 60_000 })
  return r.n >= cap && r.first !== null ? new Date(r.first + 60_000) : null
}

/** `due`: the channels of the rows queued to go now (not held), which the worker is woken for once they are committed. */
export type DispatchResult = { email: boolean; push: number; external: number; held: boolean; due: string[]; skipped?: string }

/**
 * Queues one match's rows. Inside dispatchBatch's transaction (`tx`) this folder's and the outbox's
 * statements take the transaction; the other folders' reads (synchronous still) run on the
 * connection inside it.
 */
export async function dispatchMatch(
  deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config' | 'bus'>,
  userId: number,
  m: MatchItem,
  tx?: AsyncDb,
): Promise<DispatchResult> {
  const q = { db: tx ?? deps.db, now: deps.now, bus: deps.bus }
  const none = (skipped: string): DispatchResult => ({ email: false, push: 0, external: 0, held: false, due: [], skipped })
  if (await isPaused(deps)) return none('paused')
  const row = await userWithAccess(deps, userId)
  if (!row) return none('no user')
  if (row.user.bannedAt !== null || row.user.emailConfirmedAt === null) return none('user not active')
  const gates = notificationGate(row.access, deps.now())
  const prefs = await getPrefs(q, userId)
  const now = deps.now()
  const endpoints = externalGate(row.access, now).allowed ? await userEndpoints(q, userId) : []
  const plan = deliveryPlan(
    await matchTermSettings(deps, m.id),
    prefs.email_frequency,
    endpoints.map((e) => e.id),
    now,
  )
  const until = plan.bypassQuiet ? null : quietUntil(prefs.quiet, now)
  const held = until ? { until } : undefined
  const result: DispatchResult = { email: false, push: 0, external: 0, held: held !== undefined, due: [] }
  // A held row keeps only what the summary lists; it is never sent on its own.
  const alert = { id: m.id, title: m.title, url: m.url, category: m.category, matchedTerms: m.matchedTerms, author: m.author, priceDrop: m.priceDrop }

  const template = await claimTemplateOf(q, userId)
  const actionsOn = (channel: string) => alertActionsFor(deps, userId, channel, m, template)
  if (plan.email === 'instant' && gates.email.allowed) {
    const dedupeKey = `match:${m.id}:email`
    if (held) await enqueue(q, { channel: 'email', kind: 'match', userId, dedupeKey, payload: { alert }, held })
    else await enqueueEmail(q, 'match', matchEmail(deps.config, row.user.email, m, unsubscribeUrl(deps, userId), actionsOn('email')), { userId, dedupeKey })
    result.email = true
    if (!held) result.due.push('email')
  }
  if (plan.push && prefs.web_push_enabled && gates.webPush.allowed) {
    const message = pushMessage(deps, m, actionsOn('push'))
    const subs = await asAsync(q.db).select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
    for (const sub of subs) {
      const payload = held ? { subscriptionId: sub.id, alert } : { subscriptionId: sub.id, message }
      await enqueue(q, { channel: 'push', kind: 'match', userId, dedupeKey: `match:${m.id}:push:${sub.id}`, payload, held })
      result.push++
      if (!held) result.due.push('push')
    }
  }
  const price = endpoints.length > 0 && m.postId !== null ? await postPrice(deps, m.postId) : null
  for (const ep of endpoints) {
    if (!plan.endpoints.has(ep.id)) continue
    const control = controlOf(ep)
    if (control.level === 'important' && !plan.important && !m.priceDrop) continue
    const kind = ep.kind as EndpointKind
    // a channel that cannot send yet (a Telegram chat not linked): nothing queued to fail; its settings say why
    if (providerOf(kind)?.notReady?.(ep, deps.config)) continue
    // quiet hours first; else the channel's cap per minute
    const capped = held || control.ratePerMinute === null ? null : await capUntil(q, userId, ep.id, kind, control.ratePerMinute, now)
    await enqueue(q, {
      channel: kind,
      kind: 'match',
      userId,
      dedupeKey: `match:${m.id}:${kind}:${ep.id}`,
      payload: { endpointId: ep.id, alert: externalAlert(deps.config, m, 'match', price, actionsOn(kind)) },
      held: held ?? (capped ? { until: capped } : undefined),
      note: capped ? RATE_NOTE : undefined,
    })
    result.external++
    if (!held && !capped) result.due.push(kind)
  }
  if (result.email || result.push > 0) await holdAlerts(q, userId, m.id, prefs.holdSeconds) // 'Wait before email and push': src/notify/hold.ts
  return result
}

/**
 * Queues the alerts of a batch of live matches in one transaction, and in the same transaction
 * settles what they owed (src/matches/owed.ts). A match whose dispatch throws stays owed: the next
 * start tries it again, idempotently by the dedupe keys. Once committed, the worker is woken for the
 * rows due now: enqueue's own wake comes before the commit, which on PostgreSQL (a connection per
 * statement outside the transaction) finds nothing yet, so the alerts would wait for the outbox job's poll.
 */
async function dispatchBatch(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus' | 'sqlite'>, batch: { userId: number; match: MatchItem }[]): Promise<void> {
  try {
    const due = new Set<string>()
    await asAsync(deps.db).transaction(async (tx) => {
      const settled: number[] = []
      for (const { userId, match } of batch) {
        try {
          for (const channel of (await dispatchMatch(deps, userId, match, tx)).due) due.add(channel)
          settled.push(match.id)
        } catch (err) {
          log.error('notify: dispatch failed', { userId, match: String(match.id), error: String(err) })
        }
      }
      await settleOwed({ db: tx }, settled)
    })
    for (const channel of due) deps.bus.emit('outbox.queued', { channel })
  } catch (err) {
    log.error('notify: dispatch batch failed', { count: batch.length, error: String(err) })
  }
}

/**
 * The alerts of live matches that a process stored but stopped before queueing (killed between the
 * two transactions): at start (src/server.ts, before the jobs), every one; then every 10 s (the job
 * `alerts-owed`, on the lock holder), those owed for over 30 s — another node that died, or a
 * dispatch that failed. Queueing is idempotent by the dedupe keys, so a match dispatched twice still
 * has one row per alert. Returns how many matches it took.
 */
export async function dispatchOwed(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus' | 'sqlite'>, opts: { olderThanMs?: number } = {}): Promise<number> {
  const before = opts.olderThanMs === undefined ? undefined : new Date(deps.now().getTime() - opts.olderThanMs)
  const owed = await owedAlerts(deps, { before })
  if (owed.length > 0) await dispatchBatch(deps, owed)
  return owed.length
}

export type Dispatcher = {
  /** a `match.new` event (src/services.ts attaches this to the bus) */
  add(event: BusEvents['match.new']): void
  /** enqueue what is buffered now (a CLI process before it exits) */
  flush(): Promise<void>
}

/**
 * Live matches are buffered and enqueued in one transaction on the next macrotask: the socket
 * hub's writes for the same burst go out first (a microtask would run before them), so in-app
 * alerts never wait for email/push bookkeeping.
 */
export function createDispatcher(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus' | 'sqlite'>): Dispatcher {
  let pending: { userId: number; match: MatchItem }[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  const flush = async () => {
    if (timer) clearTimeout(timer)
    timer = null
    const batch = pending
    pending = []
    if (batch.length > 0) await dispatchBatch(deps, batch)
  }
  // TEST-ONLY (DIBS_TEST_HOLD_DISPATCH_MS, 0 in every real setup): hold the queueing, so a crash test
  // can kill the process after the matches' commit and before their alerts are queued.
  const holdMs = deps.config.testHoldDispatchMs
  return {
    add({ userId, match, notify }) {
      if (!notify) return
      pending.push({ userId, match })
      if (timer !== null) return
      timer = setTimeout(() => void flush(), holdMs)
      if (holdMs > 0) log.warn(`test hook: dispatch held for ${holdMs} ms (DIBS_TEST_HOLD_DISPATCH_MS)`)
    },
    flush,
  }
}
