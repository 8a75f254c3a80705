// The public live feed (spec §7 reddit_posts live feed): classified posts of the last 7 days,
// newest first, 10 per page with the exact total.
import { CATEGORIES, type Category } from '../access/categories'
import type { Deps } from '../deps'
import { feedItem, LIVE_WINDOW_MS, rowToPost } from './store'

export const FEED_PAGE_SIZE = 10

export function livePosts(deps: Pick<Deps, 'sqlite' | 'now'>, opts: { category?: Category; page?: number }) {
  const page = Math.max(1, Math.floor(opts.page ?? 1))
  const since = deps.now().getTime() - LIVE_WINDOW_MS
  const types = opts.category ? [opts.category] : [...CATEGORIES]
  const marks = types.map(() => '?').join(',')
  const where = `post_type IN (${marks}) AND created_at >= ?`
  const total = deps.sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM posts WHERE ${where}`).get(...types, since)!.n
  const rows = deps.sqlite
    .query<Parameters<typeof rowToPost>[0], (string | number)[]>(`SELECT * FROM posts WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...types, since, FEED_PAGE_SIZE, (page - 1) * FEED_PAGE_SIZE)
  return { posts: rows.map((r) => feedItem(rowToPost(r))), total, page, pageSize: FEED_PAGE_SIZE }
}
