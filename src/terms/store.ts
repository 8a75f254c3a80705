// The reads of search_terms that other folders need (issue 29 §1: this folder owns the table, src/db/owners.json).
// A pure leaf (it imports nothing outside this folder and src/lib): src/matches/ sits below src/terms/ (terms imports the
// runner and the term index), so the term index (src/matches/matcher.ts) and the runner read the terms here
// without a folder edge back to terms (docs/ARCHITECTURE.md, "Import rules": a pure leaf closes no cycle).
import type { Database } from 'bun:sqlite'
import { chunksOf, placeholders } from '../lib/id-lists'

/** The columns of a term the term index files (src/matches/matcher.ts). */
export type IndexedTermRow = { id: number; user_id: number; category: string; term: string; created_at: number }

/** Every term not paused, sorted by text (the index files a run of one text into one group), one row at a time. */
export function activeTermsByText(sqlite: Database): IterableIterator<IndexedTermRow> {
  return sqlite.query<IndexedTermRow, []>('SELECT id, user_id, category, term, created_at FROM search_terms WHERE paused_at IS NULL ORDER BY term').iterate()
}

/** How many terms are not paused, and the highest id among them (0 when none). */
export function activeTermCount(sqlite: Database): { n: number; max: number } {
  return sqlite.query('SELECT count(*) AS n, coalesce(max(id), 0) AS max FROM search_terms WHERE paused_at IS NULL').get() as { n: number; max: number }
}

/** The terms not paused with an id above `id` (added since the index last looked). */
export function activeTermsAfter(sqlite: Database, id: number): IndexedTermRow[] {
  return sqlite.query<IndexedTermRow, [number]>('SELECT id, user_id, category, term, created_at FROM search_terms WHERE id > ? AND paused_at IS NULL').all(id)
}

/** The ids of every term not paused. */
export function activeTermIds(sqlite: Database): number[] {
  return sqlite
    .query<{ id: number }, []>('SELECT id FROM search_terms WHERE paused_at IS NULL')
    .all()
    .map((r) => r.id)
}

/** Which of `ids` are still stored (paused or not), read 500 at a time. */
export function existingTermIds(sqlite: Database, ids: readonly number[]): Set<number> {
  const existing = new Set<number>()
  for (const chunk of chunksOf(ids))
    for (const r of sqlite.query<{ id: number }, number[]>(`SELECT id FROM search_terms WHERE id IN (${placeholders(chunk.length)})`).all(...chunk))
      existing.add(r.id)
  return existing
}
