// Admin → Dashboard, its formulas (spec §4 system health, §7 admin health and KPIs), pure: every
// function takes the clock and the counts it needs, so tests pin them with fixed clocks. (Not the
// process's /healthz and /readyz: those are src/health.ts.)
//
// Health from the minutes since the last successful scan: healthy up to 10, warning above 10,
// critical above 30, warning when there was none; displayed performance 95 / 75 / 45 %.
// Email queue colour: 0 pending green, 1–10 yellow, above 10 red.
// KPIs: conversion = paid / (trial + paid); growth % = (today − yesterday) / yesterday; both are
// null when their denominator is 0 (shown as '—', never a division by zero).
// Days are UTC days: 'today' starts at 00:00 UTC.
import { DAY_MS } from '../shared/series'

export const HEALTHY_MINUTES = 10
export const CRITICAL_MINUTES = 30

export type HealthStatus = 'healthy' | 'warning' | 'critical'
export type QueueColour = 'green' | 'yellow' | 'red'

export const PERFORMANCE: Record<HealthStatus, number> = { healthy: 95, warning: 75, critical: 45 }

export function minutesSince(at: Date | null, now: Date): number | null {
  if (at === null) return null
  return Math.max(0, (now.getTime() - at.getTime()) / 60_000)
}

export function scanHealth(lastSuccessAt: Date | null, now: Date): { status: HealthStatus; minutesSinceLastScan: number | null; performance: number } {
  const minutes = minutesSince(lastSuccessAt, now)
  const status: HealthStatus = minutes === null ? 'warning' : minutes > CRITICAL_MINUTES ? 'critical' : minutes > HEALTHY_MINUTES ? 'warning' : 'healthy'
  return { status, minutesSinceLastScan: minutes === null ? null : Math.round(minutes * 10) / 10, performance: PERFORMANCE[status] }
}

export function emailQueueColour(pending: number): QueueColour {
  if (pending <= 0) return 'green'
  return pending <= 10 ? 'yellow' : 'red'
}

/** Start of today and of yesterday (UTC), and 24 hours ago. */
export function dayBounds(now: Date): { todayStart: number; yesterdayStart: number; dayAgo: number } {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return { todayStart, yesterdayStart: todayStart - DAY_MS, dayAgo: now.getTime() - DAY_MS }
}

/** paid / (trial + paid) as a percentage with one decimal, null when nobody is on either. */
export function conversionRate(trial: number, paid: number): number | null {
  const total = trial + paid
  return total === 0 ? null : Math.round((paid / total) * 1000) / 10
}

/** (today − yesterday) / yesterday as a percentage with one decimal, null when yesterday is 0. */
export function growthPercent(today: number, yesterday: number): number | null {
  return yesterday === 0 ? null : Math.round(((today - yesterday) / yesterday) * 1000) / 10
}

export type KpiCounts = {
  matchesToday: number
  matchesYesterday: number
  usersMatched24h: number
  postsToday: number
  totalUsers: number
  activeOrTrialing: number
  trialUsers: number
  paidUsers: number
}

export type Kpis = KpiCounts & { conversionRate: number | null; matchesGrowthPercent: number | null }

export function kpis(counts: KpiCounts): Kpis {
  return {
    ...counts,
    conversionRate: conversionRate(counts.trialUsers, counts.paidUsers),
    matchesGrowthPercent: growthPercent(counts.matchesToday, counts.matchesYesterday),
  }
}

/** Which roles count as trial and as paid tiers in the KPIs (spec: app_trial versus {product}/gd/{product}+gd). */
export const TRIAL_ROLES = ['app_trial'] as const
export const PAID_ROLES = ['product', 'gd', 'product+gd'] as const
export const ACTIVE_STATUSES = ['active', 'trialing'] as const
