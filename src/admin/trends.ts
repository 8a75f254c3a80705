// /api/admin — Trends: daily series over 7/30/90 days.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const trendsRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-trends' }).use(authPlugin(deps))
