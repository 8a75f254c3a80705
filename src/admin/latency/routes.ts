// /api/admin — Alert latency (the dashboard's card): p50/p95/p99 per stage of an alert's path and end
// to end, over 1h, 24h or 7d. The view model is src/metrics/latency-stats.ts (latencyReport), which owns alert_latency.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { latencyReport, type LatencyWindow } from '../../metrics/latency-stats'
import type { AdminDeps } from '../shared/deps'
import { AdminLatencyResponse } from '../models'
import { errors } from '../../lib/models'

export const latencyRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-latency' })
    .use(authPlugin(deps))
    .get('/api/admin/latency', ({ query }) => latencyReport(deps, deps.now().getTime(), (query.window ?? '24h') as LatencyWindow), {
      response: { 200: AdminLatencyResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({ window: t.Optional(t.UnionEnum(['1h', '24h', '7d'])) }),
      detail: {
        summary:
          'Alert latency p50/p95/p99 (ms) per stage (Reddit → received → stored → matched → socket / push / email) and end to end, over 1h, 24h (default) or 7d',
        tags: ['admin'],
      },
    })
