// /api/admin — Users: the account table, per-user actions and details, add user.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const usersRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-users' }).use(authPlugin(deps))
