// GET /api/admin/trends — the Trends page (the series: ./view.ts).
import { Elysia } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import type { AdminDeps } from '../shared/deps'
import { rangeDays, rangeQuery } from '../shared/range'
import { trends } from './view'
import { AdminTrendsResponse } from '../models'
import { errors } from '../../lib/models'

export const trendsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-trends' }).use(authPlugin(deps)).get('/api/admin/trends', ({ query }) => trends(deps, rangeDays(query)), {
    response: { 200: AdminTrendsResponse, ...errors(400, 401, 403) },
    admin: true,
    query: rangeQuery,
    detail: {
      summary:
        'Daily series over the last 7, 30 or 90 UTC days (every day present, 0 when empty): posts per forum, matches per category, new accounts, post→alert latency p50/p95 (live matches), the 20 most saved terms with their match counts',
      tags: ['admin'],
    },
  })
