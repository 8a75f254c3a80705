// /api/admin — Dashboard: emergency pause and maintenance mode, system health, KPIs, system resources, recent activity.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const dashboardRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-dashboard' }).use(authPlugin(deps))
