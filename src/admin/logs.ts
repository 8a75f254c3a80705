// /api/admin — Logs: scanner status and control, scan log, application log tail, runtime scan settings.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const logsRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-logs' }).use(authPlugin(deps))
