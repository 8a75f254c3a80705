// The reads of search_terms that other folders need (issue 29 §1: this folder owns the table, src/db/owners.json).
// A pure leaf (it imports nothing outside this folder and src/lib): src/matches/ sits below src/terms/ (terms imports the
// runner and the term index), so the term index (src/matches/matcher.ts) and the runner read the terms here
// without a folder edge back to terms (docs/ARCHITECTURE.md, "Import rules": a pure leaf closes no cycle).
import type { Database } from 'bun:sqlite'
import { and, asc, count, eq, gt, inArray, isNull, max, or } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { searchTerms } from '../db/schema'
import { chunksOf } from '../lib/id-lists'

/** The columns of a term the term index files (src/matches/matcher.ts). */
export type IndexedTermRow = { id: number; user_id: number; category: string; term: string; created_at: number }

/**
 * Every term not paused, sorted by text (the index files a run of one text into one group), one row at a time:
 * the SQLite-only synchronous form, for the MatchingService constructor alone (src/matches/matcher.ts), which
 * cannot await while src/services.ts createServices stays synchronous. Everything else reads activeTermsByText.
 */
export function activeTermsByTextSqliteAtStart(sqlite: Database): IterableIterator<IndexedTermRow> {
  return sqlite.query<IndexedTermRow, []>('SELECT id, user_id, category, term, created_at FROM search_terms WHERE paused_at IS NULL ORDER BY term').iterate()
}

/** How many terms a page of activeTermsByText reads. */
const TERM_PAGE = 5000

/** Every term not paused, sorted by text then id, read a page at a time (keyset on text and id: no half-million-row array held). */
export async function* activeTermsByText(deps: OwnerDb): AsyncGenerator<IndexedTermRow> {
  const db = asAsync(deps.db)
  let after: { term: string; id: number } | null = null
  for (;;) {
    const rows = await db
      .select({ id: searchTerms.id, userId: searchTerms.userId, category: searchTerms.category, term: searchTerms.term, createdAt: searchTerms.createdAt })
      .from(searchTerms)
      .where(
        and(
          isNull(searchTerms.pausedAt),
          after === null ? undefined : or(gt(searchTerms.term, after.term), and(eq(searchTerms.term, after.term), gt(searchTerms.id, after.id))),
        ),
      )
      .orderBy(asc(searchTerms.term), asc(searchTerms.id))
      .limit(TERM_PAGE)
    for (const r of rows) yield { id: r.id, user_id: r.userId, category: r.category, term: r.term, created_at: r.createdAt.getTime() }
    const last = rows.at(-1)
    if (last === undefined || rows.length < TERM_PAGE) return
    after = { term: last.term, id: last.id }
  }
}

/** How many terms are not paused, and the highest id among them (0 when none). */
export async function activeTermCount(deps: OwnerDb): Promise<{ n: number; max: number }> {
  const db = asAsync(deps.db)
  const r = (
    await db
      .select({ n: count(), max: max(searchTerms.id) })
      .from(searchTerms)
      .where(isNull(searchTerms.pausedAt))
  )[0]
  return { n: r?.n ?? 0, max: r?.max ?? 0 }
}

/** The terms not paused with an id above `id` (added since the index last looked). */
export async function activeTermsAfter(deps: OwnerDb, id: number): Promise<IndexedTermRow[]> {
  const db = asAsync(deps.db)
  const rows = await db
    .select({ id: searchTerms.id, userId: searchTerms.userId, category: searchTerms.category, term: searchTerms.term, createdAt: searchTerms.createdAt })
    .from(searchTerms)
    .where(and(gt(searchTerms.id, id), isNull(searchTerms.pausedAt)))
  return rows.map((r) => ({ id: r.id, user_id: r.userId, category: r.category, term: r.term, created_at: r.createdAt.getTime() }))
}

/** The ids of every term not paused. */
export async function activeTermIds(deps: OwnerDb): Promise<number[]> {
  const db = asAsync(deps.db)
  return (await db.select({ id: searchTerms.id }).from(searchTerms).where(isNull(searchTerms.pausedAt))).map((r) => r.id)
}

/** Which of `ids` are still stored (paused or not), read 500 at a time. */
export async function existingTermIds(deps: OwnerDb, ids: readonly number[]): Promise<Set<number>> {
  const db = asAsync(deps.db)
  const existing = new Set<number>()
  for (const chunk of chunksOf(ids))
    for (const r of await db.select({ id: searchTerms.id }).from(searchTerms).where(inArray(searchTerms.id, chunk))) existing.add(r.id)
  return existing
}
