// Admin → Alerts, the view model: the outbox by channel (src/outbox/stats.ts), failed deliveries,
// push subscriptions removed as gone (the audit log's 'push.gone' rows). Email bounces are not known:
// Dibs hands mail to an SMTP server and receives nothing back after it is accepted, so the page says
// so instead of showing a number.
import type { Deps } from '../../deps'
import { auditRowsOf } from '../../audit/log'
import { emailsOf } from '../../auth/users'
import { outboxPerDay, outboxStats, recentFailures } from '../../outbox/stats'
import { channelLabels } from '../../outbox/channels/registry'
import { dayLabels, dayWindow, fillSeries, utcDay, type RangeDays } from '../shared/series'

/** The queued channels (in-app alerts go over the socket and are never queued). */
export const OUTBOX_CHANNELS = ['email', 'push'] as const
export const STATUSES = ['pending', 'sending', 'sent', 'failed'] as const
/** Rows parked outside the worker's queue: held for quiet hours, waiting for a re-check of the post
 *  ('Wait before email and push'), skipped because the post was removed or sold before delivery. */
export const PARKED = ['held', 'waiting', 'skipped'] as const
export const FAILED_PAGE_SIZE = 20
export const BOUNCES_TEXT = 'Not known: Dibs hands email to your SMTP server and does not receive bounces, so it cannot count them.'

/** What src/outbox/channels/webpush.ts records with a 'push.gone' row. */
type PushGoneDetails = { userId?: number; status?: number; service?: string; userAgent?: string | null }

type AlertDeps = Pick<Deps, 'sqlite' | 'db' | 'now'>

export async function outboxOverview(deps: AlertDeps, days: RangeDays) {
  const window = dayWindow(deps.now(), days)
  const now = deps.now().getTime()
  const rows = await outboxPerDay(deps, window.startMs)
  const current = await outboxStats(deps, now)
  // email and push always; the registry's channels (webhook, Telegram, …) once they have rows (in the window or queued now)
  const channels = [...new Set([...OUTBOX_CHANNELS, ...rows.map((r) => r.channel), ...current.map((r) => r.channel)])]
  // Per channel: rows queued on each day, split by the status they have now.
  const perDay = Object.fromEntries(
    channels.map((c) => [
      c,
      fillSeries(
        rows.filter((r) => r.channel === c).map((r) => ({ day: r.day, key: r.status, n: r.n })),
        window,
        STATUSES,
      ),
    ]),
  )
  const count = (c: string, s: string) => current.find((r) => r.channel === c && r.status === s)?.n ?? 0
  const parked = Object.fromEntries(channels.map((c) => [c, Object.fromEntries(PARKED.map((s) => [s, count(c, s)]))]))
  const queue = Object.fromEntries(
    channels.map((c) => {
      const of = (s: string) => current.find((r) => r.channel === c && r.status === s)
      const oldest = of('pending')?.oldest ?? null
      return [
        c,
        {
          ...(Object.fromEntries(STATUSES.map((s) => [s, of(s)?.n ?? 0])) as Record<(typeof STATUSES)[number], number>),
          /** pending rows whose (backoff) time has come */
          due: of('pending')?.due ?? 0,
          oldestPendingAt: oldest === null ? null : new Date(oldest).toISOString(),
          oldestPendingAgeSeconds: oldest === null ? null : Math.max(0, Math.round((now - oldest) / 1000)),
        },
      ]
    }),
  )
  const gone = await auditRowsOf(deps, 'push.gone', new Date(window.startMs))
  const gonePerDay = gone.map((g) => ({ day: utcDay(g.at.getTime()), key: 'gone', n: 1 }))
  return {
    days,
    labels: dayLabels(deps.now(), days),
    channels,
    /** each channel's name, from the channel registry (src/outbox/channels/registry.ts) */
    channelNames: channelLabels(),
    perDay,
    queue,
    parked,
    pushGone: {
      count: gone.length,
      perDay: fillSeries(gonePerDay, window, ['gone']).gone!,
      recent: gone.slice(0, 20).map((g) => ({ at: g.at.toISOString(), target: g.target, ...(g.details as PushGoneDetails | null) })),
    },
    bounces: { known: false as const, text: BOUNCES_TEXT },
  }
}

export type FailedRow = {
  id: number
  channel: string
  kind: string
  userId: number | null
  email: string | null
  attempts: number
  lastError: string | null
  createdAt: string
  lastAttemptAt: string
}

/** Failed rows, newest first, one page at a time (no payloads: they hold whole messages). */
export async function failedMessages(deps: Pick<Deps, 'db' | 'sqlite'>, page: number) {
  const { total, rows } = await recentFailures(deps, FAILED_PAGE_SIZE, (page - 1) * FAILED_PAGE_SIZE)
  const emails = await emailsOf(
    deps,
    rows.flatMap((r) => (r.userId === null ? [] : [r.userId])),
  )
  const list: FailedRow[] = rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    kind: r.kind,
    userId: r.userId,
    email: r.userId === null ? null : (emails.get(r.userId) ?? null),
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: new Date(r.createdAt).toISOString(),
    // A failing attempt sets next_attempt_at to its own time plus a backoff; the claim before it
    // wrote the attempt's start there, so this is when the last attempt began (to the backoff).
    lastAttemptAt: new Date(r.nextAttemptAt).toISOString(),
  }))
  return { rows: list, page, pageSize: FAILED_PAGE_SIZE, total, pages: Math.max(1, Math.ceil(total / FAILED_PAGE_SIZE)) }
}
