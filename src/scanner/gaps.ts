// Coverage gaps: time windows a forum source may have missed, told honestly (the owner of `source_gaps`).
//
// A feed holds only the newest entries, and a listing pages back only so far (Reddit: 1000 posts). A poll
// that pages back (catch-up) until it meets a post already stored has read everything since the last
// poll. One that stops first (the feed's depth, the listing's depth) and whose oldest entry is newer than
// the newest post already stored may have missed what was posted between the two: that window is a gap.
//
// Rules (`missedWindow`, pure):
//   - no gap on the very first poll (nothing stored yet from these subreddits);
//   - no gap when the poll's catch-up reached a stored post (the window is filled: nothing is recorded,
//     so a gap that catch-up fills completely is never reported);
//   - no gap when the poll's oldest entry is not newer than the newest stored post (the stored post was
//     removed from Reddit, or the poll overlapped the last one).
// Multireddits: one poll reads A+B as ONE listing, newest first across both, so it covers the same time
// window for both. The window's start is therefore the newest stored post of A *or* B, never per
// subreddit: a quiet B whose last post is hours old was covered by every poll since, and measuring from
// it would report a false gap on each of B's rare posts. When the window is open, it is open for both
// (a quiet B may have posted in it too), so a row is written per forum with the same window.
//
// Imports nothing outside src/scanner but src/db (a pure leaf for the folder check), so admin, metrics and the
// explainer read it without a folder edge.
import type { Database } from 'bun:sqlite'
import { and, asc, count, desc, gt, gte, lt, lte, max, sql } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import type { OwnerDb } from '../db/async-db'
import { sourceGaps } from '../db/schema'

export type GapWindow = { fromAt: number; toAt: number }

/** What one poll saw, for `missedWindow`. */
export type PollCover = {
  /** the newest post already stored from the polled subreddits (ms), null if none */
  newestStoredAt: number | null
  /** the oldest entry the poll read, all its pages included (ms), null if it read none */
  oldestReadAt: number | null
  /** the poll's catch-up met a post already stored */
  reachedKnown: boolean
}

/** The window a poll may have missed, or null (rules at the top of this file). */
export function missedWindow(p: PollCover): GapWindow | null {
  if (p.reachedKnown || p.newestStoredAt === null || p.oldestReadAt === null) return null
  if (p.oldestReadAt <= p.newestStoredAt) return null
  return { fromAt: p.newestStoredAt, toAt: p.oldestReadAt }
}

/** A forum read by one poll: 'product' | 'gd' and its subreddit(s), 'a' or 'a+b'. */
export type PolledForum = { forum: string; subreddits: string }

/** The subreddits these forums read, in lower case: src/forums/store.ts newestOfSubreddits gives the newest stored post of them, the start of a possible gap. */
export const polledSubreddits = (forums: PolledForum[]) => forums.flatMap((f) => f.subreddits.split('+')).map((s) => s.toLowerCase())

/**
 * After a poll: the window it may have missed, recorded once per forum (same window), or null.
 * `newestStoredAt` is read before the poll's posts are stored (`newestOfSubreddits(deps, polledSubreddits(forums))`); `posts` are the
 * entries the poll read (every page); `at` is when the poll found the gap.
 */
export async function recordPollGap(
  deps: OwnerDb,
  poll: { source: string; forums: PolledForum[]; newestStoredAt: number | null; posts: { createdAt: Date }[]; reachedKnown: boolean; at: number },
): Promise<GapWindow | null> {
  let oldestReadAt: number | null = null
  for (const p of poll.posts) oldestReadAt = Math.min(oldestReadAt ?? Infinity, p.createdAt.getTime())
  const window = missedWindow({ newestStoredAt: poll.newestStoredAt, oldestReadAt, reachedKnown: poll.reachedKnown })
  if (!window || poll.forums.length === 0) return null
  // one statement, one row per forum (atomic without a transaction)
  await asAsync(deps.db)
    .insert(sourceGaps)
    .values(
      poll.forums.map((f) => ({
        source: poll.source,
        forum: f.forum,
        subreddits: f.subreddits,
        fromAt: new Date(window.fromAt),
        toAt: new Date(window.toAt),
        createdAt: new Date(poll.at),
      })),
    )
  return window
}

/** One window as Admin → Logs lists it: every forum it was recorded for, together. */
export type CoverageGap = { source: string; forums: string[]; subreddits: string[]; fromAt: string; toAt: string; seconds: number; foundAt: string }

type GapRow = { id: number; source: string; forum: string; subreddits: string; from_at: number; to_at: number; created_at: number }

const gapRow = (r: typeof sourceGaps.$inferSelect): GapRow => ({
  id: r.id,
  source: r.source,
  forum: r.forum,
  subreddits: r.subreddits,
  from_at: r.fromAt.getTime(),
  to_at: r.toAt.getTime(),
  created_at: r.createdAt.getTime(),
})

/** Gaps whose window ended at or after `since` (ms), newest first, one entry per window. */
export async function gapsSince(deps: OwnerDb, since: number, limit = 200): Promise<CoverageGap[]> {
  const db = asAsync(deps.db)
  const rows = (
    await db
      .select()
      .from(sourceGaps)
      .where(gte(sourceGaps.toAt, new Date(since)))
      .orderBy(desc(sourceGaps.toAt), asc(sourceGaps.id))
      .limit(limit * 4)
  ).map(gapRow)
  const byWindow = new Map<string, CoverageGap>()
  for (const r of rows) {
    const key = `${r.source}|${r.from_at}|${r.to_at}|${r.created_at}`
    const g = byWindow.get(key)
    if (g) {
      g.forums.push(r.forum)
      g.subreddits.push(...r.subreddits.split('+'))
      continue
    }
    byWindow.set(key, {
      source: r.source,
      forums: [r.forum],
      subreddits: r.subreddits.split('+'),
      fromAt: new Date(r.from_at).toISOString(),
      toAt: new Date(r.to_at).toISOString(),
      seconds: Math.round((r.to_at - r.from_at) / 1000),
      foundAt: new Date(r.created_at).toISOString(),
    })
  }
  return [...byWindow.values()].slice(0, limit)
}

/** How many windows ended since `since`, and the seconds they leave uncovered (overlaps counted once). */
export async function gapSummary(deps: OwnerDb, since: number): Promise<{ count: number; seconds: number }> {
  const db = asAsync(deps.db)
  const windows = (
    await db
      .selectDistinct({ from_at: sourceGaps.fromAt, to_at: sourceGaps.toAt })
      .from(sourceGaps)
      .where(gte(sourceGaps.toAt, new Date(since)))
      .orderBy(asc(sourceGaps.fromAt))
  ).map((w) => ({ from_at: w.from_at.getTime(), to_at: w.to_at.getTime() }))
  let ms = 0
  let end = -Infinity
  for (const w of windows) {
    if (w.to_at > end) ms += w.to_at - Math.max(w.from_at, end)
    end = Math.max(end, w.to_at)
  }
  return { count: windows.length, seconds: Math.round(ms / 1000) }
}

/** Rows added after row `afterId`, per source and forum (the /metrics counters); `top` is the last id read. */
export async function gapsAfterId(deps: OwnerDb, afterId: number): Promise<{ source: string; forum: string; count: number; seconds: number; top: number }[]> {
  const g = sourceGaps
  const rows = await asAsync(deps.db)
    .select({ source: g.source, forum: g.forum, count: count(), ms: sql<number>`sum(${g.toAt} - ${g.fromAt})`.mapWith(Number), top: max(g.id) })
    .from(g)
    .where(gt(g.id, afterId))
    .groupBy(g.source, g.forum)
  return rows.map((r) => ({ source: r.source, forum: r.forum, count: r.count, seconds: r.ms / 1000, top: r.top ?? afterId }))
}

/** The last row's id (0 when none): where the /metrics counters start in a new process. Synchronous still: the registry reads it as it is built (src/metrics/registry.ts). */
export function lastGapId(sqlite: Database): number {
  return sqlite.query<{ id: number | null }, []>('SELECT max(id) AS id FROM source_gaps').get()?.id ?? 0
}

/**
 * A gap of `subreddit` (any subreddit when null) that overlaps the open interval (lo, hi) (ms): the
 * explainer asks with lo = hi = a post's creation time, or with the creation times of the stored posts
 * around a post it cannot read (Reddit's ids grow with time). The longest such window, or null.
 */
export async function gapAround(deps: OwnerDb, subreddit: string | null, lo: number, hi: number): Promise<(GapWindow & { subreddits: string }) | null> {
  const rows = (
    await asAsync(deps.db)
      .select()
      .from(sourceGaps)
      .where(and(gte(sourceGaps.toAt, new Date(lo)), lte(sourceGaps.fromAt, new Date(hi))))
      .orderBy(sql`${sourceGaps.toAt} - ${sourceGaps.fromAt} DESC`, asc(sourceGaps.id))
  ).map(gapRow)
  const sub = subreddit?.toLowerCase() ?? null
  const inside = (r: GapRow) => (lo === hi ? r.from_at < lo && lo < r.to_at : r.from_at < hi && r.to_at > lo)
  const hit = rows.find((r) => inside(r) && (sub === null || r.subreddits.toLowerCase().split('+').includes(sub)))
  if (!hit) return null
  const subs =
    sub === null ? [...new Set(rows.filter((r) => r.from_at === hit.from_at && r.to_at === hit.to_at).map((r) => r.subreddits))].join('+') : hit.subreddits
  return { fromAt: hit.from_at, toAt: hit.to_at, subreddits: subs }
}

/** Rows whose window ended more than `days` ago go (the daily prune job). Returns how many. */
export async function pruneGaps(deps: OwnerDb, now: number, days = 30): Promise<number> {
  const gone = await asAsync(deps.db)
    .delete(sourceGaps)
    .where(lt(sourceGaps.toAt, new Date(now - days * 24 * 3600_000)))
    .returning({ id: sourceGaps.id })
  return gone.length
}
