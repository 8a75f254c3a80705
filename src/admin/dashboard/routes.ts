// /api/admin — the Dashboard: emergency pause and maintenance mode (src/settings), System Health and
// KPIs (./view.ts), System Resources (./resources.ts), Recent Activity (./recent-activity.ts).
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { readSettings, setSetting, SETTINGS, type SettingName } from '../../settings/service'
import { recentActivity } from './recent-activity'
import { audited } from '../../audit/log'
import type { AdminDeps } from '../shared/deps'
import { systemResources } from './resources'
import { kpiStats, systemHealth } from './view'
import {
  AdminActivityResponse,
  AdminHealthResponse,
  AdminKpisResponse,
  AdminResourcesResponse,
  AdminSettingsNameResponse,
  AdminSettingsResponse,
} from '../models'
import { errors } from '../../lib/models'
import { oneOf } from '../../lib/one-of'

const tags = ['admin']

export const dashboardRoutes = (deps: AdminDeps) => {
  return new Elysia({ name: 'admin-dashboard' })
    .use(authPlugin(deps))
    .get('/api/admin/settings', () => readSettings(deps), {
      response: { 200: AdminSettingsResponse, ...errors(401, 403) },
      admin: true,
      detail: { summary: 'Emergency pause and maintenance mode: {is_emergency_paused, is_maintenance_mode_active}', tags },
    })
    .put(
      '/api/admin/settings/:name',
      async ({ params, body, user }) => {
        const name = params.name as SettingName
        const active = await audited(deps, { actor: user, action: `settings.${name}`, target: name, details: { active: body.active } }, () =>
          setSetting(deps, name, body.active),
        )
        return { name, active }
      },
      {
        response: { 200: AdminSettingsNameResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: t.Object({ name: oneOf(Object.keys(SETTINGS) as SettingName[]) }),

        body: t.Object({ active: t.Boolean() }),
        detail: {
          summary: 'Switch the emergency pause or maintenance mode; audited, and broadcast as settings.changed on the admin topic',
          description:
            'is_emergency_paused stops scanning, matching and alerting. is_maintenance_mode_active answers signed-in non-admins 503 MAINTENANCE (scanning and alerts go on).',
          tags,
        },
      },
    )
    .get('/api/admin/health', async () => systemHealth(deps), {
      response: { 200: AdminHealthResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary:
          'System health: post/user/match counts, minutes since the last successful scan (healthy ≤ 10, warning > 10 or none, critical > 30), email queue',
        tags,
      },
    })
    .get('/api/admin/kpis', () => kpiStats(deps), {
      response: { 200: AdminKpisResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary: "KPIs: today's/yesterday's matches and growth, users matched in 24 h, posts today, users, active/trialing, trial vs paid, conversion",
        tags,
      },
    })
    .get('/api/admin/resources', () => systemResources(deps), {
      response: { 200: AdminResourcesResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary:
          'System resources: uptime, memory, event-loop lag, database/WAL size, sockets, outbox depth, Reddit budget, scan interval, alert latency p50/p95',
        tags,
      },
    })
    .get('/api/admin/activity', async ({ query }) => recentActivity(deps, query.limit ?? 15), {
      response: { 200: AdminActivityResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })) }),
      detail: { summary: 'Recent activity: admin actions, runs of the job log and notable scans, newest first', tags },
    })
}
