// The most saved terms for Admin → Trends. This folder owns `search_terms` (src/db/owners.json);
// the match count per term is the matches folder's (src/matches/store.ts linksSince: match_terms and matches).
import { asc, count, countDistinct, desc, eq, inArray } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { searchTerms } from '../db/schema'
import { linksSince } from '../matches/store'

export type SavedTerm = { term: string; saves: number; users: number; categories: string[]; matches: number }

/** The `limit` most saved term texts (saves, accounts, categories) and their matches made since `matchesSinceMs`. */
export async function mostSavedTerms(deps: OwnerDb, limit: number, matchesSinceMs: number): Promise<SavedTerm[]> {
  const db = asAsync(deps.db)
  const saves = count()
  const top = await db
    .select({ term: searchTerms.term, saves, users: countDistinct(searchTerms.userId) })
    .from(searchTerms)
    .groupBy(searchTerms.term)
    .orderBy(desc(saves), asc(searchTerms.term))
    .limit(limit)
  // each text's term ids and categories (read here, not aggregated into text: the engines spell that differently)
  const of = new Map(top.map((t) => [t.term, { ids: [] as number[], categories: new Set<string>() }]))
  if (top.length > 0)
    for (const r of await db
      .select({ id: searchTerms.id, term: searchTerms.term, category: searchTerms.category })
      .from(searchTerms)
      .where(
        inArray(
          searchTerms.term,
          top.map((t) => t.term),
        ),
      )) {
      const o = of.get(r.term)!
      o.ids.push(r.id)
      o.categories.add(r.category)
    }
  // the matches of each text's terms: the links are the matches folder's (src/matches/store.ts)
  const counted: SavedTerm[] = []
  for (const t of top)
    counted.push({ ...t, categories: [...of.get(t.term)!.categories].sort(), matches: await linksSince(deps, of.get(t.term)!.ids, matchesSinceMs) })
  // a stable sort keeps the texts in order (term ASC) among equal saves and matches
  return counted.sort((a, b) => b.saves - a.saves || b.matches - a.matches)
}

/** One account's terms per category (wts, wtb, gd always present), in category then creation order. */
export async function termsOfUser(deps: OwnerDb, userId: number): Promise<Record<string, { id: number; term: string; paused: boolean }[]>> {
  const db = asAsync(deps.db)
  const rows = await db
    .select({ id: searchTerms.id, category: searchTerms.category, term: searchTerms.term, pausedAt: searchTerms.pausedAt })
    .from(searchTerms)
    .where(eq(searchTerms.userId, userId))
    .orderBy(asc(searchTerms.category), asc(searchTerms.createdAt))
  const byCategory: Record<string, { id: number; term: string; paused: boolean }[]> = { wts: [], wtb: [], gd: [] }
  for (const t of rows) (byCategory[t.category] ??= []).push({ id: t.id, term: t.term, paused: t.pausedAt !== null })
  return byCategory
}
