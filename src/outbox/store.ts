// Every write of the `outbox` table: one function per transition of ./status.ts, each one
// statement (Miniflux's storage: methods named for what they do). Other folders call these, or the
// helpers built on them (./queue.ts: enqueue, processOutbox, recoverStuckSending; src/notify/hold.ts:
// the wait), and never write the table themselves (`bun run check:sql`). Beside them, the reads
// the transitions' callers need to pick their rows; the reads for pages and reports are ./stats.ts.
//
// A match's rows have dedupe keys `match:<id>:<channel>…` (src/notify/dispatcher.ts): a match's key
// range is `match:<id>:` up to `match:<id>;` (';' follows ':'), which the unique index on dedupe_key serves.
import { and, asc, eq, gte, inArray, like, lt, lte, notInArray, or, sql } from 'drizzle-orm'
import { engineOf, type OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { outbox, type OutboxRow } from '../db/schema'

/** Every statement runs on either engine (issue 29: the outbox drained by every node); `db` may be the caller's transaction. */
type AnyDb = OwnerDb
/** The channels a user's wait and a gone post's cancellation apply to (in-app is instant, external channels never wait). */
const MATCH_ALERT_CHANNELS = ['email', 'push']

/** enqueue (→ pending) / hold (→ held until `dueAt`): a new row; a row with the same dedupe key already there → null. */
export async function insertRow(
  deps: AnyDb,
  row: {
    channel: string
    kind: string
    userId: number | null
    dedupeKey: string | null
    payload: Record<string, unknown>
    held: boolean
    dueAt: Date
    note: string | null
    at: Date
  },
): Promise<number | null> {
  const [inserted] = await asAsync(deps.db)
    .insert(outbox)
    .values({
      channel: row.channel,
      kind: row.kind,
      userId: row.userId,
      dedupeKey: row.dedupeKey,
      payload: row.payload,
      status: row.held ? 'held' : 'pending',
      nextAttemptAt: row.dueAt,
      lastError: row.note,
      createdAt: row.at,
    })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id })
  return inserted?.id ?? null
}

/**
 * claim (pending → sending): up to `limit` rows due at `now` (oldest due first; `exceptKinds` stay
 * pending), their attempt counted and its start time written to next_attempt_at, in one statement
 * that commits before any network call. Returns the rows as claimed, by id.
 *
 * Several workers may claim at once on PostgreSQL (every app node drains the outbox): the rows are
 * picked `FOR UPDATE SKIP LOCKED`, so each row goes to exactly one worker and none waits for another,
 * and the update re-checks `pending` (a row another worker took meanwhile is not taken twice). SQLite
 * has one writer: the same statement without the lock clause.
 */
export async function claim(deps: AnyDb, opts: { now: Date; limit: number; exceptKinds?: readonly string[] }): Promise<OutboxRow[]> {
  const db = asAsync(deps.db)
  const due = and(
    eq(outbox.status, 'pending'),
    lte(outbox.nextAttemptAt, opts.now),
    opts.exceptKinds ? notInArray(outbox.kind, [...opts.exceptKinds]) : undefined,
  )
  const picked =
    engineOf(deps.db) === 'postgres'
      ? sql`(SELECT ${outbox.id} FROM ${outbox} WHERE ${due} ORDER BY ${outbox.nextAttemptAt}, ${outbox.id} LIMIT ${opts.limit} FOR UPDATE SKIP LOCKED)`
      : db.select({ id: outbox.id }).from(outbox).where(due).orderBy(asc(outbox.nextAttemptAt), asc(outbox.id)).limit(opts.limit)
  const rows = await db
    .update(outbox)
    .set({ status: 'sending', attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: opts.now })
    .where(and(eq(outbox.status, 'pending'), inArray(outbox.id, picked)))
    .returning()
  return rows.sort((a, b) => a.id - b.id)
}

/** markSent (sending → sent): the provider accepted it. */
export async function markSent(deps: AnyDb, id: number, at: Date): Promise<void> {
  await asAsync(deps.db).update(outbox).set({ status: 'sent', sentAt: at, lastError: null }).where(eq(outbox.id, id))
}

/** retryLater (sending → pending): the attempt failed; due again at `dueAt` (the backoff). */
export async function retryLater(deps: AnyDb, id: number, failure: { error: string; dueAt: Date }): Promise<void> {
  await asAsync(deps.db).update(outbox).set({ status: 'pending', lastError: failure.error, nextAttemptAt: failure.dueAt }).where(eq(outbox.id, id))
}

/** markFailed (sending → failed): retrying cannot help, or the attempts are used up; `dueAt` is what a retry would have waited for. */
export async function markFailed(deps: AnyDb, id: number, failure: { error: string; dueAt: Date }): Promise<void> {
  await asAsync(deps.db).update(outbox).set({ status: 'failed', lastError: failure.error, nextAttemptAt: failure.dueAt }).where(eq(outbox.id, id))
}

/**
 * recover (sending → pending | failed), at startup: rows a killed process left `sending` are maybe
 * sent (`note`). Out of attempts → failed; email due `emailDelayMs` after its attempt started, the
 * rest at once. Returns how many rows it reset.
 */
export async function recover(
  deps: AnyDb,
  opts: {
    now: Date
    maxAttempts: number
    emailDelayMs: number
    note: string
    /** only rows claimed at or before this (several nodes: others' rows in flight stay) */ claimedBefore?: Date
  },
): Promise<number> {
  const db = asAsync(deps.db)
  const now = opts.now.getTime()
  // the later of two times: SQLite's scalar max, PostgreSQL's greatest
  const later = engineOf(db) === 'postgres' ? sql.raw('greatest') : sql.raw('max')
  const rows = await db
    .update(outbox)
    .set({
      status: sql`CASE WHEN ${outbox.attempts} >= ${opts.maxAttempts} THEN 'failed' ELSE 'pending' END`,
      nextAttemptAt: sql`CASE WHEN ${outbox.channel} = 'email' THEN ${later}(${outbox.nextAttemptAt} + ${opts.emailDelayMs}, ${now}) ELSE ${now} END`,
      lastError: opts.note,
    })
    .where(and(eq(outbox.status, 'sending'), opts.claimedBefore ? lte(outbox.nextAttemptAt, opts.claimedBefore) : undefined))
    .returning({ id: outbox.id })
  return rows.length
}

/** requeue (failed → pending): one failed row (`id`) or every one, attempts reset, due `now`; returns the channels of the rows requeued. */
export async function requeue(deps: AnyDb, now: Date, id?: number): Promise<string[]> {
  const rows = await asAsync(deps.db)
    .update(outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now })
    .where(and(eq(outbox.status, 'failed'), id === undefined ? undefined : eq(outbox.id, id)))
    .returning({ channel: outbox.channel })
  return rows.map((r) => r.channel)
}

/** wait (pending → waiting): a match's email and push rows of the user wait until `until` for the re-check. */
export async function wait(deps: AnyDb, opts: { userId: number; matchId: number; until: Date }): Promise<number> {
  return (
    await asAsync(deps.db)
      .update(outbox)
      .set({ status: 'waiting', nextAttemptAt: opts.until })
      .where(
        and(
          eq(outbox.status, 'pending'),
          eq(outbox.userId, opts.userId),
          inArray(outbox.channel, MATCH_ALERT_CHANNELS),
          like(outbox.dedupeKey, `match:${opts.matchId}:%`),
        ),
      )
      .returning({ id: outbox.id })
  ).length
}

/** release (waiting → pending): due `now`; 0 when the row no longer waits. */
export async function release(deps: AnyDb, id: number, now: Date): Promise<number> {
  return (
    await asAsync(deps.db)
      .update(outbox)
      .set({ status: 'pending', nextAttemptAt: now })
      .where(and(eq(outbox.id, id), eq(outbox.status, 'waiting')))
      .returning({ id: outbox.id })
  ).length
}

/** skip (waiting → skipped): never sent, `reason` in last_error; 0 when the row no longer waits. */
export async function skip(deps: AnyDb, id: number, reason: string): Promise<number> {
  return (
    await asAsync(deps.db)
      .update(outbox)
      .set({ status: 'skipped', lastError: reason })
      .where(and(eq(outbox.id, id), eq(outbox.status, 'waiting')))
      .returning({ id: outbox.id })
  ).length
}

/** cancel (pending | held | waiting → skipped): the email and push rows of these matches not yet sent; `reason` in last_error. */
export async function cancel(deps: AnyDb, matchIds: readonly number[], reason: string): Promise<number> {
  const db = asAsync(deps.db)
  let n = 0
  // each match's key range, which the unique index on dedupe_key serves; 200 matches a statement (SQLite's expression depth)
  for (let i = 0; i < matchIds.length; i += 200) {
    const ofMatches = or(...matchIds.slice(i, i + 200).map((id) => and(gte(outbox.dedupeKey, `match:${id}:`), lt(outbox.dedupeKey, `match:${id};`))))
    n += (
      await db
        .update(outbox)
        .set({ status: 'skipped', lastError: reason })
        .where(and(inArray(outbox.status, ['pending', 'held', 'waiting']), inArray(outbox.channel, MATCH_ALERT_CHANNELS), ofMatches))
        .returning({ id: outbox.id })
    ).length
  }
  return n
}

/** fold (held → sent, or → failed when not `delivered`): held rows a summary carried, with `note` in last_error. */
export async function fold(deps: AnyDb, ids: readonly number[], opts: { delivered: boolean; at: Date; note: string }): Promise<number> {
  if (ids.length === 0) return 0
  return (
    await asAsync(deps.db)
      .update(outbox)
      .set({ status: opts.delivered ? 'sent' : 'failed', sentAt: opts.delivered ? opts.at : null, lastError: opts.note })
      .where(and(inArray(outbox.id, [...ids]), eq(outbox.status, 'held')))
      .returning({ id: outbox.id })
  ).length
}

/** prune (sent → gone): rows sent before `before` (their dedupe keys have done their job). */
export async function prune(deps: AnyDb, before: Date): Promise<number> {
  const rows = await asAsync(deps.db)
    .delete(outbox)
    .where(and(eq(outbox.status, 'sent'), lte(outbox.sentAt, before)))
    .returning({ id: outbox.id })
  return rows.length
}

/** The match a row of a match delivers, from its dedupe key `match:<id>:…`; null for other rows. */
export function matchIdOfKey(key: string | null): number | null {
  const m = key?.match(/^match:(\d+):/)
  return m ? Number(m[1]) : null
}

/** Waiting rows of matches whose wait is over at `now`, oldest due first (src/notify/hold.ts releases them). */
export async function dueWaiting(deps: AnyDb, now: Date): Promise<{ id: number; matchId: number; dueAt: number }[]> {
  const rows = await asAsync(deps.db)
    .select({ id: outbox.id, dedupeKey: outbox.dedupeKey, dueAt: outbox.nextAttemptAt })
    .from(outbox)
    .where(and(eq(outbox.status, 'waiting'), like(outbox.dedupeKey, 'match:%'), lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
  return rows.flatMap((r) => {
    const matchId = matchIdOfKey(r.dedupeKey)
    return matchId === null ? [] : [{ id: r.id, matchId, dueAt: r.dueAt.getTime() }]
  })
}

/** Held rows due at `now`, by id (src/notify/quiet-summary.ts folds them into summaries). */
export async function dueHeld(deps: AnyDb, now: Date): Promise<OutboxRow[]> {
  return asAsync(deps.db)
    .select()
    .from(outbox)
    .where(and(eq(outbox.status, 'held'), lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.id))
}
