// Alert latency rows (table alert_latency): one per alert — a live match that notifies — with the
// time of each step of its path. Writes are cheap by design: the rows are inserted inside the match
// runner's own transaction (one multi-row insert per batch), socket times are buffered and written
// in one transaction on the next macrotask, and a delivery stamps its column once (first success).
// Imports nothing outside this folder but the database (src/db), so the runner and the outbox can call it without a folder edge.
import { and, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { alertLatency } from '../db/schema'
import { chunksOf } from '../lib/id-lists'
import { insertMany } from '../db/bulk'

/** Rows are kept this long (the daily `alert-latency-prune` job). */
export const LATENCY_KEEP_DAYS = 30

export type Stamps = { receivedAt: number; storedAt: number }
/** A created match as the runner has it (RecordResult['created'][number], src/matches/runner.ts). */
export type CreatedMatch = { userId: number; notify: boolean; item: { id: number; postId: number | null; postCreatedAt: string | null } }
export type DeliveryChannel = 'socket' | 'push' | 'email'
/** The times a histogram needs once a delivery step lands. */
export type Landed = { channel: DeliveryChannel; at: number; createdAt: number | null; matchedAt: number }

/**
 * Inside the runner's transaction (pass it as `{ db: tx }`): one row per new alert (matches that
 * notify), in one multi-row insert per 500; a match that has its row already keeps it.
 */
export async function insertAlertRows(deps: OwnerDb, created: readonly CreatedMatch[], stamps: Stamps, matchedAt: number): Promise<void> {
  const rows = created
    .filter((c) => c.notify)
    .map((c) => ({
      matchId: c.item.id,
      userId: c.userId,
      postId: c.item.postId,
      createdAt: c.item.postCreatedAt === null ? null : Date.parse(c.item.postCreatedAt),
      receivedAt: stamps.receivedAt,
      storedAt: stamps.storedAt,
      matchedAt,
    }))
  await insertMany(deps.db, alertLatency, rows, { onConflictDoNothing: [alertLatency.matchId] })
}

const COLUMN = { socket: 'socketAt', push: 'pushAt', email: 'emailAt' } as const satisfies Record<DeliveryChannel, keyof typeof alertLatency.$inferSelect>

/** The first success of a channel sets its column; later ones (a second device) change nothing. */
async function stamp(deps: OwnerDb, channel: DeliveryChannel, matchId: number, at: number): Promise<Landed | null> {
  const key = COLUMN[channel]
  const [row] = await asAsync(deps.db)
    .update(alertLatency)
    .set({ [key]: at })
    .where(and(eq(alertLatency.matchId, matchId), isNull(alertLatency[key])))
    .returning({ createdAt: alertLatency.createdAt, matchedAt: alertLatency.matchedAt })
  return row ? { channel, at, createdAt: row.createdAt, matchedAt: row.matchedAt } : null
}

/** The match id an outbox row delivers, from its dedupe key (`match:<id>:email`, `match:<id>:push:<sub>`); null for other rows. */
export function alertOfOutboxRow(row: { kind: string; dedupeKey: string | null }): number | null {
  if (row.kind !== 'match' || !row.dedupeKey) return null
  const m = /^match:(\d+):/.exec(row.dedupeKey)
  return m ? Number(m[1]) : null
}

/** An outbox row was accepted by its provider (push 2xx, SMTP 250): stamp push_at / email_at. */
export async function stampDelivery(deps: OwnerDb, row: { kind: string; dedupeKey: string | null; channel: string }, at: number): Promise<Landed | null> {
  const matchId = alertOfOutboxRow(row)
  if (matchId === null || (row.channel !== 'push' && row.channel !== 'email')) return null
  return stamp(deps, row.channel, matchId, at)
}

/**
 * Socket times, buffered: the hub publishes match.new synchronously inside the scan, so the write
 * waits for the next macrotask and then covers every match of the batch in one transaction.
 */
export function socketStamper(deps: OwnerDb, onLanded: (l: Landed) => void) {
  const pending = new Map<number, number>()
  let timer: ReturnType<typeof setTimeout> | null = null
  const flush = async () => {
    timer = null
    const batch = [...pending]
    pending.clear()
    try {
      const landed = await asAsync(deps.db).transaction(async (tx) => {
        const out: (Landed | null)[] = []
        for (const [id, at] of batch) out.push(await stamp({ db: tx }, 'socket', id, at))
        return out
      })
      for (const l of landed) if (l) onLanded(l)
    } catch {
      // the database closed under us (shutdown): the stamps are lost, the alerts are not
    }
  }
  return {
    note(matchId: number, at: number) {
      pending.set(matchId, at)
      timer ??= setTimeout(() => void flush(), 0)
    },
    flush,
  }
}

/** Where a user acted on an alert: the app (match card), or the channel whose link they followed. */
export type ClaimAction = 'open' | 'claim'
export type Claimed = { at: number; createdAt: number | null; channel: string; action: ClaimAction }

/**
 * The user first opened or claimed an alert: stamps claimed_at (with where and how) once; later opens and claims
 * change nothing. Null when the alert has no row (not a live alert, pruned) or was stamped before.
 */
export async function stampClaim(deps: OwnerDb, matchId: number, userId: number, at: number, channel: string, action: ClaimAction): Promise<Claimed | null> {
  const a = alertLatency
  const [row] = await asAsync(deps.db)
    .update(a)
    .set({ claimedAt: at, claimChannel: channel, claimAction: action })
    .where(and(eq(a.matchId, matchId), eq(a.userId, userId), isNull(a.claimedAt)))
    .returning({ createdAt: a.createdAt })
  return row ? { at, createdAt: row.createdAt, channel, action } : null
}

/** Post → claim of one alert, ms (null: not claimed yet, or the post time is unknown). */
export async function claimDelays(deps: OwnerDb, matchIds: readonly number[]): Promise<Map<number, { ms: number; channel: string; action: ClaimAction }>> {
  const out = new Map<number, { ms: number; channel: string; action: ClaimAction }>()
  const a = alertLatency
  const db = asAsync(deps.db)
  for (const chunk of chunksOf(matchIds)) {
    const rows = await db
      .select({ matchId: a.matchId, createdAt: a.createdAt, claimedAt: a.claimedAt, channel: a.claimChannel, action: a.claimAction })
      .from(a)
      .where(and(inArray(a.matchId, chunk), isNotNull(a.claimedAt), isNotNull(a.createdAt)))
    for (const r of rows) out.set(r.matchId, { ms: Math.max(0, r.claimedAt! - r.createdAt!), channel: r.channel!, action: r.action as ClaimAction })
  }
  return out
}

/** Deletes rows older than LATENCY_KEEP_DAYS; returns how many. */
export async function pruneAlertLatency(deps: OwnerDb, now: number, days = LATENCY_KEEP_DAYS): Promise<number> {
  return (
    await asAsync(deps.db)
      .delete(alertLatency)
      .where(lt(alertLatency.matchedAt, now - days * 86_400_000))
      .returning({ id: alertLatency.matchId })
  ).length
}

/** When the socket alert of a match went out (ms), or null: none yet, or no row (the explainer). */
export async function socketTimeOf(deps: OwnerDb, matchId: number): Promise<number | null> {
  const [row] = await asAsync(deps.db).select({ socketAt: alertLatency.socketAt }).from(alertLatency).where(eq(alertLatency.matchId, matchId)).limit(1)
  return row?.socketAt ?? null
}
