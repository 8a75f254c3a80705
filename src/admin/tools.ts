// /api/admin — Tools: scan metrics, scraper trigger, batch matching, maintenance logs, backfill and archive.
// Each action is audited (./audit.ts); the scraper and batch calls answer non-admins with the
// spec's permission texts.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { ScanMetric } from '../contract/events'
import { archivePosts, backfillPostTypes, countArchivable } from '../forums/maintenance'
import { troubleText } from '../forums/source-health'
import { log } from '../lib/log'
import { conflict } from '../lib/errors'
import { runBatchMatch } from '../matches/batch'
import { runScan } from '../scanner/scan'
import { isPaused } from '../settings/service'
import { audited } from '../audit/log'
import type { AdminDeps } from './deps'

export const SCRAPER_DENIED = 'You do not have permission to trigger the scraper. Only admins can perform this action.'
export const BATCH_DENIED = 'You do not have permission to run batch matching. Only admins can perform this action.'
export const PAUSED_MESSAGE = 'The emergency pause is on: scanning and matching are stopped until it is switched off.'

const tags = ['admin']
const HOUR = 3_600_000

type MetricRow = {
  id: number
  created_at: number
  scan_type: string
  status: string
  posts_fetched: number
  posts_new: number
  users_processed: number
  matches_found: number
  requests: number
  duration_ms: number
  error: string | null
}

export const toMetric = (r: MetricRow): ScanMetric => ({
  id: r.id,
  createdAt: new Date(r.created_at).toISOString(),
  scanType: r.scan_type,
  status: r.status,
  postsFetched: r.posts_fetched,
  postsNew: r.posts_new,
  usersProcessed: r.users_processed,
  matchesFound: r.matches_found,
  requests: r.requests,
  durationMs: r.duration_ms,
  error: r.error,
})

/** The latest 100 scans and the last 24 h in figures (spec §7 scan_metrics, §9). */
export function scanMetrics(deps: AdminDeps) {
  const rows = deps.sqlite.query<MetricRow, []>('SELECT * FROM scan_metrics ORDER BY created_at DESC, id DESC LIMIT 100').all()
  const s = deps.sqlite
    .query<{ scans: number; ok: number; failed: number; posts: number; matches: number; users: number; avg: number | null }, [number]>(
      `SELECT count(*) AS scans, sum(status = 'success') AS ok, sum(status = 'failed') AS failed, sum(posts_new) AS posts,
              sum(matches_found) AS matches, sum(users_processed) AS users, avg(duration_ms) AS avg
       FROM scan_metrics WHERE created_at >= ?`,
    )
    .get(deps.now().getTime() - 24 * HOUR)!
  return {
    rows: rows.map(toMetric),
    stats24h: {
      scans: s.scans,
      successful: s.ok ?? 0,
      failed: s.failed ?? 0,
      postsNew: s.posts ?? 0,
      matchesFound: s.matches ?? 0,
      usersProcessed: s.users ?? 0,
      avgDurationMs: s.avg === null ? null : Math.round(s.avg),
    },
  }
}

export function maintenanceLogs(deps: AdminDeps, limit = 10) {
  return deps.sqlite
    .query<{ id: number; job_name: string; status: string; created_at: number; duration_ms: number; details: string | null }, [number]>(
      'SELECT id, job_name, status, created_at, duration_ms, details FROM maintenance_logs ORDER BY created_at DESC, id DESC LIMIT ?',
    )
    .all(limit)
    .map((r) => ({
      id: r.id,
      jobName: r.job_name,
      status: r.status,
      executedAt: new Date(r.created_at).toISOString(),
      durationMs: r.duration_ms,
      details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
    }))
}

export const toolsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-tools' })
    .use(authPlugin(deps))
    .get('/api/admin/scan-metrics', () => scanMetrics(deps), {
      admin: true,
      detail: { summary: 'Scan metrics: the latest 100 scans and 24 h stats (the Tools panel refreshes every 30 s)', tags },
    })
    .post(
      '/api/admin/scraper/trigger',
      async ({ user, set }) => {
        await audited(deps, { actor: user, action: 'scanner.trigger', target: 'fetch-reddit-posts' }, () => {
          if (isPaused(deps)) throw conflict(PAUSED_MESSAGE, 'PAUSED')
          // Scheduled, not awaited (spec run_fetch_reddit_posts_oauth_with_delay, 0 s). runScan never
          // overlaps a scan in flight: it waits for that one instead.
          setTimeout(() => {
            runScan(deps, deps.source, { manual: true }).catch((err) => log.error('manual scan failed', { error: String(err) }))
          }, 0)
        })
        set.status = 202
        // The scan is scheduled whatever the source's state; a source in trouble is named, with its fix.
        const trouble = troubleText(deps.source.healthReport?.())
        return { scheduled: true, sourceProblem: trouble && `The Reddit source is ${trouble}` }
      },
      {
        admin: SCRAPER_DENIED,
        detail: {
          summary: 'Schedule a scan now (returns 202 at once; the scan shows up in the scan metrics)',
          description: `{scheduled: true, sourceProblem}: sourceProblem names a source in trouble (blocked, failing, …) with the fix, else null. 403: '${SCRAPER_DENIED}'`,
          tags,
        },
      },
    )
    .post(
      '/api/admin/match-batch',
      ({ user }) => {
        if (isPaused(deps)) throw conflict(PAUSED_MESSAGE, 'PAUSED')
        return audited(
          deps,
          { actor: user, action: 'matching.batch' },
          () => runBatchMatch(deps),
          (r) => ({ ...r }),
        )
      },
      {
        admin: BATCH_DENIED,
        detail: {
          summary:
            'Batch matching: the last 24 h of posts against every term → {total_search_terms, recent_posts_count, matches_created, execution_time_seconds}',
          description: `403: '${BATCH_DENIED}'. Batch matches are stored as read and never alert.`,
          tags,
        },
      },
    )
    .get('/api/admin/maintenance-logs', ({ query }) => maintenanceLogs(deps, query.limit ?? 10), {
      admin: true,
      query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })) }),
      detail: { summary: 'Maintenance logs, newest first (10 by default)', tags },
    })
    .post(
      '/api/admin/backfill-post-types',
      ({ user }) =>
        audited(
          deps,
          { actor: user, action: 'posts.backfill_types' },
          () => backfillPostTypes(deps),
          (r) => r,
        ),
      {
        admin: true,
        detail: { summary: 'Classify stored posts that have no post type yet → {count, examined}', tags },
      },
    )
    .get(
      '/api/admin/archive-posts',
      ({ query }) => {
        const hours = query.olderThanHours ?? 24
        return { count: countArchivable(deps, hours * HOUR), olderThanHours: hours }
      },
      {
        admin: true,
        query: t.Object({ olderThanHours: t.Optional(t.Integer({ minimum: 1, maximum: 24 * 365 })) }),
        detail: { summary: 'How many posts an archive of posts older than olderThanHours (default 24) would delete now → {count, olderThanHours}', tags },
      },
    )
    .post(
      '/api/admin/archive-posts',
      ({ user, body }) => {
        const hours = body?.olderThanHours ?? 24
        return audited(
          deps,
          { actor: user, action: 'posts.archive', details: { older_than_hours: hours } },
          () => archivePosts(deps, { olderThanMs: hours * HOUR }),
          (r) => r,
        )
      },
      {
        admin: true,
        body: t.Optional(t.Object({ olderThanHours: t.Optional(t.Integer({ minimum: 1, maximum: 24 * 365 })) })),
        detail: {
          summary: 'Archive (delete) posts older than olderThanHours (default 24, spec §4) → {count}; matches keep their copy of the post',
          tags,
        },
      },
    )
