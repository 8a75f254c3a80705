// /api/admin — Alerts: the outbox by channel, failed deliveries and retry.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const alertsRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-alerts' }).use(authPlugin(deps))
