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
import type { Database } from 'bun:sqlite'
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

const DUE_AT = `CASE p.recheck_count ${RECHECK_AT_MS.map((ms, i) => `WHEN ${i} THEN ${ms}`).join(' ')} END`

/**
 * Posts due a re-read now, in batch order (see header), at most `limit`. The match counts are the matches folder's
 * (src/matches/store.ts matchCountsSince, a pure leaf): read for the window, then the due posts are ordered here.
 */
export function duePosts(sqlite: Database, now: number, limit: number, exclude: ReadonlySet<number> = new Set()): DuePost[] {
  const since = now - RECHECK_WINDOW_MS
  const counts = matchCountsSince(sqlite, since)
  const rows = sqlite
    .query<Omit<DuePost, 'matchCount'> & { createdAt: number }, [number, number]>(
      `SELECT p.id, p.reddit_id AS redditId, p.ingested_at AS ingestedAt, p.recheck_count AS recheckCount, p.created_at AS createdAt
       FROM posts p
       WHERE p.ingested_at >= ? AND p.state != 'removed' AND p.recheck_count < ${RECHECK_AT_MS.length} AND p.ingested_at + ${DUE_AT} <= ?`,
    )
    .all(since, now)
    .map((r) => ({ ...r, matchCount: counts.get(r.id) ?? 0 }))
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

/** Writes a post's new state/price and describes the change (with the users who have a match on it: the socket topics). */
function changeWriter(deps: Pick<Deps, 'sqlite'>, now: number) {
  const change = deps.sqlite.query('UPDATE posts SET state = ?, state_changed_at = ?, price = ? WHERE id = ?')
  return (row: Pick<Row, 'id' | 'reddit_id' | 'state' | 'state_changed_at' | 'price'>, state: PostState, price: number | null): PostChange | null => {
    if (state === row.state && price === row.price) return null
    const changedAt = state === row.state ? row.state_changed_at : now
    change.run(state, changedAt, price, row.id)
    return {
      previous: row.state as PostState,
      userIds: usersMatchedOn(deps.sqlite, row.id),
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
export function applySnapshots(deps: Pick<Deps, 'sqlite' | 'now'>, asked: ReadonlyMap<string, number>, snapshots: PostSnapshot[]): PostChange[] {
  const now = deps.now().getTime()
  const byReddit = new Map(snapshots.map((s) => [s.redditId, s]))
  const read = deps.sqlite.query<Row, [number]>('SELECT id, reddit_id, state, state_changed_at, price, ingested_at, recheck_count FROM posts WHERE id = ?')
  const mark = deps.sqlite.query('UPDATE posts SET rechecked_at = ?, recheck_count = ? WHERE id = ?')
  const write = changeWriter(deps, now)
  const changes: PostChange[] = []
  deps.sqlite.transaction(() => {
    for (const [redditId, postId] of asked) {
      const row = read.get(postId)
      if (!row) continue
      const snap = byReddit.get(redditId)
      const state: PostState = snap ? detectPostState(snap) : (row.state as PostState)
      mark.run(now, state === 'removed' ? RECHECK_AT_MS.length : Math.max(row.recheck_count + 1, checkpointsPassed(row.ingested_at, now)), postId)
      if (!snap) continue
      // a removed post's body is "[removed]": its last known price stays
      const price = state === 'removed' ? row.price : (detectPrice(snap.title, snap.content) ?? row.price)
      const c = write(row, state, price)
      if (c) changes.push(c)
    }
  })()
  return changes
}

/**
 * Re-checks without /api/info (no Reddit key): what a later poll of the feed shows of posts already
 * stored. A title or body now marked sold or pending changes the post's state, a new price its price;
 * only changes are written, and the re-check checkpoints are left alone (they belong to /api/info).
 * A removed post stays removed. Returns the changes as applySnapshots does.
 */
export function applyFeedReads(deps: Pick<Deps, 'sqlite' | 'now'>, seen: readonly ForumPost[]): PostChange[] {
  const now = deps.now().getTime()
  const read = deps.sqlite.query<Row, [string]>(
    'SELECT id, reddit_id, state, state_changed_at, price, ingested_at, recheck_count FROM posts WHERE reddit_id = ?',
  )
  const write = changeWriter(deps, now)
  const changes: PostChange[] = []
  deps.sqlite.transaction(() => {
    for (const post of seen) {
      const row = read.get(post.redditId)
      if (!row || row.state === 'removed') continue
      const state = detectPostState(post)
      const price = state === 'removed' ? row.price : (detectPrice(post.title, post.content) ?? row.price)
      const c = write(row, state, price)
      if (c) changes.push(c)
    }
  })()
  return changes
}
