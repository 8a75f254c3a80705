// /api/admin — Logs: scanner status and control (./scanner-status.ts), the scan log and coverage gaps
// (./view.ts), the application log tail (src/lib/log.ts), runtime scan settings (./scan-settings.ts).
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { recentLogLines, type LogLevel } from '../../lib/log'
import { runScan } from '../../scanner/scan'
import { audited } from '../../audit/log'
import type { AdminDeps } from '../shared/deps'
import { SCRAPER_DENIED } from '../shared/texts'
import { applyStoredScanSettings, MAX_INTERVAL_SECONDS, resetScanSettings, saveScanSettings, scanSettings } from './scan-settings'
import { scannerStatus, waitWhy } from './scanner-status'
import { coverageGaps, scanLog } from './view'
import {
  AdminLogsAppResponse,
  AdminScanLogResponse,
  AdminScanSettingsGetResponse,
  AdminScannerResponse,
  AdminScannerRunResponse,
  AdminSourceGapsResponse,
} from '../models'
import { errors } from '../../lib/models'
import { oneOf } from '../../lib/one-of'

const tags = ['admin']
const LEVELS = ['debug', 'info', 'warn', 'error'] as const

export const logsRoutes = (deps: AdminDeps) => {
  // The admin's stored scan settings take effect when the server builds its routes (once per process).
  applyStoredScanSettings(deps)
  return new Elysia({ name: 'admin-logs' })
    .use(authPlugin(deps))
    .get('/api/admin/scanner', async () => ({ ...(await scannerStatus(deps)), settings: await scanSettings(deps) }), {
      response: { 200: AdminScannerResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary:
          "Scanner status: state 'running' | 'paused' | 'waiting' (rate budget) | 'failing' (since …) | 'idle', next scan, posts of the last 24 h that could not be read (`unparsed`), and the scan settings in force",
        tags,
      },
    })
    .post(
      '/api/admin/scanner/run',
      ({ user }) =>
        audited(
          deps,
          { actor: user, action: 'scanner.force_run', target: 'fetch-reddit-posts' },
          async () => {
            const o = await runScan(deps, deps.source, { manual: true })
            return { ...o, waitingWhy: o.status === 'waiting' ? waitWhy(deps.source, deps.now().getTime()) : null }
          },
          (o) => ({ status: o.status, posts_new: o.postsNew, matches_created: o.matchesCreated }),
        ),
      {
        response: { 200: AdminScannerRunResponse, ...errors(401, 403) },
        admin: SCRAPER_DENIED,
        detail: {
          summary: "Force a scan now and wait for its outcome. Never overlaps a scan in flight: that one's outcome comes back with status 'busy'",
          description:
            "status 'paused' (emergency pause), 'waiting' (no request may go now: nothing sent; `waitingWhy` says why in words, e.g. the source is blocked, with the fix), 'success' or 'failed' (`error`, `requests` sent).",
          tags,
        },
      },
    )
    .get('/api/admin/scan-log', ({ query }) => scanLog(deps, { status: query.status || undefined, limit: query.limit }), {
      response: { 200: AdminScanLogResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({ status: t.Optional(t.String({ maxLength: 20 })), limit: t.Optional(t.Integer({ minimum: 1, maximum: 500 })) }),
      detail: { summary: 'Scan log: scans and the other jobs of the job log, newest first, optionally one status', tags },
    })
    .get('/api/admin/source-gaps', async ({ query }) => coverageGaps(deps, query.window ?? '24h'), {
      response: { 200: AdminSourceGapsResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({ window: t.Optional(t.Union([t.Literal('24h'), t.Literal('7d')])) }),
      detail: {
        summary:
          'Coverage gaps: windows a forum source may have missed (a poll whose oldest entry was newer than the newest stored post), last 24 h or 7 d, newest first, with their count and the seconds not covered',
        tags,
      },
    })
    .get('/api/admin/logs/app', ({ query }) => recentLogLines({ minLevel: (query.level ?? 'debug') as LogLevel, after: query.after, limit: 500 }), {
      response: { 200: AdminLogsAppResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({
        level: t.Optional(oneOf(LEVELS)),

        after: t.Optional(t.Integer({ minimum: 0 })),
      }),
      detail: {
        summary: 'The last 500 application log lines (in memory), at a level or above; ?after=<lastSeq> returns only newer lines (live tail by polling)',
        tags,
      },
    })
    .get('/api/admin/scan-settings', () => scanSettings(deps), {
      response: { 200: AdminScanSettingsGetResponse, ...errors(401, 403) },
      admin: true,
      detail: { summary: 'Runtime scan settings: interval (null = adaptive), max Reddit requests per minute, the mode allowance', tags },
    })
    .put(
      '/api/admin/scan-settings',
      ({ user, body }) => audited(deps, { actor: user, action: 'scanner.settings', details: { ...body } }, () => saveScanSettings(deps, body)),
      {
        response: { 200: AdminScanSettingsGetResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Object({
          intervalSeconds: t.Union([t.Null(), t.Number({ minimum: 0.5, maximum: MAX_INTERVAL_SECONDS })]),
          maxRequestsPerMinute: t.Integer({ minimum: 1, maximum: 1000 }),
        }),
        detail: {
          summary: 'Store and apply the scan settings without a restart (400 INVALID_SCAN_SETTINGS when faster than the mode allows)',
          tags,
        },
      },
    )
    .delete('/api/admin/scan-settings', ({ user }) => audited(deps, { actor: user, action: 'scanner.settings_reset' }, () => resetScanSettings(deps)), {
      response: { 200: AdminScanSettingsGetResponse, ...errors(401, 403) },
      admin: true,
      detail: { summary: "Back to the environment's scan settings (SCAN_INTERVAL_SECONDS, the mode's cap)", tags },
    })
}
