// /api/admin — Revenue: MRR, plans, trials and churn from the billing state.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const revenueRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-revenue' }).use(authPlugin(deps))
