// Admin → Users, the view model: the searchable, filterable, paged account list and one account's
// detail (terms per category, match counts, notification preferences, last sign-in, billing state and
// the audit rows about it), each read from its owner. The actions are ./actions.ts.
import { accountRow, accountRows, storedAccess, type AccountRow } from '../../access/accounts'
import { accessInfo, hasActiveAccess, effectiveRole, statusText, TRIAL_ENDING_DAYS, type AccessState } from '../../access/rules'
import { accessStateOf } from '../../access/state'
import { auditRowsAbout } from '../../audit/log'
import { lastSignIns, sessionCount } from '../../auth/session'
import { usersWithTwoFactor } from '../../auth/two-factor'
import { findUser, publicUser } from '../../auth/users'
import type { Deps } from '../../deps'
import { notFound } from '../../lib/errors'
import { matchCountsOfUser } from '../../matches/stats'
import { storedPrefs } from '../../notify/prefs'
import { countSubscriptions } from '../../notify/push-subscriptions'
import { termsOfUser } from '../../terms/stats'
import type { ListQuery } from './input'

const DAY_MS = 24 * 60 * 60 * 1000

export type UserListItem = {
  id: number
  email: string
  name: string
  /** effective role (an app_trial past its end reads trial_expired; ADMIN_EMAILS read admin) */
  role: string
  storedRole: string
  hasAccess: boolean
  statusText: string
  subscriptionStatus: string | null
  accessExpiresAt: string | null
  grantedBy: string | null
  confirmed: boolean
  banned: boolean
  twoFactor: boolean
  /** admin through ADMIN_EMAILS: the stored role cannot change that */
  adminByConfig: boolean
  createdAt: string
  lastSignInAt: string | null
  trialEndingSoon: boolean
}

type Row = AccountRow & { lastSignIn: number | null }

/** A trial that ends within TRIAL_ENDING_DAYS (the window in which the app says 'Your Trial is Ending Soon'). */
export function trialEndingSoon(state: AccessState, now: Date): boolean {
  return (
    state.role === 'app_trial' &&
    hasActiveAccess(state, now) &&
    state.accessExpiresAt !== null &&
    state.accessExpiresAt.getTime() - now.getTime() <= TRIAL_ENDING_DAYS * DAY_MS
  )
}

function toItem(deps: Pick<Deps, 'config'>, r: Row, twoFactor: Set<number>, now: Date): UserListItem {
  const state = accessStateOf(deps, r.email, r.role === null ? null : { ...r, role: r.role })
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: effectiveRole(state, now),
    storedRole: r.role ?? 'none',
    hasAccess: hasActiveAccess(state, now),
    statusText: r.bannedAt ? 'Banned' : statusText(state, now),
    subscriptionStatus: r.subscriptionStatus,
    accessExpiresAt: r.accessExpiresAt?.toISOString() ?? null,
    grantedBy: r.grantedBy,
    confirmed: r.emailConfirmedAt !== null,
    banned: r.bannedAt !== null,
    twoFactor: twoFactor.has(r.id),
    adminByConfig: deps.config.adminEmails.includes(r.email.toLowerCase()),
    createdAt: r.createdAt.toISOString(),
    lastSignInAt: r.lastSignIn === null ? null : new Date(r.lastSignIn).toISOString(),
    trialEndingSoon: trialEndingSoon(state, now),
  }
}

/** Does an account pass the list's role, status and trial filters? (Search is done in SQL.) */
export function passesFilters(item: UserListItem, q: Pick<ListQuery, 'role' | 'status' | 'trialEnding'>): boolean {
  if (q.role !== null && item.role !== q.role) return false
  if (q.trialEnding && !item.trialEndingSoon) return false
  switch (q.status) {
    case 'banned':
      return item.banned
    case 'unconfirmed':
      return !item.confirmed
    case 'active':
      return item.hasAccess && !item.banned
    case 'inactive':
      return !item.hasAccess && !item.banned
    case null:
    default:
      return true
  }
}

/**
 * Newest accounts first. Roles and access depend on the clock and ADMIN_EMAILS, so filters run
 * over the searched rows in memory (a self-hosted instance has thousands of accounts, not millions).
 */
export async function listUsers(deps: Pick<Deps, 'db' | 'sqlite' | 'config' | 'now'>, q: ListQuery) {
  const now = deps.now()
  const searched = await accountRows(deps, { search: q.search, newestFirst: true })
  const twoFactor = await usersWithTwoFactor(deps)
  const signIns = await lastSignIns(deps)
  const items = searched.map((r) => toItem(deps, { ...r, lastSignIn: signIns.get(r.id) ?? null }, twoFactor, now)).filter((i) => passesFilters(i, q))
  const total = items.length
  const pages = Math.max(1, Math.ceil(total / q.pageSize))
  const page = Math.min(q.page, pages)
  return { users: items.slice((page - 1) * q.pageSize, page * q.pageSize), total, page, pages, pageSize: q.pageSize }
}

/** The one account's row for the list, or 404. */
export async function userItem(deps: Pick<Deps, 'db' | 'sqlite' | 'config' | 'now'>, userId: number): Promise<UserListItem> {
  const row = await accountRow(deps, userId)
  if (row === undefined) throw notFound('No account with that id.', 'USER_NOT_FOUND')
  return toItem(deps, { ...row, lastSignIn: (await lastSignIns(deps)).get(userId) ?? null }, await usersWithTwoFactor(deps), deps.now())
}

/** Everything the detail view shows about one account. */
export async function userDetail(deps: Pick<Deps, 'db' | 'sqlite' | 'config' | 'now'>, userId: number) {
  const item = await userItem(deps, userId)
  const user = (await findUser(deps, userId))!
  const access = await storedAccess(deps, userId)
  const state = accessStateOf(deps, user.email, access)
  const termsByCategory = await termsOfUser(deps, userId)
  const matchCounts = await matchCountsOfUser(deps, userId)
  const prefs = await storedPrefs(deps, userId)
  const pushDevices = await countSubscriptions(deps, userId)
  const activeSessions = await sessionCount(deps, userId)
  const audit = await auditRowsAbout(deps, `user:${userId}`, 50)
  return {
    user: { ...item, providers: (await publicUser(deps, user)).providers, hasPassword: user.passwordHash !== null },
    access: accessInfo(state, deps.now()),
    billing: {
      role: access?.role ?? 'none',
      subscriptionStatus: access?.subscriptionStatus ?? null,
      accessExpiresAt: access?.accessExpiresAt?.toISOString() ?? null,
      stripeCustomerId: access?.stripeCustomerId ?? null,
      stripeSubscriptionId: access?.stripeSubscriptionId ?? null,
      grantedBy: access?.grantedBy ?? null,
      updatedAt: access?.updatedAt?.toISOString() ?? null,
    },
    terms: termsByCategory,
    matchCounts,
    // No row: the defaults of src/notify/prefs.ts (batched digest, push off).
    notifications: prefs
      ? { emailFrequency: prefs.emailFrequency, webPushEnabled: prefs.webPushEnabled, pushDevices }
      : { emailFrequency: 'batched', webPushEnabled: false, pushDevices, defaults: true },
    sessions: activeSessions,
    audit: audit.map((a) => ({ id: a.id, at: a.at.toISOString(), actor: a.actor, action: a.action, details: a.details, result: a.result })),
  }
}
