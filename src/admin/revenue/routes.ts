// GET /api/admin/revenue — the Revenue page (the report: ./view.ts).
import { Elysia } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { badRequest } from '../../lib/errors'
import type { AdminDeps } from '../shared/deps'
import { revenueReport } from './view'
import { AdminRevenueResponse } from '../models'
import { errors } from '../../lib/models'

export const MAX_WEEKS = 52

export const revenueRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-revenue' }).use(authPlugin(deps)).get(
    '/api/admin/revenue',
    ({ query }) => {
      const raw = (query as Record<string, string | undefined>).weeks
      const weeks = raw === undefined || raw === '' ? 12 : Number(raw)
      if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS) throw badRequest(`Weeks must be a whole number from 1 to ${MAX_WEEKS}.`, 'INVALID_WEEKS')
      return revenueReport(deps, weeks)
    },
    {
      response: { 200: AdminRevenueResponse, ...errors(401, 403) },
      admin: true,
      detail: {
        summary:
          'MRR and subscribers per plan, accounts by kind (paying, gifted, default plan, trial …), gifted accounts, trials started/converted/expired and churn per week (?weeks=1–52, default 12), 30-day churn',
        tags: ['admin'],
      },
    },
  )
