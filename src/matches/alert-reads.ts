// The reads of `matches` and `match_terms` that the alert path needs: the dispatcher and the digest
// (src/notify/), the hold before alerting (src/notify/hold.ts) and the explainer (src/explain/). This
// folder owns both tables (src/db/owners.json); the callers get ids and rows, never SQL.
//
// A match's terms are returned as ids: `search_terms` is the terms folder's, which sits above this one
// (src/terms/ imports src/matches/), so the callers read the terms' columns through src/terms/reads.ts.
// The posts a read needs come from src/forums/store.ts the same way (by id, or as a subquery).
import type { Database } from 'bun:sqlite'
import { and, asc, eq, gt, isNull, lte, notExists, or, type SQLWrapper } from 'drizzle-orm'
import { matches, type Match } from '../db/schema'
import type { Deps } from '../deps'
import { postNotOpen } from '../forums/store'

/** The ids of the matches on a post (every user's). */
export function matchIdsOfPost(sqlite: Database, postId: number): number[] {
  return sqlite
    .query<{ id: number }, [number]>('SELECT id FROM matches WHERE post_id = ?')
    .all(postId)
    .map((m) => m.id)
}

/** The post of each of these matches (a match whose post is gone has none and is left out). */
export function postsOfMatches(sqlite: Database, matchIds: readonly number[]): { matchId: number; postId: number }[] {
  return sqlite
    .query<{ matchId: number; postId: number }, [string]>(
      'SELECT id AS matchId, post_id AS postId FROM matches WHERE id IN (SELECT value FROM json_each(?)) AND post_id IS NOT NULL',
    )
    .all(JSON.stringify([...matchIds]))
}

/** The columns of a user's match of a post that the explainer reads (raw: times in ms, `is_new` 0/1, `matched_terms` JSON text). */
export type MatchOfPostRow = {
  id: number
  source: string
  is_new: number
  created_at: number
  post_created_at: number | null
  matched_terms: string
  price_drop: string | null
}

/** A user's match of a post (there is at most one: matches_user_post), or null. */
export function matchOfUserPost(sqlite: Database, userId: number, postId: number): MatchOfPostRow | null {
  return sqlite
    .query<MatchOfPostRow, [number, number]>(
      'SELECT id, source, is_new, created_at, post_created_at, matched_terms, price_drop FROM matches WHERE user_id = ? AND post_id = ?',
    )
    .get(userId, postId)
}

/**
 * A user's live matches for a digest window (after, upTo], oldest first: only posts created after
 * `postedAfter` when given (a restored backup already digested those up to its restore point), none
 * whose post is no longer open (src/forums/store.ts postNotOpen), and none for which `sentAlone`
 * (a subquery on the match's id: the outbox row of an instant email) finds a row.
 */
export function liveMatchesForDigest(
  deps: Pick<Deps, 'db'>,
  q: { userId: number; after: Date; upTo: Date; postedAfter: Date | null; sentAlone: (matchId: SQLWrapper) => SQLWrapper },
): Match[] {
  const afterRestore = q.postedAfter === null ? undefined : or(isNull(matches.postCreatedAt), gt(matches.postCreatedAt, q.postedAfter))
  return deps.db
    .select()
    .from(matches)
    .where(
      and(
        eq(matches.userId, q.userId),
        eq(matches.source, 'live'),
        gt(matches.matchedAt, q.after),
        lte(matches.matchedAt, q.upTo),
        afterRestore,
        notExists(q.sentAlone(matches.id)),
        notExists(postNotOpen(deps, matches.postId)),
      ),
    )
    .orderBy(asc(matches.matchedAt))
    .all()
}
