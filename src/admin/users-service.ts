// The Users page's reads: the searchable, filterable, paged account list and one account's detail
// (terms per category, match counts, notification preferences, last sign-in, billing state and
// the audit rows about it). The actions are ./users-actions.ts.
import { desc, eq, or, sql } from 'drizzle-orm'
import { accessInfo, hasActiveAccess, effectiveRole, statusText, TRIAL_ENDING_DAYS, type AccessState } from '../access/rules'
import { accessStateOf } from '../access/state'
import { auditLog, matches, notificationPrefs, pushSubscriptions, searchTerms, sessions, userAccess, users } from '../db/schema'
import type { Deps } from '../deps'
import { notFound } from '../lib/errors'
import { publicUser } from '../auth/users'
import { usersWithTwoFactor } from '../auth/two-factor'
import type { ListQuery } from './users-input'

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

type Row = {
  id: number
  email: string
  name: string
  emailConfirmedAt: Date | null
  bannedAt: Date | null
  createdAt: Date
  role: string | null
  subscriptionStatus: string | null
  accessExpiresAt: Date | null
  stripeCustomerId: string | null
  grantedBy: string | null
  lastSignIn: number | null
}

const lastSignIn = sql<number | null>`(select max(${sessions.createdAt}) from ${sessions} where ${sessions.userId} = ${users.id})`

function selectRows(deps: Pick<Deps, 'db'>) {
  return deps.db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      emailConfirmedAt: users.emailConfirmedAt,
      bannedAt: users.bannedAt,
      createdAt: users.createdAt,
      role: userAccess.role,
      subscriptionStatus: userAccess.subscriptionStatus,
      accessExpiresAt: userAccess.accessExpiresAt,
      stripeCustomerId: userAccess.stripeCustomerId,
      grantedBy: userAccess.grantedBy,
      lastSignIn,
    })
    .from(users)
    .leftJoin(userAccess, eq(userAccess.userId, users.id))
}

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
export function listUsers(deps: Pick<Deps, 'db' | 'config' | 'now'>, q: ListQuery) {
  const now = deps.now()
  const pattern = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const searched = q.search
    ? selectRows(deps)
        .where(or(sql`${users.email} like ${pattern} escape '\\'`, sql`${users.name} like ${pattern} escape '\\'`))
        .orderBy(desc(users.id))
        .all()
    : selectRows(deps).orderBy(desc(users.id)).all()
  const twoFactor = usersWithTwoFactor(deps)
  const items = searched.map((r) => toItem(deps, r as Row, twoFactor, now)).filter((i) => passesFilters(i, q))
  const total = items.length
  const pages = Math.max(1, Math.ceil(total / q.pageSize))
  const page = Math.min(q.page, pages)
  return { users: items.slice((page - 1) * q.pageSize, page * q.pageSize), total, page, pages, pageSize: q.pageSize }
}

/** The one account's row for the list, or 404. */
export function userItem(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: number): UserListItem {
  const row = selectRows(deps).where(eq(users.id, userId)).get()
  if (row === undefined) throw notFound('No account with that id.', 'USER_NOT_FOUND')
  return toItem(deps, row as Row, usersWithTwoFactor(deps), deps.now())
}

const count = sql<number>`count(*)`

/** Everything the detail view shows about one account. */
export function userDetail(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: number) {
  const item = userItem(deps, userId)
  const user = deps.db.select().from(users).where(eq(users.id, userId)).get()!
  const access = deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get()
  const state = accessStateOf(deps, user.email, access ?? null)
  const terms = deps.db
    .select({ id: searchTerms.id, category: searchTerms.category, term: searchTerms.term, pausedAt: searchTerms.pausedAt, createdAt: searchTerms.createdAt })
    .from(searchTerms)
    .where(eq(searchTerms.userId, userId))
    .orderBy(searchTerms.category, searchTerms.createdAt)
    .all()
  const termsByCategory: Record<string, { id: number; term: string; paused: boolean }[]> = { wts: [], wtb: [], gd: [] }
  for (const t of terms) (termsByCategory[t.category] ??= []).push({ id: t.id, term: t.term, paused: t.pausedAt !== null })
  const matchRows = deps.db
    .select({
      category: matches.category,
      total: count,
      unread: sql<number>`sum(case when ${matches.isNew} = 1 and ${matches.archivedAt} is null then 1 else 0 end)`,
      archived: sql<number>`sum(case when ${matches.archivedAt} is not null then 1 else 0 end)`,
    })
    .from(matches)
    .where(eq(matches.userId, userId))
    .groupBy(matches.category)
    .all()
  const matchCounts: Record<string, { total: number; unread: number; archived: number }> = {}
  for (const c of ['wts', 'wtb', 'gd']) matchCounts[c] = { total: 0, unread: 0, archived: 0 }
  for (const m of matchRows) matchCounts[m.category] = { total: m.total, unread: m.unread ?? 0, archived: m.archived ?? 0 }
  const prefs = deps.db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).get()
  const pushDevices = deps.db.select({ n: count }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).get()!.n
  const activeSessions = deps.db.select({ n: count }).from(sessions).where(eq(sessions.userId, userId)).get()!.n
  const audit = deps.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.target, `user:${userId}`))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(50)
    .all()
  return {
    user: { ...item, providers: publicUser(deps, user).providers, hasPassword: user.passwordHash !== null },
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
