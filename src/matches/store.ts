// The reads and writes of matches and match_terms that other folders need (issue 29 §1: this folder owns both
// tables, src/db/owners.json). A pure leaf (it imports nothing outside this folder, src/lib and src/db), so src/forums/ — below
// src/matches/, which imports it — reads who matched a post here without a folder edge back (docs/ARCHITECTURE.md,
// "Import rules": a pure leaf closes no cycle). src/terms/ (above) calls it like any file of this folder.
import { and, asc, count, eq, gte, inArray } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches, matchTerms } from '../db/schema'
import { chunksOf } from '../lib/id-lists'

// — for src/forums/ (the re-check and the author look-ups order their work by what was matched) —

/** Matches made since `since`, counted per post. */
export async function matchCountsSince(deps: OwnerDb, since: number): Promise<Map<number, number>> {
  const db = asAsync(deps.db)
  const rows = await db
    .select({ postId: matches.postId, n: count() })
    .from(matches)
    .where(gte(matches.matchedAt, new Date(since)))
    .groupBy(matches.postId)
  return new Map(rows.map((r) => [r.postId as number, r.n]))
}

/** The users with a match on post `postId`, ascending (the socket topics of a post's change). */
export async function usersMatchedOn(deps: OwnerDb, postId: number): Promise<number[]> {
  const db = asAsync(deps.db)
  const rows = await db.selectDistinct({ userId: matches.userId }).from(matches).where(eq(matches.postId, postId)).orderBy(asc(matches.userId))
  return rows.map((u) => u.userId)
}

/** Which of the posts `postIds` have at least one match; 500 at a time. */
export async function postsWithMatches(deps: OwnerDb, postIds: readonly number[]): Promise<Set<number>> {
  const db = asAsync(deps.db)
  const out = new Set<number>()
  for (const chunk of chunksOf(postIds))
    for (const r of await db.selectDistinct({ postId: matches.postId }).from(matches).where(inArray(matches.postId, chunk)))
      if (r.postId !== null) out.add(r.postId)
  return out
}

// — for src/terms/ (removing a term removes its matches; the most saved terms count their matches) —

/** The terms match `matchId` is linked to, in term id order. */
export async function termIdsOfMatch(deps: OwnerDb, matchId: number): Promise<number[]> {
  const db = asAsync(deps.db)
  const rows = await db.select({ termId: matchTerms.termId }).from(matchTerms).where(eq(matchTerms.matchId, matchId)).orderBy(asc(matchTerms.termId))
  return rows.map((r) => r.termId)
}

/** How many links the terms `termIds` have to matches made since `since` (a match counts once per linked term); 500 terms at a time. */
export async function linksSince(deps: OwnerDb, termIds: readonly number[], since: number): Promise<number> {
  const db = asAsync(deps.db)
  let n = 0
  for (const chunk of chunksOf(termIds)) {
    const r = await db
      .select({ n: count() })
      .from(matchTerms)
      .innerJoin(matches, eq(matches.id, matchTerms.matchId))
      .where(and(inArray(matchTerms.termId, chunk), gte(matches.matchedAt, new Date(since))))
    n += r[0]?.n ?? 0
  }
  return n
}
