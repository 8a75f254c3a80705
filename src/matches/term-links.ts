// The writes and reads of matches and match_terms that removing a term needs (src/terms/service.ts), async
// on either engine (issue 29 phase 1). Apart from ./store.ts, whose synchronous reads the browser
// bundle reaches through src/notify/delivery.ts: this file imports the database driver.
import { asc, eq, inArray } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches, matchTerms } from '../db/schema'
import { chunksOf } from '../lib/id-lists'

/** The matches term `termId` is linked to. */
export async function matchIdsOfTerm(deps: OwnerDb, termId: number): Promise<number[]> {
  return (await asAsync(deps.db).select({ id: matchTerms.matchId }).from(matchTerms).where(eq(matchTerms.termId, termId))).map((r) => r.id)
}

/** The terms each of the matches `matchIds` is linked to, in term id order (none: an empty list); 500 matches at a time. */
export async function termIdsOfMatches(deps: OwnerDb, matchIds: readonly number[]): Promise<Map<number, number[]>> {
  const db = asAsync(deps.db)
  const out = new Map<number, number[]>(matchIds.map((id) => [id, []]))
  for (const chunk of chunksOf(matchIds))
    for (const r of await db
      .select({ matchId: matchTerms.matchId, termId: matchTerms.termId })
      .from(matchTerms)
      .where(inArray(matchTerms.matchId, chunk))
      .orderBy(asc(matchTerms.termId)))
      out.get(r.matchId)!.push(r.termId)
  return out
}

/** Deletes match `id` (its match_terms rows cascade). */
export async function deleteMatch(deps: OwnerDb, id: number): Promise<void> {
  await asAsync(deps.db).delete(matches).where(eq(matches.id, id))
}

/** Sets the term texts match `id` carries (matched_terms). */
export async function setMatchedTerms(deps: OwnerDb, id: number, texts: string[]): Promise<void> {
  await asAsync(deps.db).update(matches).set({ matchedTerms: texts }).where(eq(matches.id, id))
}
