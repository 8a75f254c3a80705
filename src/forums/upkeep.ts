// Upkeep of the stored posts: classify those without a post type and archive (delete) old ones (spec
// RPCs backfill_post_types and archive_posts_7_days; `dibs backfill-post-types`, `dibs archive-posts`,
// Admin → Tools). Each run is one row of the job log (src/jobs/log.ts).
import type { Deps } from '../deps'
import { JOB, logJob } from '../jobs/log'
import { classify } from './classify'
import { LIVE_WINDOW_MS } from './store'

const CHUNK = 1000

/** Classifies stored posts that have no post type yet (e.g. stored before a classifier fix). */
export function backfillPostTypes(
  deps: Pick<Deps, 'sqlite' | 'config' | 'now'>,
  opts: { onProgress?: (line: string) => void } = {},
): { count: number; examined: number } {
  const t0 = performance.now()
  const rows = deps.sqlite
    .query<{ id: number; title: string; subreddit: string; flair: string | null }, []>('SELECT id, title, subreddit, flair FROM posts WHERE post_type IS NULL')
    .all()
  const update = deps.sqlite.query('UPDATE posts SET forum = ?, post_type = ?, classification = ? WHERE id = ?')
  let count = 0
  for (let i = 0; i < rows.length; i += CHUNK) {
    deps.sqlite.transaction(() => {
      for (const r of rows.slice(i, i + CHUNK)) {
        const c = classify(r, deps.config.forums)
        if (c === null || c.postType === null) continue
        update.run(c.forum, c.postType, c.classification, r.id)
        count++
      }
    })()
    opts.onProgress?.(`examined ${Math.min(i + CHUNK, rows.length)}/${rows.length} unclassified posts (${count} classified)`)
  }
  logJob(deps, JOB.backfillPostTypes, 'success', Math.round(performance.now() - t0), { count, examined: rows.length })
  return { count, examined: rows.length }
}

/** How many posts archivePosts would delete now (the admin's confirmation says it first). */
export function countArchivable(deps: Pick<Deps, 'sqlite' | 'now'>, olderThanMs: number = LIVE_WINDOW_MS): number {
  const cutoff = deps.now().getTime() - olderThanMs
  return deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM posts WHERE created_at < ?').get(cutoff)!.n
}

/**
 * Deletes posts created before now − olderThanMs (default 7 days: the live feed stays intact).
 * Matches keep their own copy of the title, url and author; their post_id becomes null.
 */
export function archivePosts(deps: Pick<Deps, 'sqlite' | 'now'>, opts: { olderThanMs?: number; onProgress?: (line: string) => void } = {}): { count: number } {
  const t0 = performance.now()
  const olderThanMs = opts.olderThanMs ?? LIVE_WINDOW_MS
  const cutoff = deps.now().getTime() - olderThanMs
  const del = deps.sqlite.query<{ id: number }, [number, number]>(
    'DELETE FROM posts WHERE id IN (SELECT id FROM posts WHERE created_at < ? LIMIT ?) RETURNING id',
  )
  let count = 0
  for (;;) {
    const n = deps.sqlite.transaction(() => del.all(cutoff, CHUNK).length)()
    count += n
    if (n > 0) opts.onProgress?.(`archived ${count} posts`)
    if (n < CHUNK) break
  }
  logJob(deps, JOB.archivePosts, 'success', Math.round(performance.now() - t0), { archived_count: count, older_than_hours: Math.round(olderThanMs / 3600_000) })
  return { count }
}
