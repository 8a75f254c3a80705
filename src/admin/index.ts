// Every /api/admin/* route, one plugin per admin page (spec §2 Admin). Each route declares
// { admin: true } — or { admin: 'message' } where the spec words the refusal — so the role is
// checked on the server; each state-changing action writes an audit row (./audit.ts).
import { Elysia } from 'elysia'
import type { AdminDeps } from './deps'
import { dashboardRoutes } from './dashboard'
import { usersRoutes } from './users'
import { logsRoutes } from './logs'
import { databaseRoutes } from './database'
import { trendsRoutes } from './trends'
import { alertsRoutes } from './alerts'
import { revenueRoutes } from './revenue'
import { toolsRoutes } from './tools'
import { feedbackRoutes } from './feedback'
import { latencyRoutes } from './latency'

export const adminRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin' })
    .use(dashboardRoutes(deps))
    .use(latencyRoutes(deps))
    .use(usersRoutes(deps))
    .use(logsRoutes(deps))
    .use(databaseRoutes(deps))
    .use(trendsRoutes(deps))
    .use(alertsRoutes(deps))
    .use(revenueRoutes(deps))
    .use(toolsRoutes(deps))
    .use(feedbackRoutes(deps))
