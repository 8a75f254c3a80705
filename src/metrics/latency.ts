// Alert latency rows (table alert_latency): one per alert — a live match that notifies — with the
// time of each step of its path. Writes are cheap by design: the row is inserted inside the match
// runner's own transaction (one cached prepared statement), socket times are buffered and written
// in one transaction on the next macrotask, and a delivery stamps its column once (first success).
// Imports nothing outside this folder but the database (src/db), so the runner and the outbox can call it without a folder edge.
import type { Database } from 'bun:sqlite'
import { and, eq, isNull, lt } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { alertLatency } from '../db/schema'

/** Rows are kept this long (the daily `alert-latency-prune` job). */
export const LATENCY_KEEP_DAYS = 30

export type Stamps = { receivedAt: number; storedAt: number }
/** A created match as the runner has it (RecordResult['created'][number], src/matches/runner.ts). */
export type CreatedMatch = { userId: number; notify: boolean; item: { id: number; postId: number | null; postCreatedAt: string | null } }
export type DeliveryChannel = 'socket' | 'push' | 'email'
/** The times a histogram needs once a delivery step lands. */
export type Landed = { channel: DeliveryChannel; at: number; createdAt: number | null; matchedAt: number }

const INSERT = `INSERT OR IGNORE INTO alert_latency (match_id, user_id, post_id, created_at, received_at, stored_at, matched_at) VALUES (?, ?, ?, ?, ?, ?, ?)`

/**
 * Inside the runner's transaction: one row per new alert (matches that notify), through one
 * statement prepared once per database (bun:sqlite's query cache).
 */
export function insertAlertRows(sqlite: Database, created: readonly CreatedMatch[], stamps: Stamps, matchedAt: number): void {
  const insert = sqlite.query(INSERT)
  for (const c of created) {
    if (!c.notify) continue
    const postAt = c.item.postCreatedAt === null ? null : Date.parse(c.item.postCreatedAt)
    insert.run(c.item.id, c.userId, c.item.postId, postAt, stamps.receivedAt, stamps.storedAt, matchedAt)
  }
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
export function stampClaim(sqlite: Database, matchId: number, userId: number, at: number, channel: string, action: ClaimAction): Claimed | null {
  const row = sqlite
    .query<{ created_at: number | null }, [number, string, string, number, number]>(
      `UPDATE alert_latency SET claimed_at = ?, claim_channel = ?, claim_action = ? WHERE match_id = ? AND user_id = ? AND claimed_at IS NULL RETURNING created_at`,
    )
    .get(at, channel, action, matchId, userId)
  return row ? { at, createdAt: row.created_at, channel, action } : null
}

/** Post → claim of one alert, ms (null: not claimed yet, or the post time is unknown). */
export function claimDelays(sqlite: Database, matchIds: readonly number[]): Map<number, { ms: number; channel: string; action: ClaimAction }> {
  const out = new Map<number, { ms: number; channel: string; action: ClaimAction }>()
  if (matchIds.length === 0) return out
  const rows = sqlite
    .query<{ match_id: number; created_at: number; claimed_at: number; claim_channel: string; claim_action: ClaimAction }, number[]>(
      `SELECT match_id, created_at, claimed_at, claim_channel, claim_action FROM alert_latency
       WHERE match_id IN (${matchIds.map(() => '?').join(',')}) AND claimed_at IS NOT NULL AND created_at IS NOT NULL`,
    )
    .all(...matchIds)
  for (const r of rows) out.set(r.match_id, { ms: Math.max(0, r.claimed_at - r.created_at), channel: r.claim_channel, action: r.claim_action })
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
export function socketTimeOf(sqlite: Database, matchId: number): number | null {
  return sqlite.query<{ socket_at: number | null }, [number]>('SELECT socket_at FROM alert_latency WHERE match_id = ?').get(matchId)?.socket_at ?? null
}
