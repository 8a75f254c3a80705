// Upkeep of the stored posts: classify those without a post type and archive (delete) old ones (spec
// RPCs backfill_post_types and archive_posts_7_days; `dibs backfill-post-types`, `dibs archive-posts`,
// Admin → Tools). Each run is one row of the job log (src/jobs/log.ts).
import { count as countRows, eq, inArray, isNull, lt } from 'drizzle-orm'
import { asAsync } from '../db/async-sqlite'
import type { OwnerDb } from '../db/async-db'
import { posts } from '../db/schema'
import type { Deps } from '../deps'
import { JOB, logJob } from '../jobs/log'
import { classify } from './classify'
import { LIVE_WINDOW_MS } from './store'

const CHUNK = 1000

/** Classifies stored posts that have no post type yet (e.g. stored before a classifier fix). */
export async function backfillPostTypes(
  deps: OwnerDb & Pick<Deps, 'sqlite' | 'config' | 'now'>,
  opts: { onProgress?: (line: string) => void } = {},
): Promise<{ count: number; examined: number }> {
  const t0 = performance.now()
  const db = asAsync(deps.db)
  const rows = await db.select({ id: posts.id, title: posts.title, subreddit: posts.subreddit, flair: posts.flair }).from(posts).where(isNull(posts.postType))
  let count = 0
  for (let i = 0; i < rows.length; i += CHUNK) {
    // classified outside the transaction; each chunk's updates in one
    const updates = rows.slice(i, i + CHUNK).flatMap((r) => {
      const c = classify(r, deps.config.forums)
      return c === null || c.postType === null ? [] : [{ id: r.id, c }]
    })
    await db.transaction(async (tx) => {
      for (const { id, c } of updates)
        await tx.update(posts).set({ forum: c.forum, postType: c.postType, classification: c.classification }).where(eq(posts.id, id))
    })
    count += updates.length
    opts.onProgress?.(`examined ${Math.min(i + CHUNK, rows.length)}/${rows.length} unclassified posts (${count} classified)`)
  }
  await logJob(deps, JOB.backfillPostTypes, 'success', Math.round(performance.now() - t0), { count, examined: rows.length })
  return { count, examined: rows.length }
}

/** How many posts archivePosts would delete now (the admin's confirmation says it first). */
export async function countArchivable(deps: OwnerDb & Pick<Deps, 'now'>, olderThanMs: number = LIVE_WINDOW_MS): Promise<number> {
  const cutoff = deps.now().getTime() - olderThanMs
  const [row] = await asAsync(deps.db)
    .select({ n: countRows() })
    .from(posts)
    .where(lt(posts.createdAt, new Date(cutoff)))
  return row?.n ?? 0
}

/**
 * Deletes posts created before now − olderThanMs (default 7 days: the live feed stays intact).
 * Matches keep their own copy of the title, url and author; their post_id becomes null.
 */
export async function archivePosts(
  deps: OwnerDb & Pick<Deps, 'sqlite' | 'now'>,
  opts: { olderThanMs?: number; onProgress?: (line: string) => void } = {},
): Promise<{ count: number }> {
  const t0 = performance.now()
  const db = asAsync(deps.db)
  const olderThanMs = opts.olderThanMs ?? LIVE_WINDOW_MS
  const cutoff = new Date(deps.now().getTime() - olderThanMs)
  let count = 0
  for (;;) {
    // one statement per chunk (its own transaction): other statements run between chunks
    const oldest = db.select({ id: posts.id }).from(posts).where(lt(posts.createdAt, cutoff)).limit(CHUNK)
    const n = (await db.delete(posts).where(inArray(posts.id, oldest)).returning({ id: posts.id })).length
    count += n
    if (n > 0) opts.onProgress?.(`archived ${count} posts`)
    if (n < CHUNK) break
  }
  await logJob(deps, JOB.archivePosts, 'success', Math.round(performance.now() - t0), {
    archived_count: count,
    older_than_hours: Math.round(olderThanMs / 3600_000),
  })
  return { count }
}
