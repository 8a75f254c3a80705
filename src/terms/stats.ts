// The most saved terms for Admin → Trends. This folder owns `search_terms` (src/db/owners.json);
// the match count per term reads match_terms/matches as src/terms/service.ts does on removal.
import type { Deps } from '../deps'

export type SavedTerm = { term: string; saves: number; users: number; categories: string[]; matches: number }

/** The `limit` most saved term texts (saves, accounts, categories) and their matches made since `matchesSinceMs`. */
export function mostSavedTerms(deps: Pick<Deps, 'sqlite'>, limit: number, matchesSinceMs: number): SavedTerm[] {
  return deps.sqlite
    .query<{ term: string; saves: number; users: number; categories: string; matches: number }, [number, number]>(
      `WITH top AS (
         SELECT term, count(*) AS saves, count(DISTINCT user_id) AS users, group_concat(DISTINCT category) AS categories
         FROM search_terms GROUP BY term ORDER BY saves DESC, term ASC LIMIT ?2)
       SELECT top.term, top.saves, top.users, top.categories,
         (SELECT count(*) FROM search_terms s JOIN match_terms mt ON mt.term_id = s.id JOIN matches m ON m.id = mt.match_id
          WHERE s.term = top.term AND m.created_at >= ?1) AS matches
       FROM top ORDER BY top.saves DESC, matches DESC, top.term ASC`,
    )
    .all(matchesSinceMs, limit)
    .map((r) => ({ ...r, categories: r.categories.split(',').sort() }))
}

/** One account's terms per category (wts, wtb, gd always present), in category then creation order. */
export function termsOfUser(deps: Pick<Deps, 'sqlite'>, userId: number): Record<string, { id: number; term: string; paused: boolean }[]> {
  const rows = deps.sqlite
    .query<{ id: number; category: string; term: string; paused_at: number | null }, [number]>(
      'SELECT id, category, term, paused_at FROM search_terms WHERE user_id = ? ORDER BY category, created_at',
    )
    .all(userId)
  const byCategory: Record<string, { id: number; term: string; paused: boolean }[]> = { wts: [], wtb: [], gd: [] }
  for (const t of rows) (byCategory[t.category] ??= []).push({ id: t.id, term: t.term, paused: t.paused_at !== null })
  return byCategory
}
