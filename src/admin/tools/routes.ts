// /api/admin — Tools: scan metrics and the job log (./view.ts), scraper trigger, batch matching, and
// the upkeep of stored posts (backfill and archive, src/forums/upkeep.ts). Each action is audited
// (src/audit/log.ts); the scraper and batch calls answer non-admins with the spec's permission texts.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { archivePosts, backfillPostTypes, countArchivable } from '../../forums/upkeep'
import { troubleText } from '../../forums/source-health'
import { log } from '../../lib/log'
import { conflict } from '../../lib/errors'
import { runBatchMatch } from '../../matches/batch'
import { runScan } from '../../scanner/scan'
import { isPaused } from '../../settings/service'
import { audited } from '../../audit/log'
import type { AdminDeps } from '../shared/deps'
import { BATCH_DENIED, PAUSED_MESSAGE, SCRAPER_DENIED } from '../shared/texts'
import { jobLog, scanMetrics } from './view'
import {
  AdminArchivePostsGetResponse,
  AdminBackfillPostTypesResponse,
  AdminMaintenanceLogsResponse,
  AdminMatchBatchResponse,
  AdminScanMetricsResponse,
  AdminScraperTriggerResponse,
} from '../models'
import { CountResponse } from '../../matches/models'
import { errors } from '../../lib/models'

const tags = ['admin']
const HOUR = 3_600_000

export const toolsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-tools' })
    .use(authPlugin(deps))
    .get('/api/admin/scan-metrics', () => scanMetrics(deps), {
      response: { 200: AdminScanMetricsResponse, ...errors(401, 403) },
      admin: true,
      detail: { summary: 'Scan metrics: the latest 100 scans and 24 h stats (the Tools panel refreshes every 30 s)', tags },
    })
    .post(
      '/api/admin/scraper/trigger',
      async ({ user, set }) => {
        await audited(deps, { actor: user, action: 'scanner.trigger', target: 'fetch-reddit-posts' }, async () => {
          if (await isPaused(deps)) throw conflict(PAUSED_MESSAGE, 'PAUSED')
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
        response: { 200: AdminScraperTriggerResponse, ...errors(401, 403) },
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
      async ({ user }) => {
        if (await isPaused(deps)) throw conflict(PAUSED_MESSAGE, 'PAUSED')
        return audited(
          deps,
          { actor: user, action: 'matching.batch' },
          () => runBatchMatch(deps),
          (r) => ({ ...r }),
        )
      },
      {
        response: { 200: AdminMatchBatchResponse, ...errors(401, 403) },
        admin: BATCH_DENIED,
        detail: {
          summary:
            'Batch matching: the last 24 h of posts against every term → {total_search_terms, recent_posts_count, matches_created, execution_time_seconds}',
          description: `403: '${BATCH_DENIED}'. Batch matches are stored as read and never alert.`,
          tags,
        },
      },
    )
    .get('/api/admin/maintenance-logs', ({ query }) => jobLog(deps, query.limit ?? 10), {
      response: { 200: AdminMaintenanceLogsResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })) }),
      detail: { summary: 'The job log (maintenance_logs): each run of a job, newest first (10 by default)', tags },
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
        response: { 200: AdminBackfillPostTypesResponse, ...errors(401, 403) },
        admin: true,
        detail: { summary: 'Classify stored posts that have no post type yet → {count, examined}', tags },
      },
    )
    .get(
      '/api/admin/archive-posts',
      async ({ query }) => {
        const hours = query.olderThanHours ?? 24
        return { count: await countArchivable(deps, hours * HOUR), olderThanHours: hours }
      },
      {
        response: { 200: AdminArchivePostsGetResponse, ...errors(400, 401, 403) },
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
        response: { 200: CountResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Optional(t.Object({ olderThanHours: t.Optional(t.Integer({ minimum: 1, maximum: 24 * 365 })) })),
        detail: {
          summary: 'Archive (delete) posts older than olderThanHours (default 24, spec §4) → {count}; matches keep their copy of the post',
          tags,
        },
      },
    )
