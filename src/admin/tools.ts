// /api/admin — Tools: scan metrics, scraper trigger, batch matching, maintenance logs, backfill and archive.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const toolsRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-tools' }).use(authPlugin(deps))
