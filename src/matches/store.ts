// The reads and writes of matches and match_terms that other folders need (issue 29 §1: this folder owns both
// tables, src/db/owners.json). A pure leaf (it imports nothing outside this folder and src/lib), so src/forums/ — below
// src/matches/, which imports it — reads who matched a post here without a folder edge back (docs/ARCHITECTURE.md,
// "Import rules": a pure leaf closes no cycle). src/terms/ (above) calls it like any file of this folder.
import type { Database } from 'bun:sqlite'
import { chunksOf, placeholders } from '../lib/id-lists'

// — for src/forums/ (the re-check and the author look-ups order their work by what was matched) —

/** Matches made since `since`, counted per post. */
export function matchCountsSince(sqlite: Database, since: number): Map<number, number> {
  return new Map(
    sqlite
      .query<{ post_id: number; n: number }, [number]>('SELECT post_id, count(*) AS n FROM matches WHERE created_at >= ? GROUP BY post_id')
      .all(since)
      .map((r) => [r.post_id, r.n]),
  )
}

/** The users with a match on post `postId`, ascending (the socket topics of a post's change). */
export function usersMatchedOn(sqlite: Database, postId: number): number[] {
  return sqlite
    .query<{ user_id: number }, [number]>('SELECT DISTINCT user_id FROM matches WHERE post_id = ? ORDER BY user_id')
    .all(postId)
    .map((u) => u.user_id)
}

/** Which of the posts `postIds` have at least one match; 500 at a time. */
export function postsWithMatches(sqlite: Database, postIds: readonly number[]): Set<number> {
  const out = new Set<number>()
  for (const chunk of chunksOf(postIds))
    for (const r of sqlite
      .query<{ post_id: number }, number[]>(`SELECT DISTINCT post_id FROM matches WHERE post_id IN (${placeholders(chunk.length)})`)
      .all(...chunk))
      out.add(r.post_id)
  return out
}

// — for src/terms/ (removing a term removes its matches; the most saved terms count their matches) —

/** The terms match `matchId` is linked to, in term id order (the alert path's synchronous read; see termIdsOfMatches). */
export function termIdsOfMatch(sqlite: Database, matchId: number): number[] {
  return sqlite
    .query<{ term_id: number }, [number]>('SELECT term_id FROM match_terms WHERE match_id = ?')
    .all(matchId)
    .map((r) => r.term_id)
}

/** How many links the terms `termIds` have to matches made since `since` (a match counts once per linked term); 500 terms at a time. */
export function linksSince(sqlite: Database, termIds: readonly number[], since: number): number {
  let n = 0
  for (const chunk of chunksOf(termIds))
    n += sqlite
      .query<{ n: number }, number[]>(
        `SELECT count(*) AS n FROM match_terms mt JOIN matches m ON m.id = mt.match_id WHERE mt.term_id IN (${placeholders(chunk.length)}) AND m.created_at >= ?`,
      )
      .get(...chunk, since)!.n
  return n
}
