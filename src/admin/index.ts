// Every /api/admin/* route, one plugin per admin page (spec §2 Admin). Each route declares
// { admin: true } — or { admin: 'message' } where the spec words the refusal — so the role is
// checked on the server; each state-changing action writes an audit row (src/audit/log.ts).
// A page's folder holds its routes (routes.ts) and its view model; the data comes from the service
// functions of the capability that owns each table (src/db/owners.json; scripts/check-admin-tables.ts).
import { Elysia } from 'elysia'
import type { AdminDeps } from './shared/deps'
import { dashboardRoutes } from './dashboard/routes'
import { usersRoutes } from './users/routes'
import { logsRoutes } from './logs/routes'
import { sourcesRoutes } from './logs/sources-routes'
import { databaseRoutes } from './database/routes'
import { trendsRoutes } from './trends/routes'
import { alertsRoutes } from './alerts/routes'
import { revenueRoutes } from './revenue/routes'
import { toolsRoutes } from './tools/routes'
import { feedbackRoutes } from './feedback/routes'
import { latencyRoutes } from './latency/routes'

export const adminRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin' })
    .use(dashboardRoutes(deps))
    .use(latencyRoutes(deps))
    .use(usersRoutes(deps))
    .use(logsRoutes(deps))
    .use(sourcesRoutes(deps))
    .use(databaseRoutes(deps))
    .use(trendsRoutes(deps))
    .use(alertsRoutes(deps))
    .use(revenueRoutes(deps))
    .use(toolsRoutes(deps))
    .use(feedbackRoutes(deps))
