// Reads of the outbox for other folders: the admin pages (Alerts, the dashboard's resources),
// /metrics, the delivery explainer, the data export and the dispatcher's cap per minute. This
// folder owns `outbox` (src/db/owners.json); every write is ./store.ts, one function per transition.
import { and, asc, count, desc, eq, gt, gte, inArray, lt, min, notInArray, sql, type SQL } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { outbox } from '../db/schema'
import type { Deps } from '../deps'

const DAY_MS = 86_400_000

/** Rows queued since `sinceMs`, per UTC day (ms since the epoch / DAY_MS, floored), channel and the status they have now. */
export async function outboxPerDay(deps: OwnerDb, sinceMs: number): Promise<{ day: number; channel: string; status: string; n: number }[]> {
  const o = outbox
  // the day length as text, not a parameter: PostgreSQL matches the GROUP BY expression to the select's only when they are the same text
  const day = sql<number>`CAST(${o.createdAt} / ${sql.raw(String(DAY_MS))} AS INTEGER)`
  const rows = await asAsync(deps.db)
    .select({ day, channel: o.channel, status: o.status, n: count() })
    .from(o)
    .where(gte(o.createdAt, new Date(sinceMs)))
    .groupBy(day, o.channel, o.status)
  return rows.map((r) => ({ ...r, day: Number(r.day) }))
}

export type OutboxStat = { channel: string; status: string; n: number; oldest: number | null; due: number }

/** Every row now, per channel and status: how many, the oldest one's queue time (ms) and how many are due at `nowMs`. */
export async function outboxStats(deps: OwnerDb, nowMs: number): Promise<OutboxStat[]> {
  const o = outbox
  const rows = await asAsync(deps.db)
    .select({
      channel: o.channel,
      status: o.status,
      n: count(),
      oldest: min(o.createdAt),
      due: sql<number>`sum(CASE WHEN ${o.nextAttemptAt} <= ${nowMs} THEN 1 ELSE 0 END)`,
    })
    .from(o)
    .groupBy(o.channel, o.status)
  return rows.map((r) => ({ ...r, oldest: r.oldest === null ? null : r.oldest.getTime(), due: Number(r.due) }))
}

export type FailedMessage = {
  id: number
  channel: string
  kind: string
  userId: number | null
  attempts: number
  lastError: string | null
  createdAt: number
  /** ms; when a failed row's last attempt began (to the backoff): see recentFailures */
  nextAttemptAt: number
}

/** Failed rows, newest first, `limit` from `offset` (no payloads: they hold whole messages), and how many there are. */
export async function recentFailures(deps: OwnerDb, limit: number, offset: number): Promise<{ total: number; rows: FailedMessage[] }> {
  const db = asAsync(deps.db)
  const o = outbox
  const failed = eq(o.status, 'failed')
  const [counted] = await db.select({ n: count() }).from(o).where(failed)
  const rows = await db
    .select({
      id: o.id,
      channel: o.channel,
      kind: o.kind,
      userId: o.userId,
      attempts: o.attempts,
      lastError: o.lastError,
      createdAt: o.createdAt,
      nextAttemptAt: o.nextAttemptAt,
    })
    .from(o)
    .where(failed)
    .orderBy(desc(o.id))
    .limit(limit)
    .offset(offset)
  return { total: counted?.n ?? 0, rows: rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime(), nextAttemptAt: r.nextAttemptAt.getTime() })) }
}

/** The channel of one row, or undefined when there is no such row. */
export async function channelOf(deps: OwnerDb, id: number): Promise<string | undefined> {
  return (await asAsync(deps.db).select({ channel: outbox.channel }).from(outbox).where(eq(outbox.id, id)).limit(1))[0]?.channel
}

/** Rows waiting (pending) or in flight (sending), per channel and status: /metrics dibs_outbox_depth. */
export async function queueDepth(deps: OwnerDb): Promise<{ channel: string; status: string; n: number }[]> {
  return asAsync(deps.db)
    .select({ channel: outbox.channel, status: outbox.status, n: count() })
    .from(outbox)
    .where(inArray(outbox.status, ['pending', 'sending']))
    .groupBy(outbox.channel, outbox.status)
}

/** The oldest pending row's queue time (ms) per channel: /metrics dibs_outbox_oldest_pending_seconds. */
export async function oldestPending(deps: OwnerDb): Promise<{ channel: string; at: number }[]> {
  const rows = await asAsync(deps.db)
    .select({ channel: outbox.channel, at: min(outbox.createdAt) })
    .from(outbox)
    .where(eq(outbox.status, 'pending'))
    .groupBy(outbox.channel)
  return rows.map((r) => ({ channel: r.channel, at: r.at!.getTime() }))
}

/**
 * Rows of an external channel's endpoint queued after `sinceMs` that count against its cap per
 * minute (held and skipped ones do not): how many, and the first one's queue time (ms). The
 * endpoint is in the payload (JSON text): the user's rows of the channel in the minute are read
 * and matched here, the same on either engine.
 */
export async function queuedForEndpoint(
  deps: OwnerDb,
  q: { userId: number; channel: string; endpointId: number; sinceMs: number },
): Promise<{ n: number; first: number | null }> {
  const rows = await asAsync(deps.db)
    .select({ payload: outbox.payload, createdAt: outbox.createdAt })
    .from(outbox)
    .where(
      and(
        eq(outbox.userId, q.userId),
        eq(outbox.channel, q.channel),
        gt(outbox.createdAt, new Date(q.sinceMs)),
        notInArray(outbox.status, ['held', 'skipped']),
      ),
    )
  let n = 0
  let first: number | null = null
  for (const r of rows) {
    if (r.payload.endpointId !== q.endpointId) continue
    n++
    if (first === null || r.createdAt.getTime() < first) first = r.createdAt.getTime()
  }
  return { n, first }
}

/** A match's row as the delivery explainer reads it (times in ms). */
export type MatchRowFact = {
  channel: string
  dedupeKey: string
  status: string
  attempts: number
  nextAttemptAt: number
  lastError: string | null
  sentAt: number | null
}

/** A match's rows (its dedupe-key range `match:<id>:` to `match:<id>;`), by id. */
export async function rowsOfMatch(deps: OwnerDb, matchId: number): Promise<MatchRowFact[]> {
  const rows = await asAsync(deps.db)
    .select({
      channel: outbox.channel,
      dedupeKey: outbox.dedupeKey,
      status: outbox.status,
      attempts: outbox.attempts,
      nextAttemptAt: outbox.nextAttemptAt,
      lastError: outbox.lastError,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(keyRange(`match:${matchId}`))
    .orderBy(asc(outbox.id))
  return rows.map((r) => ({ ...r, dedupeKey: r.dedupeKey!, nextAttemptAt: r.nextAttemptAt.getTime(), sentAt: r.sentAt?.getTime() ?? null }))
}

/** The user's digest emails (dedupe keys `digest:<user>:<window end>`): key, status and queue time (ms). */
export async function digestsOf(deps: OwnerDb, userId: number): Promise<{ dedupeKey: string; status: string; createdAt: number }[]> {
  const rows = await asAsync(deps.db)
    .select({ dedupeKey: outbox.dedupeKey, status: outbox.status, createdAt: outbox.createdAt })
    .from(outbox)
    .where(and(eq(outbox.kind, 'digest'), eq(outbox.channel, 'email'), eq(outbox.userId, userId), keyRange(`digest:${userId}`)))
  return rows.map((r) => ({ ...r, dedupeKey: r.dedupeKey!, createdAt: r.createdAt.getTime() }))
}

/** Dedupe keys `<prefix>:…`: from `<prefix>:` up to `<prefix>;` (';' follows ':'), which the unique index on dedupe_key serves. */
const keyRange = (prefix: string) => and(gte(outbox.dedupeKey, `${prefix}:`), lt(outbox.dedupeKey, `${prefix};`))

/** A user's rows for the data export: what was sent to them, when, and how it went (no payloads). */
export async function deliveriesOf(deps: OwnerDb, userId: number) {
  return asAsync(deps.db)
    .select({
      id: outbox.id,
      channel: outbox.channel,
      kind: outbox.kind,
      status: outbox.status,
      attempts: outbox.attempts,
      createdAt: outbox.createdAt,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(eq(outbox.userId, userId))
    .orderBy(asc(outbox.id))
}

/** A subquery for EXISTS / NOT EXISTS: the row whose dedupe key is `key` (an SQL expression of the outer query). */
export function rowWithKey(deps: Pick<Deps, 'db'>, key: SQL) {
  return asAsync(deps.db).select({ id: outbox.id }).from(outbox).where(eq(outbox.dedupeKey, key))
}
