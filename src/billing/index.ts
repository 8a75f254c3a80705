// /api/billing — Stripe embedded checkout, billing portal and the signed webhook (issue 13).
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from '../admin/deps'

export const billingRoutes = (deps: AdminDeps) => new Elysia({ name: 'billing' }).use(authPlugin(deps))
