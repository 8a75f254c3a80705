// The durable outbound queue (spec email_sending_queue): every email and push is a row first,
// then delivered by the outbox job with retries and exponential backoff. A dedupe key makes
// enqueueing idempotent (e.g. "match:42:email"), so a crash or restart never queues twice.
//
// A row's life: pending → sending (committed on its own, before any network call, with the
// attempt counted and its start time in next_attempt_at) → sent | pending again with backoff |
// failed. A process killed during a send leaves the row `sending`: it may have been delivered,
// and recoverStuckSending decides at the next start when it goes again.
import { eq, sql } from 'drizzle-orm'
import { outbox, type OutboxRow } from '../db/schema'
import type { AsyncDb, OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import type { MailMessage } from './mailer'
import type { ChannelName } from './channels/types'
import { claim, insertRow, markFailed, markSent, prune, recover, requeue, retryLater } from './store'

/** 15 attempts with backoff 5 s doubling to a 1 h cap: about 6.5 hours before a row fails for good. */
export const MAX_ATTEMPTS = 15
const BASE_BACKOFF_MS = 5_000
const MAX_BACKOFF_MS = 60 * 60_000

/** The channels that queue rows (in-app alerts go over the socket). */
export type OutboxChannel = Exclude<ChannelName, 'inapp'>
export type Sender = (row: OutboxRow) => Promise<void>
/**
 * Told each row's result after it is recorded (the metrics: deliveries, alert latency).
 * `afterMaybeSent`: the row was recovered from `sending` (recoverStuckSending), so a 'sent' may be a duplicate.
 */
export type OnDelivered = (row: OutboxRow, result: 'sent' | 'retry' | 'failed', info: { afterMaybeSent: boolean }) => void
/** A sender throws PermanentFailure when retrying cannot help (e.g. push endpoint gone). */
export class PermanentFailure extends Error {}
/** A sender throws RetryLater when the service named its wait (HTTP 429 Retry-After, Discord's retry_after). */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly afterMs: number,
  ) {
    super(message)
  }
}

/** Alert kinds are held in the queue while the emergency pause is on; account emails still go. */
export const ALERT_KINDS = ['match', 'digest']

/** Deps of enqueueing: the row is written (`db` may be the caller's transaction), then 'outbox.queued' wakes the worker (src/services.ts). */
type QueueDeps = OwnerDb & Pick<Deps, 'now' | 'bus'>

export async function enqueue(
  deps: QueueDeps,
  item: {
    channel: OutboxChannel
    kind: string
    userId?: number | null
    dedupeKey?: string | null
    payload: Record<string, unknown>
    /** `held` (quiet hours, a channel's cap per minute): kept, never sent, until src/notify/quiet-summary.ts folds it into a summary at `until` */
    held?: { until: Date }
    /** written to last_error: why a held row is held (src/notify/quiet-summary.ts RATE_NOTE) */
    note?: string
  },
): Promise<number | null> {
  const id = await insertRow(deps, {
    channel: item.channel,
    kind: item.kind,
    userId: item.userId ?? null,
    dedupeKey: item.dedupeKey ?? null,
    payload: item.payload,
    held: item.held !== undefined,
    dueAt: item.held?.until ?? deps.now(),
    note: item.note ?? null,
    at: deps.now(),
  })
  // The worker's claim waits for the caller's transaction on SQLite (one gate); its next poll finds the row otherwise.
  if (id !== null && !item.held) queueMicrotask(() => deps.bus.emit('outbox.queued', { channel: item.channel }))
  return id
}

export function enqueueEmail(
  deps: QueueDeps,
  kind: string,
  message: MailMessage,
  opts: { userId?: number | null; dedupeKey?: string | null } = {},
): Promise<number | null> {
  return enqueue(deps, { channel: 'email', kind, userId: opts.userId, dedupeKey: opts.dedupeKey, payload: message as unknown as Record<string, unknown> })
}

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1))
}

/** Delivers every due row once; one failing delivery never stops the others. */
export async function processOutbox(
  deps: { db: Deps['db'] | AsyncDb; now: Deps['now'] },
  senders: Partial<Record<string, Sender>>,
  opts: { limit?: number; holdAlerts?: boolean; onDone?: OnDelivered } = {},
) {
  const limit = opts.limit ?? 100
  const startedAt = deps.now()
  // The claim is one committed statement, before any network call: from here on a kill leaves
  // these rows `sending`, with this attempt counted and its start time recorded.
  const due = await claim(deps, { now: startedAt, limit, exceptKinds: opts.holdAlerts ? ALERT_KINDS : undefined })
  const result = { sent: 0, retried: 0, failed: 0 }
  if (due.length === 0) return result
  await Promise.all(
    due.map(async (row) => {
      const attempts = row.attempts // as claimed
      const info = { afterMaybeSent: wasMaybeSent(row) }
      const send = senders[row.channel]
      try {
        if (!send) throw new Error(`no sender for channel ${row.channel}`)
        await send(row)
        await markSent(deps, row.id, deps.now())
        result.sent++
        opts.onDone?.(row, 'sent', info)
      } catch (err) {
        const permanent = err instanceof PermanentFailure || attempts >= MAX_ATTEMPTS
        const error = String(err instanceof Error ? err.message : err)
        const failure = {
          // a maybe-sent row keeps saying so through its retries: its final send may still be a copy
          error: (info.afterMaybeSent ? `${MAYBE_SENT}; then: ${error}` : error).slice(0, 500),
          dueAt: new Date(deps.now().getTime() + Math.max(backoffMs(attempts), err instanceof RetryLater ? err.afterMs : 0)),
        }
        if (permanent) {
          await markFailed(deps, row.id, failure)
          result.failed++
        } else {
          await retryLater(deps, row.id, failure)
          result.retried++
        }
        opts.onDone?.(row, permanent ? 'failed' : 'retry', info)
        log.warn(`outbox ${row.channel} #${row.id} ${permanent ? 'failed for good' : 'will retry'}`, { kind: row.kind, attempts, error: String(err) })
      }
    }),
  )
  return result
}

/**
 * How long after a maybe-sent email's attempt started it goes again: 10 minutes, the time RFC 5321
 * (4.5.3.2.6) gives a server to answer the end of a message, and nodemailer's socket timeout. By
 * then a provider that had the message has accepted or refused it, so the copy never races the
 * original, and it carries the same Message-ID, so a provider can drop it. The delay also keeps a
 * process that crashes over and over from mailing the same message on every start.
 */
export const EMAIL_MAYBE_SENT_DELAY_MS = 10 * 60_000

export const MAYBE_SENT = 'maybe sent: the process stopped during the send, before its result was recorded'

/** A row recovered from `sending` (not yet sent since): sending it again may deliver a second copy. */
export const wasMaybeSent = (row: Pick<OutboxRow, 'lastError'>) => row.lastError?.startsWith(MAYBE_SENT) ?? false

/**
 * At startup (src/server.ts, before the jobs), rows left `sending` by a killed process are "maybe
 * sent". Push goes again at once: the browser shows a notification with the same tag in place of
 * the first. Email goes again EMAIL_MAYBE_SENT_DELAY_MS after the attempt started (its start time
 * is in next_attempt_at). A row that has used its attempts fails. Returns how many rows it reset.
 */
export function recoverStuckSending(deps: Pick<Deps, 'db' | 'now' | 'config'>): Promise<number> {
  const now = deps.now()
  // Several nodes (DATABASE_URL): the others' rows in flight are theirs; a row claimed longer ago than any send lasts is a dead node's.
  const claimedBefore = deps.config.databaseUrl === null ? undefined : new Date(now.getTime() - NODE_SENDING_STALE_MS)
  return recover(deps, { now, maxAttempts: MAX_ATTEMPTS, emailDelayMs: EMAIL_MAYBE_SENT_DELAY_MS, note: MAYBE_SENT, claimedBefore })
}

/**
 * On PostgreSQL a row `sending` for this long belongs to a node that died mid-send: longer than any
 * send may take (nodemailer's socket timeout is 10 minutes; push and chat channels give up after
 * seconds). The lock holder looks every minute (src/services.ts, job `outbox-recover`).
 */
export const NODE_SENDING_STALE_MS = 15 * 60_000

/** Counts per status, for admin health ("email queue pending") and tests. */
export async function outboxCounts(deps: OwnerDb, channel?: OutboxChannel): Promise<Record<'pending' | 'sending' | 'sent' | 'failed', number>> {
  const rows = await asAsync(deps.db)
    .select({ status: outbox.status, n: sql<number>`count(*)` })
    .from(outbox)
    .where(channel ? eq(outbox.channel, channel) : undefined)
    .groupBy(outbox.status)
  const counts = { pending: 0, sending: 0, sent: 0, failed: 0 }
  for (const r of rows) counts[r.status as keyof typeof counts] = Number(r.n)
  return counts
}

/** Puts a failed row back in the queue (admin action). */
export async function retryFailed(deps: Pick<Deps, 'db' | 'now'>, id: number): Promise<boolean> {
  return (await requeue(deps, deps.now(), id)).length > 0
}

/** Puts every failed row back in the queue (admin action); returns the channels and the count. */
export async function retryAllFailed(deps: Pick<Deps, 'db' | 'now'>): Promise<{ count: number; channels: string[] }> {
  const channels = await requeue(deps, deps.now())
  return { count: channels.length, channels: [...new Set(channels)] }
}

/** Sent rows older than `days` are dropped (their dedupe keys have done their job by then). */
export function pruneOutbox(deps: Pick<Deps, 'db' | 'now'>, days = 30): Promise<number> {
  return prune(deps, new Date(deps.now().getTime() - days * 86_400_000))
}
