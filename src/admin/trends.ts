// /api/admin — Trends: daily series over 7/30/90 UTC days, every day present (0 when nothing happened):
// posts per forum, matches per category, new accounts, post→alert latency p50/p95, and the most saved terms.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import type { AdminDeps } from './deps'
import { DAY_MS, dailyPercentiles, dayLabels, dayWindow, fillSeries, type RangeDays } from './series'

export const TOP_TERMS = 20
const FORUMS = ['product', 'gd'] as const
const CATEGORIES = ['wts', 'wtb', 'gd'] as const

type DayRow = { day: number; key: string; n: number }

export type Trends = {
  days: RangeDays
  /** 'YYYY-MM-DD' per day, oldest first; every series below has one value per label */
  labels: string[]
  postsPerForum: Record<string, number[]>
  matchesPerCategory: Record<string, number[]>
  newAccounts: number[]
  /** seconds from a post's Reddit time to its live match (the moment its alert was queued) */
  latency: { p50: (number | null)[]; p95: (number | null)[]; count: number[] }
  topTerms: { term: string; saves: number; users: number; categories: string[]; matches: number }[]
  /** posts older than the archive cutoff are deleted by Archive; their days show fewer posts */
  oldestPostAt: string | null
}

export function trends(deps: Pick<Deps, 'sqlite' | 'now'>, days: RangeDays): Trends {
  const window = dayWindow(deps.now(), days)
  const { startMs } = window
  const q = deps.sqlite
  const perDay = (sql: string) => q.query<DayRow, [number, number]>(sql).all(DAY_MS, startMs)
  const posts = perDay('SELECT CAST(created_at / ?1 AS INTEGER) AS day, forum AS key, count(*) AS n FROM posts WHERE created_at >= ?2 GROUP BY day, key')
  const matches = perDay('SELECT CAST(created_at / ?1 AS INTEGER) AS day, category AS key, count(*) AS n FROM matches WHERE created_at >= ?2 GROUP BY day, key')
  const accounts = perDay("SELECT CAST(created_at / ?1 AS INTEGER) AS day, 'all' AS key, count(*) AS n FROM users WHERE created_at >= ?2 GROUP BY day")
  // Live matches only: backfill and batch matches were made long after their post on purpose.
  const latencies = q
    .query<{ day: number; value: number }, [number, number]>(
      `SELECT CAST(created_at / ?1 AS INTEGER) AS day, (created_at - post_created_at) / 1000.0 AS value FROM matches
       WHERE created_at >= ?2 AND source = 'live' AND post_created_at IS NOT NULL`,
    )
    .all(DAY_MS, startMs)
  const topTerms = q
    .query<{ term: string; saves: number; users: number; categories: string; matches: number }, [number, number]>(
      `WITH top AS (
         SELECT term, count(*) AS saves, count(DISTINCT user_id) AS users, group_concat(DISTINCT category) AS categories
         FROM search_terms GROUP BY term ORDER BY saves DESC, term ASC LIMIT ?2)
       SELECT top.term, top.saves, top.users, top.categories,
         (SELECT count(*) FROM search_terms s JOIN match_terms mt ON mt.term_id = s.id JOIN matches m ON m.id = mt.match_id
          WHERE s.term = top.term AND m.created_at >= ?1) AS matches
       FROM top ORDER BY top.saves DESC, matches DESC, top.term ASC`,
    )
    .all(startMs, TOP_TERMS)
  const oldest = q.query<{ at: number | null }, []>('SELECT min(created_at) AS at FROM posts').get()?.at ?? null
  return {
    days,
    labels: dayLabels(deps.now(), days),
    postsPerForum: fillSeries(posts, window, FORUMS),
    matchesPerCategory: fillSeries(matches, window, CATEGORIES),
    newAccounts: fillSeries(accounts, window, ['all']).all!,
    latency: dailyPercentiles(latencies, window),
    topTerms: topTerms.map((r) => ({ ...r, categories: r.categories.split(',').sort() })),
    oldestPostAt: oldest === null ? null : new Date(oldest).toISOString(),
  }
}

/** `?days=` of the range routes (Trends, Alerts): 7, 30 or 90, default 7. */
export const rangeQuery = t.Object({
  days: t.Optional(t.UnionEnum(['7', '30', '90'])),
})
export const rangeDays = (query: { days?: string }) => Number(query.days ?? 7) as RangeDays

export const trendsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-trends' }).use(authPlugin(deps)).get('/api/admin/trends', ({ query }) => trends(deps, rangeDays(query)), {
    admin: true,
    query: rangeQuery,
    detail: {
      summary:
        'Daily series over the last 7, 30 or 90 UTC days (every day present, 0 when empty): posts per forum, matches per category, new accounts, post→alert latency p50/p95 (live matches), the 20 most saved terms with their match counts',
      tags: ['admin'],
    },
  })
