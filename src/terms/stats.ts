// The most saved terms for Admin → Trends. This folder owns `search_terms` (src/db/owners.json);
// the match count per term is the matches folder's (src/matches/store.ts linksSince: match_terms and matches).
import type { Deps } from '../deps'
import { linksSince } from '../matches/store'

export type SavedTerm = { term: string; saves: number; users: number; categories: string[]; matches: number }

/** The `limit` most saved term texts (saves, accounts, categories) and their matches made since `matchesSinceMs`. */
export function mostSavedTerms(deps: Pick<Deps, 'sqlite'>, limit: number, matchesSinceMs: number): SavedTerm[] {
  const top = deps.sqlite
    .query<{ term: string; saves: number; users: number; categories: string; ids: string }, [number]>(
      `SELECT term, count(*) AS saves, count(DISTINCT user_id) AS users, group_concat(DISTINCT category) AS categories, json_group_array(id) AS ids
       FROM search_terms GROUP BY term ORDER BY saves DESC, term ASC LIMIT ?`,
    )
    .all(limit)
  // the matches of each text's terms: the links are the matches folder's (src/matches/store.ts)
  const counted = top.map(({ ids, ...r }) => ({ ...r, matches: linksSince(deps.sqlite, JSON.parse(ids) as number[], matchesSinceMs) }))
  // a stable sort keeps the texts in order (term ASC) among equal saves and matches
  return counted.sort((a, b) => b.saves - a.saves || b.matches - a.matches).map((r) => ({ ...r, categories: r.categories.split(',').sort() }))
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
