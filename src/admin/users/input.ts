// What the Users page may send, checked before anything is written: each reader returns the
// value or throws a 400 with a message the page shows as it is. Pure apart from the error class.
import { isRole, ROLES, type Role } from '../../access/rules'
import { parsePlanId, type PlanId } from '../../access/plans'
import { badRequest } from '../../lib/errors'

const DAY_MS = 24 * 60 * 60 * 1000
export const MAX_TRIAL_EXTENSION_DAYS = 90
export const MAX_GIFT_DAYS = 3 * 366
export const PAGE_SIZES = [10, 25, 50, 100] as const
export const USER_STATUSES = ['active', 'inactive', 'banned', 'unconfirmed'] as const
export type UserStatus = (typeof USER_STATUSES)[number]

export const ROLE_CHOICES = [...ROLES, 'none'] as const

export function readRole(value: unknown): Role | 'none' {
  if (value === 'none' || isRole(value)) return value
  throw badRequest(`Please choose a role: ${ROLE_CHOICES.join(', ')}.`, 'INVALID_ROLE')
}

export function readPlan(value: unknown, productLabel: string): PlanId {
  const plan = typeof value === 'string' ? parsePlanId(value, productLabel) : null
  if (plan === null) throw badRequest(`Please choose a plan: ${productLabel}, GunDeals (GD) or ${productLabel} + GD.`, 'INVALID_PLAN')
  return plan
}

/** An end date: '2026-12-31' (the end of that day, UTC) or an ISO time; in the future, at most about 3 years ahead. */
export function readUntil(value: unknown, now: Date): Date {
  if (typeof value !== 'string' || !value.trim()) throw badRequest('Please choose an end date.', 'INVALID_DATE')
  const text = value.trim()
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T23:59:59.999Z` : text)
  if (Number.isNaN(d.getTime())) throw badRequest(`"${text}" is not a date. Use a date like 2026-12-31.`, 'INVALID_DATE')
  if (d.getTime() <= now.getTime()) throw badRequest('The end date must be in the future.', 'INVALID_DATE')
  if (d.getTime() > now.getTime() + MAX_GIFT_DAYS * DAY_MS) throw badRequest('The end date must be within 3 years.', 'INVALID_DATE')
  return d
}

export function readDays(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_TRIAL_EXTENSION_DAYS)
    throw badRequest(`Please enter a whole number of days from 1 to ${MAX_TRIAL_EXTENSION_DAYS}.`, 'INVALID_DAYS')
  return n
}

export type ListQuery = { search: string; role: Role | 'none' | null; status: UserStatus | null; trialEnding: boolean; page: number; pageSize: number }

/** The list's query string; unknown filter values are refused, a missing page is 1, page size 25. */
export function readListQuery(q: Record<string, string | undefined>): ListQuery {
  const search = (q.q ?? '').trim().toLowerCase().slice(0, 200)
  const role = q.role ? readRole(q.role) : null
  if (q.status && !(USER_STATUSES as readonly string[]).includes(q.status))
    throw badRequest(`Status must be one of ${USER_STATUSES.join(', ')}.`, 'INVALID_STATUS')
  const page = q.page ? Number(q.page) : 1
  if (!Number.isInteger(page) || page < 1) throw badRequest('Page must be a whole number from 1.', 'INVALID_PAGE')
  const pageSize = q.pageSize ? Number(q.pageSize) : 25
  if (!(PAGE_SIZES as readonly number[]).includes(pageSize)) throw badRequest(`Page size must be one of ${PAGE_SIZES.join(', ')}.`, 'INVALID_PAGE')
  return { search, role, status: (q.status as UserStatus) || null, trialEnding: q.trialEnding === '1' || q.trialEnding === 'true', page, pageSize }
}
