// Access from the database: reads a user's role row into an AccessState (admins from
// ADMIN_EMAILS included), builds AccessInfo with the pure rules, and writes the grants that
// change access (trial start, default plan, gifted plan, role change). Every write emits
// 'access.changed' so connected browsers refresh at once.
import { eq } from 'drizzle-orm'
import { accessHistory, userAccess } from '../db/schema'
import type { Deps } from '../deps'
import { userWithAccess } from './state'
import { accessInfo, isRole, GIFTED_STATUS, type AccessInfo, type AccessState, type Role } from './rules'
import { trialEndsAt, type PlanId } from './plans'

export function accessStateFor(deps: Pick<Deps, 'db' | 'config'>, userId: number): AccessState | null {
  return userWithAccess(deps, userId)?.access ?? null
}

export function accessInfoFor(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: number): AccessInfo | null {
  const state = accessStateFor(deps, userId)
  return state === null ? null : accessInfo(state, deps.now())
}

/** Who caused an access write, kept in access_history for the revenue and trial statistics. */
export type AccessSource = 'signup' | 'stripe' | 'admin' | 'cli' | 'system'

export type AccessWrite = {
  role: Role | 'none'
  subscriptionStatus: string | null
  accessExpiresAt: Date | null
  grantedBy?: string | null
  /** default: 'cli' when granted by 'cli', 'admin' when granted by anyone else, otherwise 'system' */
  source?: AccessSource
}

/** The one writer of user_access: upserts the row, appends access_history and emits 'access.changed'. */
export function writeAccess(deps: Pick<Deps, 'db' | 'now' | 'bus'>, userId: number, v: AccessWrite) {
  const { source: given, ...rest } = v
  const source = given ?? (v.grantedBy === 'cli' ? 'cli' : v.grantedBy ? 'admin' : 'system')
  const now = deps.now()
  const values = { ...rest, grantedBy: v.grantedBy ?? null, updatedAt: now }
  deps.db.transaction((tx) => {
    tx.insert(userAccess)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: userAccess.userId, set: values })
      .run()
    tx.insert(accessHistory)
      .values({ userId, at: now, role: v.role, subscriptionStatus: v.subscriptionStatus, accessExpiresAt: v.accessExpiresAt, source })
      .run()
  })
  deps.bus.emit('access.changed', { userId })
}

/**
 * What a newly confirmed account gets: the 7-day trial (app_trial, 'trialing') — or, while billing
 * is off, DEFAULT_PLAN without expiry so nobody is asked for a payment that cannot happen.
 * An account that already holds a role (confirmed twice, linked Google) keeps it.
 */
export function startAccess(deps: Pick<Deps, 'db' | 'now' | 'bus' | 'config'>, userId: number): AccessState | null {
  const existing = deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get()
  if (existing !== undefined && existing.role !== 'none') return accessStateFor(deps, userId)
  const { billingEnabled, defaultPlan } = deps.config
  if (!billingEnabled && defaultPlan !== null) {
    writeAccess(deps, userId, { role: defaultPlan, subscriptionStatus: 'active', accessExpiresAt: null, source: 'signup' })
  } else {
    writeAccess(deps, userId, { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: trialEndsAt(deps.now()), source: 'signup' })
  }
  return accessStateFor(deps, userId)
}

/** Gifted access (admin or CLI): the plan's role until `until`, status 'gifted'. */
export function grantPlan(deps: Pick<Deps, 'db' | 'now' | 'bus'>, userId: number, plan: PlanId, until: Date | null, grantedBy: string) {
  writeAccess(deps, userId, { role: plan, subscriptionStatus: GIFTED_STATUS, accessExpiresAt: until, grantedBy })
}

/** Sets the stored role; plan roles become active without expiry, app_trial runs 7 days from now. */
export function setRole(deps: Pick<Deps, 'db' | 'now' | 'bus'>, userId: number, role: Role | 'none', grantedBy: string | null = null) {
  if (role !== 'none' && !isRole(role)) throw new Error(`unknown role ${role}`)
  if (role === 'app_trial') return writeAccess(deps, userId, { role, subscriptionStatus: 'trialing', accessExpiresAt: trialEndsAt(deps.now()), grantedBy })
  if (role === 'trial_expired' || role === 'none') return writeAccess(deps, userId, { role, subscriptionStatus: null, accessExpiresAt: null, grantedBy })
  writeAccess(deps, userId, { role, subscriptionStatus: 'active', accessExpiresAt: null, grantedBy })
}
