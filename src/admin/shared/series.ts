// Daily series for the admin charts (Trends, Alerts), pure: UTC days, a window of N whole days ending
// today, gaps filled with 0 so every series has one point per day, and per-day percentiles (the one
// nearest-rank `percentile` of src/lib/percentile.ts).
// A day is an integer: milliseconds since the epoch divided by DAY_MS, floored (UTC midnight to midnight).

import { percentile } from '../../lib/percentile'

export const DAY_MS = 86_400_000

/** The ranges the Trends and Alerts pages offer. */
export const RANGE_DAYS = [7, 30, 90] as const
export type RangeDays = (typeof RANGE_DAYS)[number]

export const utcDay = (ms: number) => Math.floor(ms / DAY_MS)
export const dayLabel = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** The window of `days` whole UTC days ending with today: [first day, last day] and its start in ms. */
export function dayWindow(now: Date, days: number): { first: number; last: number; startMs: number } {
  const last = utcDay(now.getTime())
  const first = last - days + 1
  return { first, last, startMs: first * DAY_MS }
}

/** Every day of a window as 'YYYY-MM-DD', oldest first. */
export function dayLabels(now: Date, days: number): string[] {
  const { first } = dayWindow(now, days)
  return Array.from({ length: days }, (_, i) => dayLabel(first + i))
}

/**
 * Rows of (day, key, n) → one series per key, each with a value for every day of the window (0
 * where no row says otherwise). Keys listed in `keys` are present even without rows, in that order;
 * other keys follow in the order they first appear. Rows outside the window are ignored.
 */
export function fillSeries(rows: { day: number; key: string; n: number }[], window: { first: number; last: number }, keys: readonly string[] = []) {
  const length = window.last - window.first + 1
  const series = new Map<string, number[]>(keys.map((k) => [k, new Array<number>(length).fill(0)]))
  for (const r of rows) {
    const i = r.day - window.first
    if (i < 0 || i >= length) continue
    let values = series.get(r.key)
    if (!values) series.set(r.key, (values = new Array<number>(length).fill(0)))
    values[i]! += r.n
  }
  return Object.fromEntries(series)
}

/**
 * Per day of the window: p50 and p95 of the values of that day (null on days without values) and
 * how many values there were. `rows` need not be sorted.
 */
export function dailyPercentiles(rows: { day: number; value: number }[], window: { first: number; last: number }) {
  const length = window.last - window.first + 1
  const byDay: number[][] = Array.from({ length }, () => [])
  for (const r of rows) {
    const i = r.day - window.first
    if (i >= 0 && i < length) byDay[i]!.push(r.value)
  }
  const p50: (number | null)[] = []
  const p95: (number | null)[] = []
  const count: number[] = []
  for (const values of byDay) {
    p50.push(percentile(values, 50))
    p95.push(percentile(values, 95))
    count.push(values.length)
  }
  return { p50, p95, count }
}
