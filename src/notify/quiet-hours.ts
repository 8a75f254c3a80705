// Quiet hours (issue 16 item 7): a daily local window 'HH:MM'–'HH:MM' in the user's IANA time
// zone. Email and push that fall inside are held (outbox status `held`, due at the window's end)
// and go out as one summary then (src/notify/quiet-summary.ts). A start after the end crosses
// midnight (22:00–07:00); start = end means no quiet hours. Local times are read with Intl, so
// DST is the time zone database's business: on the night the clocks change the window is simply
// shorter or longer in real time, and an end inside a skipped hour moves on by the gap (02:30 → 03:30).

export type QuietHours = { start: string; end: string; timeZone: string }

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/

export function isHhmm(s: string): boolean {
  return HHMM.test(s)
}

/** An IANA name Intl knows ('Europe/Berlin', 'UTC'); canonical spelling not required. */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(tz: string) {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(tz, f)
  }
  return f
}

/** The wall clock of `at` in `tz`. */
function wallClock(at: Date, tz: string) {
  const parts: Record<string, number> = {}
  for (const p of formatter(tz).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  return { y: parts.year!, mo: parts.month!, d: parts.day!, h: parts.hour! % 24, mi: parts.minute!, s: parts.second! }
}

/** Offset of `tz` from UTC at `at`, in ms (local = utc + offset). */
function offsetMs(at: Date, tz: string): number {
  const w = wallClock(at, tz)
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(at.getTime() / 1000) * 1000
}

/**
 * The instant of the local wall time y-mo-d hh:mm in `tz`. Two offset corrections settle every
 * real zone; a wall time the clocks skip (spring forward) comes out after the gap.
 */
export function zonedInstant(y: number, mo: number, d: number, minutes: number, tz: string): Date {
  const wall = Date.UTC(y, mo - 1, d, Math.floor(minutes / 60), minutes % 60)
  let t = wall - offsetMs(new Date(wall), tz)
  t = wall - offsetMs(new Date(t), tz)
  // In a gap the wall time does not exist: read it with the offset from before the gap, which
  // moves it forward by the gap's length (02:30 → 03:30), as Temporal's 'compatible' does.
  const back = wallClock(new Date(t), tz)
  if (Date.UTC(back.y, back.mo - 1, back.d, back.h, back.mi) < wall) t = wall - offsetMs(new Date(t - 3 * 3600_000), tz)
  return new Date(t)
}

/** When the quiet window `now` lies in ends, or null when `now` is outside it (or no quiet hours). */
export function quietUntil(q: QuietHours | null, now: Date): Date | null {
  if (!q || !isHhmm(q.start) || !isHhmm(q.end) || !isTimeZone(q.timeZone)) return null
  const start = minutesOf(q.start)
  const end = minutesOf(q.end)
  if (start === end) return null
  const w = wallClock(now, q.timeZone)
  const m = w.h * 60 + w.mi
  const inside = start < end ? m >= start && m < end : m >= start || m < end
  if (!inside) return null
  // The end is today's unless the window crosses midnight and we are before midnight.
  const day = start > end && m >= start ? new Date(Date.UTC(w.y, w.mo - 1, w.d + 1)) : new Date(Date.UTC(w.y, w.mo - 1, w.d))
  return zonedInstant(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), end, q.timeZone)
}

/** 'Quiet from 22:00 to 07:00 (Europe/Berlin): email and push wait and arrive as one summary at 07:00.' */
export function quietSummary(q: QuietHours | null): string {
  if (!q || q.start === q.end) return 'No quiet hours: alerts arrive at any time.'
  const next = minutesOf(q.start) > minutesOf(q.end) ? ' the next morning' : ''
  return `Quiet from ${q.start} to ${q.end}${next} (${q.timeZone}): email and push wait and arrive as one summary at ${q.end}.`
}
