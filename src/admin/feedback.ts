// /api/admin — Feedback: the contact-form inbox.
import { Elysia } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { AdminDeps } from './deps'

export const feedbackRoutes = (deps: AdminDeps) => new Elysia({ name: 'admin-feedback' }).use(authPlugin(deps))
