// Admin → Trends, the view model: daily series over 7/30/90 UTC days, every day present (0 when
// nothing happened): posts per forum, matches per category, new accounts, post→alert latency
// p50/p95, and the most saved terms. The counts come from their owners (forums, matches, auth, terms).
import type { Deps } from '../../deps'
import { accountsPerDay } from '../../auth/users'
import { oldestPostAt, postsPerDay } from '../../forums/stats'
import { liveMatchDelays, matchesPerDay } from '../../matches/stats'
import { mostSavedTerms, type SavedTerm } from '../../terms/stats'
import { dailyPercentiles, dayLabels, dayWindow, fillSeries, utcDay, type RangeDays } from '../shared/series'

export const TOP_TERMS = 20
const FORUMS = ['product', 'gd'] as const
const CATEGORIES = ['wts', 'wtb', 'gd'] as const

export type Trends = {
  days: RangeDays
  /** 'YYYY-MM-DD' per day, oldest first; every series below has one value per label */
  labels: string[]
  postsPerForum: Record<string, number[]>
  matchesPerCategory: Record<string, number[]>
  newAccounts: number[]
  /** seconds from a post's Reddit time to its live match (the moment its alert was queued) */
  latency: { p50: (number | null)[]; p95: (number | null)[]; count: number[] }
  topTerms: SavedTerm[]
  /** posts older than the archive cutoff are deleted by Archive; their days show fewer posts */
  oldestPostAt: string | null
}

export async function trends(deps: Pick<Deps, 'db' | 'now'>, days: RangeDays): Promise<Trends> {
  const window = dayWindow(deps.now(), days)
  const { startMs } = window
  const latencies = (await liveMatchDelays(deps, startMs)).map((d) => ({ day: utcDay(d.at), value: d.ms / 1000 }))
  const oldest = await oldestPostAt(deps)
  return {
    days,
    labels: dayLabels(deps.now(), days),
    postsPerForum: fillSeries(await postsPerDay(deps, startMs), window, FORUMS),
    matchesPerCategory: fillSeries(await matchesPerDay(deps, startMs), window, CATEGORIES),
    newAccounts: fillSeries(await accountsPerDay(deps, startMs), window, ['all']).all!,
    latency: dailyPercentiles(latencies, window),
    topTerms: await mostSavedTerms(deps, TOP_TERMS, startMs),
    oldestPostAt: oldest === null ? null : new Date(oldest).toISOString(),
  }
}
