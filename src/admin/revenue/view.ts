// Admin → Revenue, the view model: MRR and subscribers per plan from the accounts' access rows, trials
// started / converted / expired and churn per week from the access history (both read by src/access),
// gifted and default-plan accounts. Works with billing off (MRR 0; gifted, default-plan and manual
// accounts still count). Definitions: ./stats.ts.
import { accessHistoryRows, accountRows } from '../../access/accounts'
import type { AdminDeps } from '../shared/deps'
import { churn, countKinds, mrr, weeklyStats, type AccountRow } from './stats'

export async function revenueReport(deps: Pick<AdminDeps, 'db' | 'config' | 'now'>, weeks = 12) {
  const now = deps.now()
  // ADMIN_EMAILS accounts are admins whatever their stored role (src/access/state.ts).
  const accounts: (AccountRow & { email: string })[] = (await accountRows(deps)).map((r) => ({
    userId: r.id,
    email: r.email,
    role: deps.config.adminEmails.includes(r.email) ? 'admin' : (r.role ?? 'none'),
    subscriptionStatus: r.subscriptionStatus ?? null,
    accessExpiresAt: r.accessExpiresAt ?? null,
    stripeSubscriptionId: r.stripeSubscriptionId ?? null,
    grantedBy: r.grantedBy ?? null,
  }))
  const history = await accessHistoryRows(deps)
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
