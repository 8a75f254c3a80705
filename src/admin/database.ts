// /api/admin — Database: table sizes, integrity check, optimize, backup download, archive.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const databaseRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-database' }).use(authPlugin(deps))
