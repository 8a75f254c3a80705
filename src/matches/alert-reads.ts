// The reads of `matches` and `match_terms` that the alert path needs: the dispatcher and the digest
// (src/notify/), the hold before alerting (src/notify/hold.ts) and the explainer (src/explain/). This
// folder owns both tables (src/db/owners.json); the callers get ids and rows, never SQL.
//
// A match's terms are returned as ids: `search_terms` is the terms folder's, which sits above this one
// (src/terms/ imports src/matches/), so the callers read the terms' columns through src/terms/reads.ts.
// The posts a read needs come from src/forums/store.ts the same way (by id, or as a subquery).
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, notExists, or, type SQLWrapper } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matches, type Match } from '../db/schema'
import type { Deps } from '../deps'
import { postNotOpen } from '../forums/store'
import { chunksOf } from '../lib/id-lists'

/** The ids of the matches on a post (every user's). */
export async function matchIdsOfPost(deps: OwnerDb, postId: number): Promise<number[]> {
  const db = asAsync(deps.db)
  return (await db.select({ id: matches.id }).from(matches).where(eq(matches.postId, postId))).map((m) => m.id)
}

/** The post of each of these matches (a match whose post is gone has none and is left out); 500 at a time. */
export async function postsOfMatches(deps: OwnerDb, matchIds: readonly number[]): Promise<{ matchId: number; postId: number }[]> {
  const db = asAsync(deps.db)
  const out: { matchId: number; postId: number }[] = []
  for (const chunk of chunksOf(matchIds))
    for (const r of await db
      .select({ matchId: matches.id, postId: matches.postId })
      .from(matches)
      .where(and(inArray(matches.id, chunk), isNotNull(matches.postId))))
      out.push({ matchId: r.matchId, postId: r.postId! })
  return out
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
export async function matchOfUserPost(deps: OwnerDb, userId: number, postId: number): Promise<MatchOfPostRow | null> {
  const db = asAsync(deps.db)
  const m = (
    await db
      .select()
      .from(matches)
      .where(and(eq(matches.userId, userId), eq(matches.postId, postId)))
      .limit(1)
  )[0]
  if (m === undefined) return null
  return {
    id: m.id,
    source: m.source,
    is_new: m.isNew ? 1 : 0,
    created_at: m.matchedAt.getTime(),
    post_created_at: m.postCreatedAt === null ? null : m.postCreatedAt.getTime(),
    matched_terms: JSON.stringify(m.matchedTerms),
    price_drop: m.priceDrop === null ? null : JSON.stringify(m.priceDrop),
  }
}

/**
 * A user's live matches for a digest window (after, upTo], oldest first: only posts created after
 * `postedAfter` when given (a restored backup already digested those up to its restore point), none
 * whose post is no longer open (src/forums/store.ts postNotOpen), and none for which `sentAlone`
 * (a subquery on the match's id: the outbox row of an instant email) finds a row.
 */
export async function liveMatchesForDigest(
  deps: Pick<Deps, 'db'>,
  q: { userId: number; after: Date; upTo: Date; postedAfter: Date | null; sentAlone: (matchId: SQLWrapper) => SQLWrapper },
): Promise<Match[]> {
  const afterRestore = q.postedAfter === null ? undefined : or(isNull(matches.postCreatedAt), gt(matches.postCreatedAt, q.postedAfter))
  return asAsync(deps.db)
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
}
