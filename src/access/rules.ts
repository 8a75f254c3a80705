// Access rules (spec §3 AccessInfo, §4 Roles/Trial/Status/Overlay/Plan list, §6, §9).
// Pure: no I/O, no clock of its own (callers pass `now`), no node/bun imports — the server
// computes AccessInfo with these and the browser uses the same functions for display.
//
// Order of the access decision (hasActiveAccess):
//   1. admin            → always active
//   2. role grants no plan (trial_expired, unknown) → inactive
//   3. accessExpiresAt set and <= now → inactive (evaluated per request: a trial or gifted
//      period ends on time without any job)
//   4. a paid role whose subscriptionStatus is blocking → inactive
//   5. otherwise active
// See README.md beside this file for why each status blocks or not.

import type { Category } from './categories'
import { DEFAULT_PRODUCT_LABEL, type PlanId } from './plans'

export type Role = 'admin' | 'product' | 'gd' | 'product+gd' | 'app_trial' | 'trial_expired'
export type Forum = 'product' | 'gd'
export type OverlayContext = 'default' | 'app_trial_expired' | 'inactive_subscription' | 'gifted_expired'
export type ModalContext = OverlayContext | 'trial-ending'

export interface AccessState {
  role: Role
  subscriptionStatus: string | null
  accessExpiresAt: Date | null
  stripeCustomerId?: string | null
}

export interface AccessInfo {
  userRole: Role
  hasAccess: boolean
  accessExpiresAt: string | null
  stripeCustomerId: string | null
  subscriptionStatus: string | null
  daysLeft: number | null
  statusText: string
  forums: Forum[]
  categories: Category[]
  termLimit: number
  featureRank: number
  overlayContext: OverlayContext
}

export const ROLES: readonly Role[] = ['admin', 'product', 'gd', 'product+gd', 'app_trial', 'trial_expired']
export const TERM_LIMIT = 10
export const ADMIN_TERM_LIMIT = 50
/** subscriptionStatus that billing writes for admin-granted (gifted) access. */
export const GIFTED_STATUS = 'gifted'
/** subscriptionStatus for a subscription canceled at period end (access runs to accessExpiresAt). */
export const ACTIVE_UNTIL_PERIOD_END = 'active_until_period_end'
/**
 * Statuses that end a paid role's access even before accessExpiresAt. 'past_due' is NOT here:
 * the card provider is still retrying, and access runs to the end of the paid period
 * (accessExpiresAt); 'unpaid'/'canceled' follow if retries fail.
 */
export const BLOCKING_STATUSES: readonly string[] = ['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused']

const DAY_MS = 24 * 60 * 60 * 1000
const PLAN_ROLES: readonly Role[] = ['product', 'gd', 'product+gd', 'app_trial']

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

/** The role a bought plan grants (plan ids are role ids). */
export function roleForPlan(plan: PlanId): Role {
  return plan
}

function isExpired(state: AccessState, now: Date): boolean {
  // An unreadable date fails closed: NaN > now is false.
  return state.accessExpiresAt !== null && !(state.accessExpiresAt.getTime() > now.getTime())
}

export function hasActiveAccess(state: AccessState, now: Date): boolean {
  if (state.role === 'admin') return true
  if (!PLAN_ROLES.includes(state.role)) return false
  if (isExpired(state, now)) return false
  // The trial is run by the app, not the card provider: only its expiry counts, so a trial
  // user whose checkout stalls ('incomplete') keeps the rest of the trial.
  if (state.role === 'app_trial') return true
  return !(state.subscriptionStatus !== null && BLOCKING_STATUSES.includes(state.subscriptionStatus))
}

/** For badges and AccessInfo.userRole: an app_trial past its expiry shows as trial_expired. */
export function effectiveRole(state: AccessState, now: Date): Role {
  return state.role === 'app_trial' && !hasActiveAccess(state, now) ? 'trial_expired' : state.role
}

export function forumsFor(role: Role): Forum[] {
  switch (role) {
    case 'product':
      return ['product']
    case 'gd':
      return ['gd']
    case 'product+gd':
    case 'admin':
    case 'app_trial':
      return ['product', 'gd']
    case 'trial_expired':
    default:
      return []
  }
}

export function categoriesFor(role: Role): Category[] {
  return forumsFor(role).flatMap((f): Category[] => (f === 'product' ? ['wts', 'wtb'] : ['gd']))
}

export function forumOfCategory(category: Category): Forum {
  return category === 'gd' ? 'gd' : 'product'
}

export function canSeeForum(state: AccessState, forum: Forum, now: Date): boolean {
  return hasActiveAccess(state, now) && forumsFor(state.role).includes(forum)
}

export function canUseCategory(state: AccessState, category: Category, now: Date): boolean {
  return canSeeForum(state, forumOfCategory(category), now)
}

export function featureRank(role: Role): number {
  switch (role) {
    case 'product':
    case 'gd':
    case 'app_trial':
      return 1
    case 'product+gd':
      return 2
    case 'admin':
      return 3
    case 'trial_expired':
    default:
      return 0
  }
}

/** Rank that counts right now: 0 without active access. */
export function activeRank(state: AccessState, now: Date): number {
  return hasActiveAccess(state, now) ? featureRank(state.role) : 0
}

export function isFeatureLocked(role: Role, requiredRole: Role): boolean {
  return featureRank(role) < featureRank(requiredRole)
}

export function lockedTooltip(requiredRoleLabel: string): string {
  return `This feature requires a ${requiredRoleLabel} subscription`
}

/** Popup on a padlocked navigation tab. */
export function lockedTabMessage(feature: string): string {
  return `${feature} access requires subscription`
}

export interface Gate {
  allowed: boolean
  message: string | null
}

/** Email and web push are gated at the {product} rank (1) with active access. */
export function notificationGate(state: AccessState, now: Date): { email: Gate; webPush: Gate } {
  const allowed = activeRank(state, now) >= featureRank('product')
  return {
    email: { allowed, message: allowed ? null : 'Email notifications require a subscription' },
    webPush: { allowed, message: allowed ? null : 'Web push notifications require a subscription' },
  }
}

/** Max saved terms per category for a role (spec §9). */
export function termLimit(role: Role): number {
  if (role === 'admin') return ADMIN_TERM_LIMIT
  return PLAN_ROLES.includes(role) ? TERM_LIMIT : 0
}

/** The limit that applies now: 0 once access has lapsed (stored terms stay, none can be added). */
export function activeTermLimit(state: AccessState, now: Date): number {
  return hasActiveAccess(state, now) ? termLimit(state.role) : 0
}

export function trialDaysLeft(state: AccessState, now: Date): number | null {
  if (state.role !== 'app_trial' || state.accessExpiresAt === null) return null
  const ms = state.accessExpiresAt.getTime() - now.getTime()
  if (Number.isNaN(ms)) return 0
  return Math.max(0, Math.ceil(ms / DAY_MS))
}

/**
 * Which blocking-overlay message a signed-in user without access sees. 'trial_expired' as a
 * stored role reads like an expired app_trial; gifted access that ran out gets its own title.
 */
export function overlayContext(user: AccessState | null, now: Date): OverlayContext {
  if (user === null) return 'default'
  if (user.role === 'trial_expired') return 'app_trial_expired'
  if (user.role === 'app_trial' && user.accessExpiresAt !== null && isExpired(user, now)) return 'app_trial_expired'
  if (user.subscriptionStatus === GIFTED_STATUS && isExpired(user, now)) return 'gifted_expired'
  return 'inactive_subscription'
}

export function roleBadgeLabel(role: Role, productLabel: string = DEFAULT_PRODUCT_LABEL): string {
  switch (role) {
    case 'product':
      return productLabel
    case 'gd':
      return 'GunDeals'
    case 'product+gd':
      return `${productLabel} + GD`
    case 'admin':
      return 'Admin'
    case 'app_trial':
      return 'Active Trial'
    case 'trial_expired':
      return 'Trial Expired'
    default:
      return 'No Plan' // role none: a badge is never empty
  }
}

/** The last 2 days of a trial: the subscription modal says 'Your Trial is Ending Soon'. */
export const TRIAL_ENDING_DAYS = 2

export function statusText(state: AccessState, now: Date): string {
  if (state.role === 'admin') return 'Administrator Access'
  const active = hasActiveAccess(state, now)
  if (state.role === 'app_trial') return active ? 'Trial Active' : 'Trial Expired'
  if (state.role === 'trial_expired') return 'Trial Expired'
  if (!active) return 'Inactive'
  return state.subscriptionStatus === ACTIVE_UNTIL_PERIOD_END ? 'Canceled - Active Until Period End' : 'Active'
}

/** 'Available Plans' grid: not for admins, hidden while a checkout is open. */
export function showPlanList(state: AccessState | null, opts: { checkoutOpen: boolean }, now: Date): boolean {
  if (opts.checkoutOpen) return false
  if (state === null) return true
  if (state.role === 'admin') return false
  return !hasActiveAccess(state, now) || state.role === 'app_trial' || state.role === 'trial_expired'
}

export function showManageSubscription(state: AccessState | null): boolean {
  return typeof state?.stripeCustomerId === 'string' && state.stripeCustomerId !== ''
}

export function subscriptionModalTitle(context: string | null | undefined): string {
  switch (context) {
    case 'trial-ending':
      return 'Your Trial is Ending Soon'
    case 'app_trial_expired':
      return 'Your Free Trial Has Ended'
    case 'inactive_subscription':
      return 'Reactivate Your Subscription'
    case 'gifted_expired':
      return 'Your Gifted Access Has Expired'
    case null:
    case undefined:
    default:
      return 'Subscription'
  }
}

export const NO_ACCESSIBLE_CONTENT = 'No accessible content found for your account.'
export const NO_DASHBOARD_PERMISSION = 'You do not have permission to view this dashboard.'

/** Where /dashboard sends a user: the {product} WTS page first, else deals, else an error. */
export function dashboardRedirect(state: AccessState, now: Date, productSlug: string): string | { error: string } {
  if (canSeeForum(state, 'product', now)) return `/dashboard/${productSlug}/wts`
  if (canSeeForum(state, 'gd', now)) return '/dashboard/gundeals'
  return { error: NO_ACCESSIBLE_CONTENT }
}

export type PageGate = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'denied'; title: string; message: string }

/**
 * A forum page visited directly (spec §2): the {product} section sends gd-only users to the
 * deals page; the deals page sends {product}-only users to WTS. `section` narrows the {product}
 * denial text to the WTS or WTB page. A deals-page redirect that finds no forum at all reports
 * NO_DASHBOARD_PERMISSION where the page shows an error instead of the denial panel.
 */
export function forumPageGate(
  state: AccessState,
  forum: Forum,
  now: Date,
  productSlug: string,
  productLabel: string = DEFAULT_PRODUCT_LABEL,
  section?: 'wts' | 'wtb',
): PageGate {
  if (canSeeForum(state, forum, now)) {
    // The forum is in the plan but this section is not: the section's own text.
    if (section !== undefined && !categoriesFor(state.role).includes(section))
      return { kind: 'denied', title: `${section.toUpperCase()} Access Required`, message: `You do not have access to this ${productLabel} section.` }
    return { kind: 'allow' }
  }
  if (forum === 'gd') {
    if (canSeeForum(state, 'product', now)) return { kind: 'redirect', to: `/dashboard/${productSlug}/wts` }
    return { kind: 'denied', title: 'Gundeals Access Required', message: 'Access to Gundeals content requires an active subscription.' }
  }
  if (canSeeForum(state, 'gd', now)) return { kind: 'redirect', to: '/dashboard/gundeals' }
  // No access to the {product} forum at all (expired trial, no plan): the forum's text, on its WTS and WTB pages too.
  return { kind: 'denied', title: `${productLabel} Access Required`, message: `You do not have access to ${productLabel} content.` }
}

/** Unread badge text: '' for none, the number, or '99+' above 99. */
export function badgeCount(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return ''
  const whole = Math.floor(n)
  if (whole <= 0) return ''
  return whole > 99 ? '99+' : String(whole)
}

/** The AccessInfo that GET /api/me returns and the socket pushes on change. */
export function accessInfo(state: AccessState, now: Date): AccessInfo {
  const hasAccess = hasActiveAccess(state, now)
  return {
    userRole: effectiveRole(state, now),
    hasAccess,
    accessExpiresAt: state.accessExpiresAt === null ? null : isoOrNull(state.accessExpiresAt),
    stripeCustomerId: state.stripeCustomerId ?? null,
    subscriptionStatus: state.subscriptionStatus,
    daysLeft: trialDaysLeft(state, now),
    statusText: statusText(state, now),
    forums: hasAccess ? forumsFor(state.role) : [],
    categories: hasAccess ? categoriesFor(state.role) : [],
    termLimit: activeTermLimit(state, now),
    featureRank: activeRank(state, now),
    overlayContext: overlayContext(state, now),
  }
}

function isoOrNull(d: Date): string | null {
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}
