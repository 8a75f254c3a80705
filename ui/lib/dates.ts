// Dates on cards (spec §9): absolute 'MMM d, h:mm a' plus a relative '… ago'; an unreadable
// date shows 'Invalid date'. The post's own time is preferred over the match time.
export const INVALID_DATE = 'Invalid date'
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

export function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null
  const d = value instanceof Date ? value : new Date(value)
  return Number.isNaN(d.getTime()) ? null : d
}

/** 'Nov 21, 7:05 PM' in local time. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value)
  if (d === null) return INVALID_DATE
  const h = d.getHours() % 12 || 12
  const m = String(d.getMinutes()).padStart(2, '0')
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${h}:${m} ${d.getHours() < 12 ? 'AM' : 'PM'}`
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`

/** Distance in words, after date-fns formatDistance: 'less than a minute', '5 minutes', 'about 2 hours', '3 days'… */
export function distance(from: Date, to: Date): string {
  const minutes = Math.round(Math.abs(to.getTime() - from.getTime()) / 60000)
  if (minutes < 1) return 'less than a minute'
  if (minutes < 45) return plural(minutes, 'minute')
  if (minutes < 90) return 'about 1 hour'
  if (minutes < 1440) return `about ${plural(Math.round(minutes / 60), 'hour')}`
  if (minutes < 2520) return '1 day'
  if (minutes < 43200) return plural(Math.round(minutes / 1440), 'day')
  if (minutes < 86400) return `about ${plural(Math.round(minutes / 43200), 'month')}`
  if (minutes < 525600) return plural(Math.round(minutes / 43200), 'month')
  return `about ${plural(Math.round(minutes / 525600), 'year')}`
}

/** '5 minutes ago' (or 'in 5 minutes' for a future time); 'Invalid date' when unreadable. */
export function timeAgo(value: string | number | Date | null | undefined, now: Date = new Date()): string {
  const d = toDate(value)
  if (d === null) return INVALID_DATE
  const words = distance(d, now)
  return d.getTime() > now.getTime() + 30000 ? `in ${words}` : `${words} ago`
}

/** The time a card shows: the post's creation time when known, else the match time. */
export function cardTime(postCreatedAt: unknown, matchedAt: unknown): string | number | null {
  const pick = toDate(postCreatedAt as string) ?? toDate(matchedAt as string)
  return pick ? pick.getTime() : ((postCreatedAt ?? matchedAt ?? null) as string | null)
}

/** 'Nov 20' in local time (listing history on a card); 'Invalid date' when unreadable. */
export function shortDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value)
  return d === null ? INVALID_DATE : `${MONTHS[d.getMonth()]} ${d.getDate()}`
}
