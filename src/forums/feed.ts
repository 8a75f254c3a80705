// The public live feed (spec §7 reddit_posts live feed): classified posts of the last 7 days,
// newest first, 10 per page with the exact total.
import { CATEGORIES, type Category } from '../access/categories'
import { sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRow, rawRows } from '../db/raw'
import { posts } from '../db/schema'
import type { Deps } from '../deps'
import { feedItem, LIVE_WINDOW_MS, rowToPost, type PostRow } from './store'

export const FEED_PAGE_SIZE = 10

export async function livePosts(deps: OwnerDb & Pick<Deps, 'now'>, opts: { category?: Category; page?: number }) {
  const db = asAsync(deps.db)
  const page = Math.max(1, Math.floor(opts.page ?? 1))
  const since = deps.now().getTime() - LIVE_WINDOW_MS
  const types = opts.category ? [opts.category] : [...CATEGORIES]
  const where = sql`${posts.postType} IN (${sql.join(
    types.map((t) => sql`${t}`),
    sql`, `,
  )}) AND ${posts.createdAt} >= ${since}`
  // PostgreSQL answers count(*) as text (bigint)
  const total = Number((await rawRow<{ n: unknown }>(db, sql`SELECT count(*) AS n FROM ${posts} WHERE ${where}`))?.n ?? 0)
  const rows = await rawRows<PostRow>(
    db,
    sql`SELECT * FROM ${posts} WHERE ${where} ORDER BY ${posts.createdAt} DESC, ${posts.id} DESC LIMIT ${FEED_PAGE_SIZE} OFFSET ${(page - 1) * FEED_PAGE_SIZE}`,
  )
  return { posts: rows.map((r) => feedItem(rowToPost(r))), total, page, pageSize: FEED_PAGE_SIZE }
}
