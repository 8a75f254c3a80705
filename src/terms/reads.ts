// The reads of `search_terms` that other folders need on the alert path: the dispatcher and the
// digest (src/notify/), the explainer (src/explain/). This folder owns the table (src/db/owners.json).
// Imports nothing outside this folder (a pure leaf, scripts/check-cycles.ts), so src/notify/ — which
// this folder imports — calls it without a folder edge. A match's term ids come from
// src/matches/store.ts (termIdsOfMatch): match_terms is the matches folder's table.
import type { Database } from 'bun:sqlite'

/** A term's columns the alert path reads (raw: times in ms, `delivery` JSON text, `always_notify` 0/1; src/notify/delivery.ts termSettingsOf reads them). */
export type AlertTermRow = { id: number; created_at: number; delivery: string | null; muted_until: number | null; always_notify: number }

/** The terms of these ids that still exist (none for no ids). */
export function termsByIds(sqlite: Database, ids: readonly number[]): AlertTermRow[] {
  if (ids.length === 0) return []
  return sqlite
    .query<AlertTermRow, [string]>('SELECT id, created_at, delivery, muted_until, always_notify FROM search_terms WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...ids]))
}

/** A user's terms for the explainer, by category, then oldest first. */
export function termsOfUserByCategory(
  sqlite: Database,
  userId: number,
): { id: number; category: string; term: string; created_at: number; paused_at: number | null }[] {
  return sqlite
    .query<{ id: number; category: string; term: string; created_at: number; paused_at: number | null }, [number]>(
      'SELECT id, category, term, created_at, paused_at FROM search_terms WHERE user_id = ? ORDER BY category, created_at, id',
    )
    .all(userId)
}

/** The users with at least one term whose email is set to Digest (src/notify/delivery.ts TermDelivery): the digest job takes them whatever their email frequency. */
export function userIdsWithDigestTerm(sqlite: Database): Set<number> {
  return new Set(
    sqlite
      .query<{ userId: number }, []>("SELECT DISTINCT user_id AS userId FROM search_terms WHERE json_extract(delivery, '$.email') = 'digest'")
      .all()
      .map((r) => r.userId),
  )
}
