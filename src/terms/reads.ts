// The reads of `search_terms` that other folders need on the alert path: the dispatcher and the
// digest (src/notify/), the explainer (src/explain/). This folder owns the table (src/db/owners.json).
// Imports nothing outside this folder (a pure leaf, scripts/check-cycles.ts), so src/notify/ — which
// this folder imports — calls it without a folder edge. A match's term ids come from
// src/matches/store.ts (termIdsOfMatch): match_terms is the matches folder's table.
import { asc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { searchTerms } from '../db/schema'
import { chunksOf } from '../lib/id-lists'

/** A term's columns the alert path reads (raw: times in ms, `delivery` JSON text, `always_notify` 0/1; src/notify/delivery.ts termSettingsOf reads them). */
export type AlertTermRow = { id: number; created_at: number; delivery: string | null; muted_until: number | null; always_notify: number }

/** `delivery` as stored, unparsed (a value that is not JSON stays readable: src/notify/delivery.ts termSettingsOf reads it as the defaults); the driver may hand JSON over parsed. */
const deliveryText = sql<unknown>`${searchTerms.delivery}`
const asText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v))
const digestEmail = (v: unknown): boolean => {
  try {
    const d: unknown = typeof v === 'string' ? JSON.parse(v) : v
    return typeof d === 'object' && d !== null && (d as { email?: unknown }).email === 'digest'
  } catch {
    return false
  }
}

/** The terms of these ids that still exist (none for no ids), by id; 500 ids a statement. */
export async function termsByIds(deps: OwnerDb, ids: readonly number[]): Promise<AlertTermRow[]> {
  const db = asAsync(deps.db)
  const out: AlertTermRow[] = []
  for (const chunk of chunksOf([...new Set(ids)]))
    for (const t of await db
      .select({
        id: searchTerms.id,
        createdAt: searchTerms.createdAt,
        delivery: deliveryText,
        mutedUntil: searchTerms.mutedUntil,
        alwaysNotify: searchTerms.alwaysNotify,
      })
      .from(searchTerms)
      .where(inArray(searchTerms.id, chunk)))
      out.push({
        id: t.id,
        created_at: t.createdAt.getTime(),
        delivery: asText(t.delivery),
        muted_until: t.mutedUntil === null ? null : t.mutedUntil.getTime(),
        always_notify: t.alwaysNotify ? 1 : 0,
      })
  return out.sort((a, b) => a.id - b.id)
}

/** A user's terms for the explainer, by category, then oldest first. */
export async function termsOfUserByCategory(
  deps: OwnerDb,
  userId: number,
): Promise<{ id: number; category: string; term: string; created_at: number; paused_at: number | null }[]> {
  const db = asAsync(deps.db)
  const rows = await db
    .select({ id: searchTerms.id, category: searchTerms.category, term: searchTerms.term, createdAt: searchTerms.createdAt, pausedAt: searchTerms.pausedAt })
    .from(searchTerms)
    .where(eq(searchTerms.userId, userId))
    .orderBy(asc(searchTerms.category), asc(searchTerms.createdAt), asc(searchTerms.id))
  return rows.map((r) => ({
    id: r.id,
    category: r.category,
    term: r.term,
    created_at: r.createdAt.getTime(),
    paused_at: r.pausedAt === null ? null : r.pausedAt.getTime(),
  }))
}

/** The users with at least one term whose email is set to Digest (src/notify/delivery.ts TermDelivery): the digest job takes them whatever their email frequency. The JSON is read here, the same on both engines. */
export async function userIdsWithDigestTerm(deps: OwnerDb): Promise<Set<number>> {
  const db = asAsync(deps.db)
  const rows = await db.select({ userId: searchTerms.userId, delivery: deliveryText }).from(searchTerms).where(isNotNull(searchTerms.delivery))
  return new Set(rows.filter((r) => digestEmail(r.delivery)).map((r) => r.userId))
}
