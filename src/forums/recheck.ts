// Which stored posts to re-read, and what a re-read changes. The job that sends the request is
// src/scanner/recheck.ts; the request is RedditClient.fetchInfo (/api/info, up to 100 ids).
//
// Cadence: a post is re-read when its time since being stored passes each checkpoint below (2 min,
// 10 min, 1 h, 6 h, 24 h, 48 h) — most removals (automod, a mod within minutes) and sales happen
// early, so the checks are dense at first. `recheck_count` is the number of checkpoints passed, so
// a late run skips missed ones instead of re-reading the post several times. A removed post is
// final and no longer read; after 48 h a post is never read again.
// Order within a batch: posts with matches first (someone sees them), then the newest, then the
// most matched.
import { and, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import type { OwnerDb } from '../db/async-db'
import { posts } from '../db/schema'
import type { PostUpdate } from '../contract/events'
import type { Deps } from '../deps'
import { matchCountsSince, usersMatchedOn } from '../matches/store'
import type { PostSnapshot } from './info'
import type { ForumPost } from './listing'
import { detectPostState, detectPrice, type PostState } from './post-state'

export const RECHECK_AT_MS = [2 * 60_000, 10 * 60_000, 3600_000, 6 * 3600_000, 24 * 3600_000, 48 * 3600_000] as const
/** A post stored longer ago than this is not re-read (the last checkpoint plus a late run's slack). */
const RECHECK_WINDOW_MS = RECHECK_AT_MS.at(-1)! + 3600_000

export type DuePost = { id: number; redditId: string; ingestedAt: number; recheckCount: number; matchCount: number }

/** The time after storing (ms) at which a post with `recheck_count` checkpoints passed is due again. */
const DUE_AT = sql`CASE ${posts.recheckCount} ${sql.raw(RECHECK_AT_MS.map((ms, i) => `WHEN ${i} THEN ${ms}`).join(' '))} END`

/**
 * Posts due a re-read now, in batch order (see header), at most `limit`. The match counts are the matches folder's
 * (src/matches/store.ts matchCountsSince, a pure leaf): read for the window, then the due posts are ordered here.
 */
export async function duePosts(deps: OwnerDb & Pick<Deps, 'sqlite'>, now: number, limit: number, exclude: ReadonlySet<number> = new Set()): Promise<DuePost[]> {
  const since = now - RECHECK_WINDOW_MS
  const counts = await matchCountsSince(deps, since)
  const rows = (
    await asAsync(deps.db)
      .select({ id: posts.id, redditId: posts.redditId, ingestedAt: posts.ingestedAt, recheckCount: posts.recheckCount, createdAt: posts.createdAt })
      .from(posts)
      .where(
        and(
          gte(posts.ingestedAt, new Date(since)),
          ne(posts.state, 'removed'),
          lt(posts.recheckCount, RECHECK_AT_MS.length),
          sql`${posts.ingestedAt} + ${DUE_AT} <= ${now}`,
        ),
      )
  ).map((r) => ({ ...r, ingestedAt: r.ingestedAt.getTime(), createdAt: r.createdAt.getTime(), matchCount: counts.get(r.id) ?? 0 }))
  // matched posts first, then the newest, then the most matched
  rows.sort((a, b) => Number(b.matchCount > 0) - Number(a.matchCount > 0) || b.createdAt - a.createdAt || b.matchCount - a.matchCount || b.id - a.id)
  return rows
    .filter((r) => !exclude.has(r.id))
    .slice(0, limit)
    .map((r) => ({ id: r.id, redditId: r.redditId, ingestedAt: r.ingestedAt, recheckCount: r.recheckCount, matchCount: r.matchCount }))
}

/** How many checkpoints a post stored at `ingestedAt` has passed at `now`. */
export function checkpointsPassed(ingestedAt: number, now: number): number {
  return RECHECK_AT_MS.filter((ms) => ingestedAt + ms <= now).length
}

export type PostChange = { update: PostUpdate; previous: PostState; userIds: number[] }

type Row = { id: number; reddit_id: string; state: string; state_changed_at: number | null; price: number | null; ingested_at: number; recheck_count: number }

/** The columns a re-read compares, as Row names them. */
const ROW = {
  id: posts.id,
  reddit_id: posts.redditId,
  state: posts.state,
  state_changed_at: posts.stateChangedAt,
  price: posts.price,
  ingested_at: posts.ingestedAt,
  recheck_count: posts.recheckCount,
}
const asRow = (r: { [K in keyof typeof ROW]: (typeof ROW)[K]['_']['data'] | null }): Row => ({
  id: r.id!,
  reddit_id: r.reddit_id!,
  state: r.state!,
  state_changed_at: r.state_changed_at?.getTime() ?? null,
  price: r.price,
  ingested_at: r.ingested_at!.getTime(),
  recheck_count: r.recheck_count!,
})

/** Writes a post's new state/price (on `db`: the caller's transaction) and describes the change (with the users who have a match on it: the socket topics). */
function changeWriter(deps: Pick<Deps, 'sqlite'>, db: OwnerDb['db'], now: number) {
  return async (
    row: Pick<Row, 'id' | 'reddit_id' | 'state' | 'state_changed_at' | 'price'>,
    state: PostState,
    price: number | null,
  ): Promise<PostChange | null> => {
    if (state === row.state && price === row.price) return null
    const changedAt = state === row.state ? row.state_changed_at : now
    await asAsync(db)
      .update(posts)
      .set({ state, stateChangedAt: changedAt === null ? null : new Date(changedAt), price })
      .where(eq(posts.id, row.id))
    return {
      previous: row.state as PostState,
      userIds: await usersMatchedOn({ db }, row.id),
      update: { postId: row.id, redditId: row.reddit_id, state, stateChangedAt: changedAt === null ? null : new Date(changedAt).toISOString(), price },
    }
  }
}

/**
 * Applies what Reddit answered for the posts asked (`asked`: post ids by Reddit id). Every asked
 * post counts as read (its checkpoints move on; one Reddit no longer has is left as it is). A new
 * state is stored with its time; a new price (an edit) is stored too. Returns the changes, each with
 * the users who have a match on the post (the socket topics).
 */
export async function applySnapshots(
  deps: OwnerDb & Pick<Deps, 'sqlite' | 'now'>,
  asked: ReadonlyMap<string, number>,
  snapshots: PostSnapshot[],
): Promise<PostChange[]> {
  const now = deps.now().getTime()
  const byReddit = new Map(snapshots.map((s) => [s.redditId, s]))
  return asAsync(deps.db).transaction(async (tx) => {
    // the asked posts in one read (at most 100: one /api/info request)
    const rows = new Map(
      (
        await tx
          .select(ROW)
          .from(posts)
          .where(inArray(posts.id, [...asked.values()]))
      ).map((r) => [r.id, asRow(r)]),
    )
    const write = changeWriter(deps, tx, now)
    const changes: PostChange[] = []
    for (const [redditId, postId] of asked) {
      const row = rows.get(postId)
      if (!row) continue
      const snap = byReddit.get(redditId)
      const state: PostState = snap ? detectPostState(snap) : (row.state as PostState)
      const count = state === 'removed' ? RECHECK_AT_MS.length : Math.max(row.recheck_count + 1, checkpointsPassed(row.ingested_at, now))
      await tx
        .update(posts)
        .set({ recheckedAt: new Date(now), recheckCount: count })
        .where(eq(posts.id, postId))
      if (!snap) continue
      // a removed post's body is "[removed]": its last known price stays
      const price = state === 'removed' ? row.price : (detectPrice(snap.title, snap.content) ?? row.price)
      const c = await write(row, state, price)
      if (c) changes.push(c)
    }
    return changes
  })
}

/**
 * Re-checks without /api/info (no Reddit key): what a later poll of the feed shows of posts already
 * stored. A title or body now marked sold or pending changes the post's state, a new price its price;
 * only changes are written, and the re-check checkpoints are left alone (they belong to /api/info).
 * A removed post stays removed. Returns the changes as applySnapshots does.
 */
export async function applyFeedReads(deps: OwnerDb & Pick<Deps, 'sqlite' | 'now'>, seen: readonly ForumPost[]): Promise<PostChange[]> {
  if (seen.length === 0) return []
  const now = deps.now().getTime()
  return asAsync(deps.db).transaction(async (tx) => {
    // the posts seen again in one read (one page of the feed)
    const ids = [...new Set(seen.map((p) => p.redditId))]
    const rows = new Map((await tx.select(ROW).from(posts).where(inArray(posts.redditId, ids))).map((r) => [r.reddit_id, asRow(r)]))
    const write = changeWriter(deps, tx, now)
    const changes: PostChange[] = []
    for (const post of seen) {
      const row = rows.get(post.redditId)
      if (!row || row.state === 'removed') continue
      const state = detectPostState(post)
      const price = state === 'removed' ? row.price : (detectPrice(post.title, post.content) ?? row.price)
      const c = await write(row, state, price)
      if (c) changes.push(c)
      // a post seen twice in one page is compared with what was just written (as the row-by-row read did)
      if (c) rows.set(post.redditId, { ...row, state, price, state_changed_at: c.update.stateChangedAt === null ? null : Date.parse(c.update.stateChangedAt) })
    }
    return changes
  })
}
