// Batch matching (spec RPC admin_run_match_batch, `dibs match [--since]`): every stored post of
// the window against every saved term, creating the matches that are missing — e.g. after a
// pause, or after terms were loaded from a backup. Existing matches are left alone (one per
// user and post); batch matches never notify. Logged as maintenance job 'match-batch'.
import type { Deps } from '../deps'
import { recentPosts } from '../forums/store'
import { JOB, logJob } from '../jobs/log'
import { isPaused } from '../settings/service'
import type { WithMatcher } from './matcher'
import { matchPosts } from './runner'
const CHUNK = 500

export type BatchResult = {
  total_search_terms: number
  recent_posts_count: number
  matches_created: number
  execution_time_seconds: number
  skipped?: 'paused'
}

export async function runBatchMatch(deps: Deps & WithMatcher, opts: { sinceMs?: number; onProgress?: (line: string) => void } = {}): Promise<BatchResult> {
  const t0 = performance.now()
  const since = new Date(deps.now().getTime() - (opts.sinceMs ?? 24 * 3600_000))
  const { matcher } = deps
  if (await isPaused(deps)) {
    const r: BatchResult = { total_search_terms: matcher.size, recent_posts_count: 0, matches_created: 0, execution_time_seconds: 0, skipped: 'paused' }
    await logJob(deps, JOB.matchBatch, 'skipped', 0, { reason: 'emergency pause' })
    return r
  }
  const posts = await recentPosts(deps, since)
  let created = 0
  for (let i = 0; i < posts.length; i += CHUNK) {
    created += (await matchPosts(deps, posts.slice(i, i + CHUNK), 'batch')).created.length
    opts.onProgress?.(`matched ${Math.min(i + CHUNK, posts.length)}/${posts.length} posts against ${matcher.size} terms (${created} new matches)`)
  }
  const seconds = (performance.now() - t0) / 1000
  const result: BatchResult = {
    total_search_terms: matcher.size,
    recent_posts_count: posts.length,
    matches_created: created,
    execution_time_seconds: Math.round(seconds * 1000) / 1000,
  }
  await logJob(deps, JOB.matchBatch, 'success', Math.round(seconds * 1000), { ...result })
  return result
}
