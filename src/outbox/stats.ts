// Reads of the outbox for the admin pages (Alerts, the dashboard's resources). This folder owns
// `outbox` (src/db/owners.json); the writes (enqueue, retry, prune) are ./queue.ts.
import type { Deps } from '../deps'

const DAY_MS = 86_400_000

/** Rows queued since `sinceMs`, per UTC day (ms since the epoch / DAY_MS, floored), channel and the status they have now. */
export function outboxPerDay(deps: Pick<Deps, 'sqlite'>, sinceMs: number): { day: number; channel: string; status: string; n: number }[] {
  return deps.sqlite
    .query<{ day: number; channel: string; status: string; n: number }, [number, number]>(
      `SELECT CAST(created_at / ?1 AS INTEGER) AS day, channel, status, count(*) AS n FROM outbox
       WHERE created_at >= ?2 GROUP BY day, channel, status`,
    )
    .all(DAY_MS, sinceMs)
}

export type OutboxStat = { channel: string; status: string; n: number; oldest: number | null; due: number }

/** Every row now, per channel and status: how many, the oldest one's queue time (ms) and how many are due at `nowMs`. */
export function outboxStats(deps: Pick<Deps, 'sqlite'>, nowMs: number): OutboxStat[] {
  return deps.sqlite
    .query<OutboxStat, [number]>(
      `SELECT channel, status, count(*) AS n, min(created_at) AS oldest, sum(next_attempt_at <= ?1) AS due FROM outbox GROUP BY channel, status`,
    )
    .all(nowMs)
}

export type FailedMessage = {
  id: number
  channel: string
  kind: string
  userId: number | null
  attempts: number
  lastError: string | null
  createdAt: number
  /** ms; when a failed row's last attempt began (to the backoff): see recentFailures */
  nextAttemptAt: number
}

/** Failed rows, newest first, `limit` from `offset` (no payloads: they hold whole messages), and how many there are. */
export function recentFailures(deps: Pick<Deps, 'sqlite'>, limit: number, offset: number): { total: number; rows: FailedMessage[] } {
  const total = deps.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM outbox WHERE status = 'failed'").get()?.n ?? 0
  const rows = deps.sqlite
    .query<FailedMessage, [number, number]>(
      `SELECT id, channel, kind, user_id AS userId, attempts, last_error AS lastError, created_at AS createdAt, next_attempt_at AS nextAttemptAt
       FROM outbox WHERE status = 'failed' ORDER BY id DESC LIMIT ?1 OFFSET ?2`,
    )
    .all(limit, offset)
  return { total, rows }
}

/** The channel of one row, or undefined when there is no such row. */
export function channelOf(deps: Pick<Deps, 'sqlite'>, id: number): string | undefined {
  return deps.sqlite.query<{ channel: string }, [number]>('SELECT channel FROM outbox WHERE id = ?').get(id)?.channel
}
