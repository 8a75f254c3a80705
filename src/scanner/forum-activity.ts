// Per watched forum: the newest post stored, its usual rhythm, and a flag when it has gone quiet. A
// subreddit Reddit banned is not always an error: with a key, Reddit leaves it out of a multireddit
// without a word, so the only sign is that its posts stop while the other forums' go on. Read by
// Admin → Logs, /readyz and `dibs doctor`. Pure apart from the reads of the posts (src/forums/stats.ts).
import type { OwnerDb } from '../db/async-db'
import { latestPostTimes, newestPostAt as newestPostTime, oldestPostAt, subredditsByNewestPost } from '../forums/stats'
import { BANNED_DEFAULT_FORUM } from './source'

export type ForumActivity = {
  subreddit: string
  /** the newest post stored from it (ISO), null when none */
  at: string | null
  /** the mean gap between its last posts (ms), null with fewer than two */
  usualGapMs: number | null
  /** why it looks dead, in words with what to check; null when it looks alive */
  flag: string | null
}

/** Its last this many posts give a forum's rhythm. */
const RHYTHM_POSTS = 20
/** A forum is quiet after this many of its usual gaps without a post … */
export const QUIET_GAPS = 10
/** … and never before this long (a slow forum's night is not an outage). */
export const QUIET_MIN_MS = 3 * 3600_000

/** 40 min, 5 h 10 min, 3 d 2 h. */
function span(ms: number): string {
  const m = Math.round(ms / 60_000)
  if (m < 60) return `${Math.max(1, m)} min`
  const h = Math.floor(m / 60)
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

/**
 * The watched forums (and any other subreddit posts came from) with the newest post of each. A forum is
 * flagged when the source left it out as banned, private or not found (`missing`), when it is the default
 * forum Reddit closed, when it has no post while the others have posted over QUIET_MIN_MS, or when it has had none for far longer
 * than its rhythm (QUIET_GAPS usual gaps, at least QUIET_MIN_MS) while the others still get posts.
 */
export async function forumActivity(
  deps: OwnerDb & { now: () => Date; config: { forums: { accessories: string; deals: string }; demo?: boolean } },
  missing: string[] = [],
): Promise<ForumActivity[]> {
  const now = deps.now().getTime()
  const watched = [deps.config.forums.accessories, deps.config.forums.deals]
  const seen = await subredditsByNewestPost(deps)
  const names = [...watched, ...seen.filter((s) => !watched.some((w) => w.toLowerCase() === s.toLowerCase()))]
  const newestAll = await newestPostTime(deps)
  // "no post while the others have" needs the others' posts to cover QUIET_MIN_MS: a first poll's handful is no evidence
  const oldest = await oldestPostAt(deps)
  const othersSpan = newestAll === null || oldest === null ? 0 : newestAll - oldest
  const out: ForumActivity[] = []
  for (const subreddit of names) {
    const times = await latestPostTimes(deps, subreddit, RHYTHM_POSTS)
    const last = times[0] ?? null
    const usualGapMs = times.length >= 2 ? Math.round((times[0]! - times.at(-1)!) / (times.length - 1)) : null
    const isWatched = watched.some((w) => w.toLowerCase() === subreddit.toLowerCase())
    let flag: string | null = null
    if (missing.some((m) => m.toLowerCase() === subreddit.toLowerCase()))
      flag = 'Reddit answered banned, private or not found: it is left out of the request and tried again every 30 min'
    else if (isWatched && last === null && !deps.config.demo && subreddit.toLowerCase() === BANNED_DEFAULT_FORUM.toLowerCase())
      flag = 'closed by Reddit in Oct 2025: point this forum at a live subreddit'
    else if (isWatched && last === null && othersSpan >= QUIET_MIN_MS)
      flag = 'no post seen while the other forums get posts: is it banned, private or misspelt? (with a key, Reddit leaves such a subreddit out without a word)'
    else if (isWatched && last !== null && usualGapMs !== null && newestAll !== null) {
      const quietAfter = Math.max(QUIET_GAPS * usualGapMs, QUIET_MIN_MS)
      if (now - last > quietAfter && newestAll - last > quietAfter)
        flag = `no post for ${span(now - last)}, usually one every ${span(usualGapMs)}, while the other forums get posts: banned, private or dropped from the request?`
    }
    out.push({ subreddit, at: last === null ? null : new Date(last).toISOString(), usualGapMs, flag })
  }
  return out
}

/** The newest post stored from any forum (ISO): the source's last post seen; null when none. */
export async function newestPostAt(deps: OwnerDb): Promise<string | null> {
  const at = await newestPostTime(deps)
  return at === null ? null : new Date(at).toISOString()
}

/** Every forum's last post and flag in one line ("r/a: last post 3 min ago; r/b: no post yet (closed by Reddit …)"). */
export function activityLine(forums: ForumActivity[], now: number): string {
  return forums
    .map((f) => `r/${f.subreddit}: ${f.at ? `last post ${span(now - Date.parse(f.at))} ago` : 'no post yet'}${f.flag ? ` (${f.flag})` : ''}`)
    .join('; ')
}
