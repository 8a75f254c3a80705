// The re-check job (`recheck-posts`, every second on the cron tick; src/services.ts jobList): one
// /api/info read of up to 100 recent posts whenever the budget's side share allows it
// (RECHECK_BUDGET_SHARE, default 20 % of the cap, never the live scan's: src/forums/rate-budget.ts).
//
// Order of a run:
//   1. Emergency pause on → nothing (alerts are held anyway).
//   2. Held alert rows whose wait ended (src/notify/hold.ts) put their posts first in the batch; then
//      the posts due a re-read (src/forums/recheck.ts: 2 min … 48 h after being stored).
//   3. The side share allows a request now → fetchInfo → applySnapshots. Each change: a removed or
//      sold post's queued email/push rows are skipped, and `post.updated` goes on the bus (the hub
//      sends it to the feed and to each matched user's sockets).
//   4. Held rows read in this run are released by the new state; rows the run could not read wait
//      up to HOLD_GRACE_MS more, then go by the stored state. A released row wakes the outbox worker.
// Runs that sent a request and changed something, and failed runs, are logged (maintenance_logs).
import type { Deps } from '../deps'
import { INFO_BATCH } from '../forums/info'
import { applySnapshots, duePosts, type PostChange } from '../forums/recheck'
import { RedditError } from '../forums/reddit-client'
import { JOB, logJob } from '../jobs/log'
import { log } from '../lib/log'
import { cancelAlertsForPost, dueHeld, HOLD_GRACE_MS, releaseHeld, type HeldRow } from '../notify/hold'
import { isPaused } from '../settings/service'
import type { ScanSource, WithSource } from './source'

export type RecheckOutcome = {
  status: 'paused' | 'idle' | 'waiting' | 'success' | 'failed'
  /** posts asked in the /api/info request (0: none sent) */
  asked: number
  changes: PostChange[]
  /** held rows released to the outbox / skipped because the post was gone */
  released: number
  skipped: number
  /** queued rows of posts found removed or sold */
  cancelled: number
  error: string | null
}

export async function runRecheck(deps: Deps & WithSource, source: ScanSource = deps.source): Promise<RecheckOutcome> {
  const out: RecheckOutcome = { status: 'idle', asked: 0, changes: [], released: 0, skipped: 0, cancelled: 0, error: null }
  if (await isPaused(deps)) return { ...out, status: 'paused' }
  const t0 = performance.now()
  const now = deps.now().getTime()
  const held = await dueHeld(deps, now)
  const budget = source.budget
  const canRead = source.fetchInfo !== undefined && (!budget || budget.sideAllowedAt(now) <= now)
  let readHeld: HeldRow[] = []

  if (canRead) {
    const asked = new Map<string, number>()
    for (const h of held) if (asked.size < INFO_BATCH) asked.set(h.redditId, h.postId)
    for (const p of await duePosts(deps, now, INFO_BATCH - asked.size, new Set(asked.values()))) asked.set(p.redditId, p.id)
    if (asked.size > 0) {
      out.asked = asked.size
      try {
        const snapshots = await source.fetchInfo!([...asked.keys()])
        out.changes = await applySnapshots(deps, asked, snapshots)
        out.cancelled += await announceChanges(deps, out.changes)
        readHeld = held.filter((h) => asked.has(h.redditId))
        out.status = 'success'
      } catch (err) {
        out.status = err instanceof RedditError && err.kind === 'rate_limited' && err.details.sent === false ? 'waiting' : 'failed'
        out.error = err instanceof RedditError ? `${err.kind}: ${err.message}` : String(err instanceof Error ? err.message : err)
        if (out.status === 'failed') log.warn('re-check failed', { error: out.error })
      }
    }
  } else if (source.fetchInfo !== undefined && held.length > 0) out.status = 'waiting'

  // Rows read now go by the fresh state; the others once the grace is over (or at once when re-check is off).
  const off = source.fetchInfo === undefined || (budget !== undefined && budget.sideShare <= 0)
  const readIds = new Set(readHeld.map((h) => h.id))
  const release = held.filter((h) => readIds.has(h.id) || off || h.dueAt + HOLD_GRACE_MS <= now)
  if (release.length > 0) {
    const r = await releaseHeld(deps, release)
    out.released = r.released
    out.skipped = r.skipped
    if (r.released > 0) deps.bus.emit('outbox.queued', { channel: 'push' })
  }
  if (out.status === 'failed' || out.changes.length > 0 || out.skipped > 0) {
    const details = {
      asked: out.asked,
      changed: out.changes.length,
      cancelled: out.cancelled,
      released: out.released,
      skipped: out.skipped,
      ...(out.error ? { error: out.error } : {}),
    }
    await logJob(deps, JOB.recheck, out.status === 'failed' ? 'failed' : 'success', Math.round(performance.now() - t0), details, now)
  }
  return out
}

/**
 * What a re-read changed, told: a post now removed or sold has its queued email/push rows skipped,
 * and `post.updated` goes on the bus (the feed and each matched user's sockets). Returns the rows skipped.
 * Used by the /api/info re-check and by the scan's re-read of stored posts a feed shows again.
 */
export async function announceChanges(deps: Pick<Deps, 'db' | 'sqlite' | 'bus'>, changes: readonly PostChange[]): Promise<number> {
  let cancelled = 0
  for (const c of changes) {
    if (c.update.state !== c.previous) cancelled += await cancelAlertsForPost(deps, c.update.postId, c.update.state)
    deps.bus.emit('post.updated', { post: c.update, userIds: c.userIds })
  }
  return cancelled
}
