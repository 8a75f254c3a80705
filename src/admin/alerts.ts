// /api/admin — Alerts: the outbox by channel, failed deliveries and retry, push subscriptions removed
// as gone. Email bounces are not known: Dibs hands mail to an SMTP server and receives nothing back
// after it is accepted, so the page says so instead of showing a number.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import { notFound } from '../lib/errors'
import { retryAllFailed, retryFailed } from '../outbox/queue'
import { audited } from '../audit/log'
import type { AdminDeps } from './deps'
import { DAY_MS, dayLabels, dayWindow, fillSeries, type RangeDays } from './series'
import { rangeDays, rangeQuery } from './trends'

/** The queued channels (in-app alerts go over the socket and are never queued). */
export const OUTBOX_CHANNELS = ['email', 'push'] as const
export const STATUSES = ['pending', 'sending', 'sent', 'failed'] as const
/** Rows parked outside the worker's queue: held for quiet hours, waiting for a re-check of the post
 *  ('Wait before email and push'), skipped because the post was removed or sold before delivery. */
export const PARKED = ['held', 'waiting', 'skipped'] as const
export const FAILED_PAGE_SIZE = 20
export const BOUNCES_TEXT = 'Not known: Dibs hands email to your SMTP server and does not receive bounces, so it cannot count them.'

type AlertDeps = Pick<Deps, 'sqlite' | 'now'>

export function outboxOverview(deps: AlertDeps, days: RangeDays) {
  const window = dayWindow(deps.now(), days)
  const now = deps.now().getTime()
  const rows = deps.sqlite
    .query<{ day: number; channel: string; status: string; n: number }, [number, number]>(
      `SELECT CAST(created_at / ?1 AS INTEGER) AS day, channel, status, count(*) AS n FROM outbox
       WHERE created_at >= ?2 GROUP BY day, channel, status`,
    )
    .all(DAY_MS, window.startMs)
  const current = deps.sqlite
    .query<{ channel: string; status: string; n: number; oldest: number | null; due: number }, [number]>(
      `SELECT channel, status, count(*) AS n, min(created_at) AS oldest, sum(next_attempt_at <= ?1) AS due FROM outbox GROUP BY channel, status`,
    )
    .all(now)
  // email and push always; webhook, ntfy and Discord once they have rows (in the window or queued now)
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
          ...Object.fromEntries(STATUSES.map((s) => [s, of(s)?.n ?? 0])),
          /** pending rows whose (backoff) time has come */
          due: of('pending')?.due ?? 0,
          oldestPendingAt: oldest === null ? null : new Date(oldest).toISOString(),
          oldestPendingAgeSeconds: oldest === null ? null : Math.max(0, Math.round((now - oldest) / 1000)),
        },
      ]
    }),
  )
  const gone = deps.sqlite
    .query<{ at: number; target: string | null; details: string | null }, [number]>(
      `SELECT created_at AS at, target, details FROM audit_log WHERE action = 'push.gone' AND created_at >= ?1 ORDER BY created_at DESC, id DESC`,
    )
    .all(window.startMs)
  const gonePerDay = deps.sqlite
    .query<{ day: number; key: string; n: number }, [number, number]>(
      `SELECT CAST(created_at / ?1 AS INTEGER) AS day, 'gone' AS key, count(*) AS n FROM audit_log WHERE action = 'push.gone' AND created_at >= ?2 GROUP BY day`,
    )
    .all(DAY_MS, window.startMs)
  return {
    days,
    labels: dayLabels(deps.now(), days),
    channels,
    perDay,
    queue,
    parked,
    pushGone: {
      count: gone.length,
      perDay: fillSeries(gonePerDay, window, ['gone']).gone!,
      recent: gone.slice(0, 20).map((g) => ({ at: new Date(g.at).toISOString(), target: g.target, ...(g.details ? JSON.parse(g.details) : {}) })),
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
export function failedMessages(deps: Pick<Deps, 'sqlite'>, page: number) {
  const total = deps.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM outbox WHERE status = 'failed'").get()?.n ?? 0
  const rows = deps.sqlite
    .query<
      {
        id: number
        channel: string
        kind: string
        user_id: number | null
        email: string | null
        attempts: number
        last_error: string | null
        created_at: number
        next_attempt_at: number
      },
      [number, number]
    >(
      `SELECT o.id, o.channel, o.kind, o.user_id, u.email, o.attempts, o.last_error, o.created_at, o.next_attempt_at
       FROM outbox o LEFT JOIN users u ON u.id = o.user_id WHERE o.status = 'failed'
       ORDER BY o.id DESC LIMIT ?1 OFFSET ?2`,
    )
    .all(FAILED_PAGE_SIZE, (page - 1) * FAILED_PAGE_SIZE)
  const list: FailedRow[] = rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    kind: r.kind,
    userId: r.user_id,
    email: r.email,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: new Date(r.created_at).toISOString(),
    // A failing attempt sets next_attempt_at to its own time plus a backoff; the claim before it
    // wrote the attempt's start there, so this is when the last attempt began (to the backoff).
    lastAttemptAt: new Date(r.next_attempt_at).toISOString(),
  }))
  return { rows: list, page, pageSize: FAILED_PAGE_SIZE, total, pages: Math.max(1, Math.ceil(total / FAILED_PAGE_SIZE)) }
}

const tags = ['admin']

export const alertsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-alerts' })
    .use(authPlugin(deps))
    .get('/api/admin/alerts', ({ query }) => outboxOverview(deps, rangeDays(query)), {
      admin: true,
      query: rangeQuery,
      detail: {
        summary:
          'The outbox over 7/30/90 days: per channel and day, rows queued by their status now; per channel pending/sending/sent/failed, due and the oldest pending age; push subscriptions removed as gone; email bounces (not known)',
        tags,
      },
    })
    .get('/api/admin/alerts/failed', ({ query }) => failedMessages(deps, query.page ?? 1), {
      admin: true,
      query: t.Object({ page: t.Optional(t.Integer({ minimum: 1, maximum: 100_000 })) }),
      detail: { summary: `Failed outbox messages with their last error, newest first, ${FAILED_PAGE_SIZE} per page`, tags },
    })
    .post(
      '/api/admin/alerts/:id/retry',
      async ({ params, user }) => {
        const channel = deps.sqlite.query<{ channel: string }, [number]>('SELECT channel FROM outbox WHERE id = ?').get(params.id)?.channel
        await audited(deps, { actor: { id: user.id, email: user.email }, action: 'outbox.retry', target: `outbox:${params.id}` }, () => {
          if (!channel || !retryFailed(deps, params.id)) throw notFound('No failed message with that id.')
        })
        deps.bus.emit('outbox.queued', { channel: channel! })
        return { ok: true, id: params.id }
      },
      {
        admin: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: { summary: 'Put one failed message back in the queue (attempts reset) and wake the outbox; 404 unless it is failed', tags },
      },
    )
    .post(
      '/api/admin/alerts/retry-failed',
      async ({ user }) => {
        const r = await audited(
          deps,
          { actor: { id: user.id, email: user.email }, action: 'outbox.retry_all' },
          () => retryAllFailed(deps),
          (r) => ({ count: r.count }),
        )
        for (const channel of r.channels) deps.bus.emit('outbox.queued', { channel })
        return { count: r.count }
      },
      { admin: true, detail: { summary: 'Put every failed message back in the queue and wake the outbox → {count}', tags } },
    )
