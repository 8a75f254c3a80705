// Labels the Users page shows for roles and dates (badges as the app shows them, spec §6).
import { roleBadgeLabel, type Role } from '../../../../src/access/rules'
import { formatDate } from '../../../lib/dates'

export function roleLabel(role: string, product: string): string {
  return role === 'none' ? 'No Plan' : roleBadgeLabel(role as Role, product)
}

export function when(value: string | null, none = '—'): string {
  return value === null ? none : formatDate(value)
}

/** 'yyyy-mm-dd' a number of days after today, for date inputs. */
export function dayInput(daysAhead: number, from = new Date()): string {
  return new Date(from.getTime() + daysAhead * 86_400_000).toISOString().slice(0, 10)
}
