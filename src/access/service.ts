// Access from the database: reads a user's role row into an AccessState (admins from
// ADMIN_EMAILS included), builds AccessInfo with the pure rules, and writes the grants that
// change access (trial start, default plan, gifted plan, role change). Every write emits
// 'access.changed' so connected browsers refresh at once.
import type { AsyncDb, OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { accessHistory, userAccess } from '../db/schema'
import type { Deps } from '../deps'
import { accountUser } from '../auth/user-rows'
import { storedAccess, type StoredAccess } from './accounts'
import { accessStateOf } from './state'
import { accessInfo, isRole, GIFTED_STATUS, type AccessInfo, type AccessState, type Role } from './rules'
import { trialEndsAt, type PlanId } from './plans'

/** A user's access (ADMIN_EMAILS included), or null without the account. */
export async function accessStateFor(deps: Pick<Deps, 'db' | 'config'>, userId: number): Promise<AccessState | null> {
  const user = await accountUser(deps.db, userId)
  return user === undefined ? null : accessStateOf(deps, user.email, await storedAccess(deps, userId))
}

export async function accessInfoFor(deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: number): Promise<AccessInfo | null> {
  const state = await accessStateFor(deps, userId)
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

type WriteDeps = OwnerDb & Pick<Deps, 'now' | 'bus'>

/** The upsert of user_access and its access_history row, on a transaction's handle. */
async function putAccess(tx: AsyncDb, userId: number, v: AccessWrite, now: Date): Promise<void> {
  const { source: given, ...rest } = v
  const source = given ?? (v.grantedBy === 'cli' ? 'cli' : v.grantedBy ? 'admin' : 'system')
  const values = { ...rest, grantedBy: v.grantedBy ?? null, updatedAt: now }
  await tx
    .insert(userAccess)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userAccess.userId, set: values })
  await tx.insert(accessHistory).values({ userId, at: now, role: v.role, subscriptionStatus: v.subscriptionStatus, accessExpiresAt: v.accessExpiresAt, source })
}

/** The one writer of user_access: upserts the row, appends access_history and emits 'access.changed'. */
export async function writeAccess(deps: WriteDeps, userId: number, v: AccessWrite): Promise<void> {
  const now = deps.now()
  await asAsync(deps.db).transaction((tx) => putAccess(tx, userId, v, now))
  deps.bus.emit('access.changed', { userId })
}

/**
 * A write decided from the stored row (null: the account has none), the read and the write in one
 * transaction so that no other write falls between them (docs/atomicity-audit.md B1–B3). `decide`
 * answers what to write, or null to write nothing (it may throw: nothing is written). Answers the
 * row as it was read and what was written; 'access.changed' is emitted after the commit.
 */
export async function writeAccessFrom<R>(
  deps: WriteDeps,
  userId: number,
  decide: (row: StoredAccess | null) => { write: AccessWrite; result: R } | null,
): Promise<R | null> {
  const now = deps.now()
  const decided = await asAsync(deps.db).transaction(async (tx) => {
    const d = decide(await storedAccess({ db: tx }, userId))
    if (d !== null) await putAccess(tx, userId, d.write, now)
    return d
  })
  if (decided === null) return null
  deps.bus.emit('access.changed', { userId })
  return decided.result
}

/**
 * What a newly confirmed account gets: the 7-day trial (app_trial, 'trialing') — or, while billing
 * is off, DEFAULT_PLAN without expiry so nobody is asked for a payment that cannot happen.
 * An account that already holds a role (confirmed twice, linked Google) keeps it.
 */
export async function startAccess(deps: Pick<Deps, 'db' | 'now' | 'bus' | 'config'>, userId: number): Promise<AccessState | null> {
  const { billingEnabled, defaultPlan } = deps.config
  const write: AccessWrite =
    !billingEnabled && defaultPlan !== null
      ? { role: defaultPlan, subscriptionStatus: 'active', accessExpiresAt: null, source: 'signup' }
      : { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: trialEndsAt(deps.now()), source: 'signup' }
  await writeAccessFrom(deps, userId, (row) => (row !== null && row.role !== 'none' ? null : { write, result: true }))
  return accessStateFor(deps, userId)
}

/** Gifted access (admin or CLI): the plan's role until `until`, status 'gifted'. */
export async function grantPlan(deps: WriteDeps, userId: number, plan: PlanId, until: Date | null, grantedBy: string): Promise<void> {
  await writeAccess(deps, userId, { role: plan, subscriptionStatus: GIFTED_STATUS, accessExpiresAt: until, grantedBy })
}

/** Sets the stored role; plan roles become active without expiry, app_trial runs 7 days from now. */
export async function setRole(deps: WriteDeps, userId: number, role: Role | 'none', grantedBy: string | null = null): Promise<void> {
  if (role !== 'none' && !isRole(role)) throw new Error(`unknown role ${role}`)
  if (role === 'app_trial') return writeAccess(deps, userId, { role, subscriptionStatus: 'trialing', accessExpiresAt: trialEndsAt(deps.now()), grantedBy })
  if (role === 'trial_expired' || role === 'none') return writeAccess(deps, userId, { role, subscriptionStatus: null, accessExpiresAt: null, grantedBy })
  return writeAccess(deps, userId, { role, subscriptionStatus: 'active', accessExpiresAt: null, grantedBy })
}
