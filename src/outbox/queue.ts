// The durable outbound queue (spec email_sending_queue): every email and push is a row first,
// then delivered by the outbox job with retries and exponential backoff. A dedupe key makes
// enqueueing idempotent (e.g. "match:42:email"), so a crash or restart never sends twice.
import { and, asc, eq, lte, inArray, notInArray, sql } from 'drizzle-orm'
import { outbox, type OutboxRow } from '../db/schema'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import type { MailMessage } from './mailer'

/** 15 attempts with backoff 5 s doubling to a 1 h cap: about 6.5 hours before a row fails for good. */
export const MAX_ATTEMPTS = 15
const BASE_BACKOFF_MS = 5_000
const MAX_BACKOFF_MS = 60 * 60_000

export type OutboxChannel = 'email' | 'push'
export type Sender = (row: OutboxRow) => Promise<void>
/** A sender throws PermanentFailure when retrying cannot help (e.g. push endpoint gone). */
export class PermanentFailure extends Error {}

/** Alert kinds are held in the queue while the emergency pause is on; account emails still go. */
export const ALERT_KINDS = ['match', 'digest']

/** Deps of enqueueing: the row is written, then 'outbox.queued' wakes the worker (src/services.ts). */
type QueueDeps = Pick<Deps, 'db' | 'now' | 'bus'>

export function enqueue(
  deps: QueueDeps,
  item: { channel: OutboxChannel; kind: string; userId?: number | null; dedupeKey?: string | null; payload: Record<string, unknown> },
): number | null {
  const row = deps.db
    .insert(outbox)
    .values({
      channel: item.channel,
      kind: item.kind,
      userId: item.userId ?? null,
      dedupeKey: item.dedupeKey ?? null,
      payload: item.payload,
      nextAttemptAt: deps.now(),
      createdAt: deps.now(),
    })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id })
    .get()
  // After the caller's transaction: the worker then sees the row.
  if (row) queueMicrotask(() => deps.bus.emit('outbox.queued', { channel: item.channel }))
  return row?.id ?? null
}

export function enqueueEmail(deps: QueueDeps, kind: string, message: MailMessage, opts: { userId?: number | null; dedupeKey?: string | null } = {}) {
  return enqueue(deps, { channel: 'email', kind, userId: opts.userId, dedupeKey: opts.dedupeKey, payload: message as unknown as Record<string, unknown> })
}

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1))
}

/** Delivers every due row once; one failing delivery never stops the others. */
export async function processOutbox(
  deps: Pick<Deps, 'db' | 'now'>,
  senders: Partial<Record<string, Sender>>,
  opts: { limit?: number; holdAlerts?: boolean } = {},
) {
  const limit = opts.limit ?? 100
  const due = deps.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, deps.now()), opts.holdAlerts ? notInArray(outbox.kind, ALERT_KINDS) : undefined))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(limit)
    .all()
  const result = { sent: 0, retried: 0, failed: 0 }
  if (due.length === 0) return result
  deps.db
    .update(outbox)
    .set({ status: 'sending' })
    .where(
      inArray(
        outbox.id,
        due.map((r) => r.id),
      ),
    )
    .run()
  await Promise.all(
    due.map(async (row) => {
      const attempts = row.attempts + 1
      const send = senders[row.channel]
      try {
        if (!send) throw new Error(`no sender for channel ${row.channel}`)
        await send(row)
        deps.db.update(outbox).set({ status: 'sent', attempts, sentAt: deps.now(), lastError: null }).where(eq(outbox.id, row.id)).run()
        result.sent++
      } catch (err) {
        const permanent = err instanceof PermanentFailure || attempts >= MAX_ATTEMPTS
        deps.db
          .update(outbox)
          .set({
            status: permanent ? 'failed' : 'pending',
            attempts,
            lastError: String(err instanceof Error ? err.message : err).slice(0, 500),
            nextAttemptAt: new Date(deps.now().getTime() + backoffMs(attempts)),
          })
          .where(eq(outbox.id, row.id))
          .run()
        if (permanent) result.failed++
        else result.retried++
        log.warn(`outbox ${row.channel} #${row.id} ${permanent ? 'failed for good' : 'will retry'}`, { kind: row.kind, attempts, error: String(err) })
      }
    }),
  )
  return result
}

/** After a crash, rows left in 'sending' go back to pending (at-least-once; SMTP dedupe by Message-ID is out of reach). */
export function recoverStuckSending(deps: Pick<Deps, 'db'>) {
  return (deps.db.update(outbox).set({ status: 'pending' }).where(eq(outbox.status, 'sending')).run() as unknown as { changes: number }).changes
}

/** Counts per status, for admin health ("email queue pending") and tests. */
export function outboxCounts(deps: Pick<Deps, 'db'>, channel?: OutboxChannel): Record<'pending' | 'sending' | 'sent' | 'failed', number> {
  const rows = deps.db
    .select({ status: outbox.status, n: sql<number>`count(*)` })
    .from(outbox)
    .where(channel ? eq(outbox.channel, channel) : undefined)
    .groupBy(outbox.status)
    .all()
  const counts = { pending: 0, sending: 0, sent: 0, failed: 0 }
  for (const r of rows) counts[r.status as keyof typeof counts] = r.n
  return counts
}

/** Puts a failed row back in the queue (admin action). */
export function retryFailed(deps: Pick<Deps, 'db' | 'now'>, id: number): boolean {
  return (
    (
      deps.db
        .update(outbox)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: deps.now() })
        .where(and(eq(outbox.id, id), eq(outbox.status, 'failed')))
        .run() as unknown as { changes: number }
    ).changes > 0
  )
}

/** Sent rows older than `days` are dropped (their dedupe keys have done their job by then). */
export function pruneOutbox(deps: Pick<Deps, 'db' | 'now'>, days = 30): number {
  const before = new Date(deps.now().getTime() - days * 86_400_000)
  return (
    deps.db
      .delete(outbox)
      .where(and(eq(outbox.status, 'sent'), lte(outbox.sentAt, before)))
      .run() as unknown as { changes: number }
  ).changes
}
