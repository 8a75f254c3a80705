// /api/admin/revenue — the Revenue page: MRR and subscribers per plan from user_access, trials
// started / converted / expired and churn per week from access_history, gifted and default-plan
// accounts. Works with billing off (MRR 0; gifted, default-plan and manual accounts still count).
// Definitions: ./revenue-stats.ts.
import { Elysia } from 'elysia'
import { asc, eq } from 'drizzle-orm'
import { authPlugin } from '../auth/plugin'
import { accessHistory, userAccess, users } from '../db/schema'
import { badRequest } from '../lib/errors'
import type { AdminDeps } from './deps'
import { churn, countKinds, mrr, weeklyStats, type AccountRow } from './revenue-stats'

export const MAX_WEEKS = 52

export function revenueReport(deps: Pick<AdminDeps, 'db' | 'config' | 'now'>, weeks = 12) {
  const now = deps.now()
  const rows = deps.db
    .select({
      userId: users.id,
      email: users.email,
      role: userAccess.role,
      subscriptionStatus: userAccess.subscriptionStatus,
      accessExpiresAt: userAccess.accessExpiresAt,
      stripeSubscriptionId: userAccess.stripeSubscriptionId,
      grantedBy: userAccess.grantedBy,
    })
    .from(users)
    .leftJoin(userAccess, eq(userAccess.userId, users.id))
    .all()
  // ADMIN_EMAILS accounts are admins whatever their stored role (src/access/state.ts).
  const accounts: (AccountRow & { email: string })[] = rows.map((r) => ({
    ...r,
    role: deps.config.adminEmails.includes(r.email) ? 'admin' : (r.role ?? 'none'),
    subscriptionStatus: r.subscriptionStatus ?? null,
    accessExpiresAt: r.accessExpiresAt ?? null,
    stripeSubscriptionId: r.stripeSubscriptionId ?? null,
    grantedBy: r.grantedBy ?? null,
  }))
  const history = deps.db.select().from(accessHistory).orderBy(asc(accessHistory.at), asc(accessHistory.id)).all()
  const { mrrCents, plans } = mrr(accounts, now, deps.config.productName)
  const gifted = accounts
    .filter((a) => a.subscriptionStatus === 'gifted' && (a.accessExpiresAt === null || a.accessExpiresAt.getTime() > now.getTime()))
    .map((a) => ({ userId: a.userId, email: a.email, plan: a.role, until: a.accessExpiresAt?.toISOString() ?? null, grantedBy: a.grantedBy }))
  return {
    billingEnabled: deps.config.billingEnabled,
    defaultPlan: deps.config.defaultPlan,
    mrrCents,
    plans,
    accounts: countKinds(accounts, now, deps.config.billingEnabled ? null : deps.config.defaultPlan),
    gifted,
    weeks: weeklyStats(history, now, weeks),
    churn: churn(history, now, 30),
  }
}

export const revenueRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-revenue' }).use(authPlugin(deps)).get(
    '/api/admin/revenue',
    ({ query }) => {
      const raw = (query as Record<string, string | undefined>).weeks
      const weeks = raw === undefined || raw === '' ? 12 : Number(raw)
      if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS) throw badRequest(`Weeks must be a whole number from 1 to ${MAX_WEEKS}.`, 'INVALID_WEEKS')
      return revenueReport(deps, weeks)
    },
    {
      admin: true,
      detail: {
        summary:
          'MRR and subscribers per plan, accounts by kind (paying, gifted, default plan, trial …), gifted accounts, trials started/converted/expired and churn per week (?weeks=1–52, default 12), 30-day churn',
        tags: ['admin'],
      },
    },
  )
