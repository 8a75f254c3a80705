// The dashboard's formulas (spec §4 system health, §7 KPIs) as tables with fixed clocks.
import { describe, expect, test } from 'bun:test'
import { conversionRate, dayBounds, emailQueueColour, growthPercent, kpis, scanHealth } from '../../../src/admin/dashboard/formulas'
import { percentile } from '../../../src/lib/percentile'
import { minIntervalFor, validateScanSettings } from '../../../src/admin/logs/scan-settings'
import { RateBudget } from '../../../src/forums/rate-budget'

const NOW = new Date('2026-01-15T12:00:00Z')
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000)

describe('system health from the minutes since the last successful scan', () => {
  const table: [string, Date | null, 'healthy' | 'warning' | 'critical', number][] = [
    ['none yet → warning', null, 'warning', 75],
    ['just now → healthy', ago(0), 'healthy', 95],
    ['10 minutes → still healthy', ago(10), 'healthy', 95],
    ['10 minutes 1 second → warning', new Date(ago(10).getTime() - 1000), 'warning', 75],
    ['30 minutes → still warning', ago(30), 'warning', 75],
    ['30 minutes 1 second → critical', new Date(ago(30).getTime() - 1000), 'critical', 45],
    ['a day → critical', ago(1440), 'critical', 45],
    ['a clock behind the scan counts as 0 minutes', new Date(NOW.getTime() + 5000), 'healthy', 95],
  ]
  for (const [name, last, status, performance] of table)
    test(name, () => {
      expect(scanHealth(last, NOW)).toMatchObject({ status, performance })
    })
  test('minutes are reported with one decimal', () => {
    expect(scanHealth(new Date(NOW.getTime() - 90_000), NOW).minutesSinceLastScan).toBe(1.5)
    expect(scanHealth(null, NOW).minutesSinceLastScan).toBeNull()
  })
})

describe('email queue colour', () => {
  const table: [number, 'green' | 'yellow' | 'red'][] = [
    [0, 'green'],
    [1, 'yellow'],
    [10, 'yellow'],
    [11, 'red'],
    [500, 'red'],
  ]
  for (const [pending, colour] of table) test(`${pending} pending → ${colour}`, () => expect(emailQueueColour(pending)).toBe(colour))
})

describe('KPI formulas', () => {
  const conversions: [number, number, number | null][] = [
    [0, 0, null],
    [3, 0, 0],
    [0, 4, 100],
    [1, 2, 66.7],
    [3, 1, 25],
  ]
  for (const [trial, paid, rate] of conversions)
    test(`conversion: ${paid} paid / (${trial} trial + ${paid} paid) = ${rate}`, () => expect(conversionRate(trial, paid)).toBe(rate))

  const growth: [number, number, number | null][] = [
    [5, 0, null], // no division by zero
    [0, 0, null],
    [10, 5, 100],
    [5, 10, -50],
    [7, 7, 0],
    [1, 3, -66.7],
  ]
  for (const [today, yesterday, pct] of growth)
    test(`growth: today ${today}, yesterday ${yesterday} → ${pct}`, () => expect(growthPercent(today, yesterday)).toBe(pct))

  test('kpis() carries the counts and adds both derived figures', () => {
    const counts = {
      matchesToday: 6,
      matchesYesterday: 4,
      usersMatched24h: 3,
      postsToday: 40,
      totalUsers: 10,
      activeOrTrialing: 7,
      trialUsers: 2,
      paidUsers: 6,
    }
    expect(kpis(counts)).toEqual({ ...counts, conversionRate: 75, matchesGrowthPercent: 50 })
  })

  test('days are UTC days', () => {
    expect(dayBounds(NOW)).toEqual({
      todayStart: Date.parse('2026-01-15T00:00:00Z'),
      yesterdayStart: Date.parse('2026-01-14T00:00:00Z'),
      dayAgo: Date.parse('2026-01-14T12:00:00Z'),
    })
    expect(dayBounds(new Date('2026-03-01T00:00:00Z')).yesterdayStart).toBe(Date.parse('2026-02-28T00:00:00Z'))
  })
})

describe('percentiles (nearest rank)', () => {
  const table: [number[], number, number | null][] = [
    [[], 50, null],
    [[7], 95, 7],
    [[1, 2, 3, 4], 50, 2],
    [[4, 3, 2, 1], 95, 4],
    [Array.from({ length: 100 }, (_, i) => i + 1), 95, 95],
    [Array.from({ length: 20 }, (_, i) => i + 1), 50, 10],
  ]
  for (const [values, p, expected] of table) test(`p${p} of ${values.length} values = ${expected}`, () => expect(percentile(values, p)).toBe(expected))
})

describe('runtime scan settings validation', () => {
  test('the fastest interval a cap allows (20 % headroom)', () => {
    expect(minIntervalFor(10)).toBe(7.5)
    expect(minIntervalFor(100)).toBe(0.75)
    expect(minIntervalFor(5)).toBe(15)
  })
  const table: [string, { intervalSeconds: number | null; maxRequestsPerMinute: number }, number, boolean][] = [
    ['adaptive at the public cap', { intervalSeconds: null, maxRequestsPerMinute: 10 }, 10, true],
    ['above the public allowance', { intervalSeconds: null, maxRequestsPerMinute: 11 }, 10, false],
    ['zero requests', { intervalSeconds: null, maxRequestsPerMinute: 0 }, 10, false],
    ['fractional requests', { intervalSeconds: null, maxRequestsPerMinute: 2.5 }, 10, false],
    ['interval at the allowance', { intervalSeconds: 7.5, maxRequestsPerMinute: 10 }, 10, true],
    ['interval faster than the allowance', { intervalSeconds: 5, maxRequestsPerMinute: 10 }, 10, false],
    ['slower cap needs a slower interval', { intervalSeconds: 10, maxRequestsPerMinute: 5 }, 10, false],
    ['OAuth at 100/min, 1 s', { intervalSeconds: 1, maxRequestsPerMinute: 100 }, 100, true],
    ['over an hour', { intervalSeconds: 3601, maxRequestsPerMinute: 10 }, 10, false],
  ]
  for (const [name, input, cap, ok] of table)
    test(`${name} → ${ok ? 'accepted' : 'refused'}`, () => {
      const error = validateScanSettings(input, cap, 'public')
      expect(error === null).toBe(ok)
    })
})

describe('the rate budget takes new settings at run time (configure)', () => {
  test('a lower cap slows the adaptive cadence and counts against the sliding minute at once', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    expect(b.recommendedIntervalMs()).toBe(7500)
    b.configure({ capPerMinute: 2 })
    expect(b.capPerMinute).toBe(2)
    expect(b.recommendedIntervalMs()).toBe(37_500)
    b.noteRequest(0)
    b.noteRequest(1000)
    expect(b.nextAllowedAt(2000)).toBe(60_000)
  })
  test("the cap never goes above the mode's; a fixed interval replaces adaptive and back", () => {
    const b = new RateBudget({ capPerMinute: 10 })
    b.configure({ capPerMinute: 50 })
    expect(b.capPerMinute).toBe(10)
    b.configure({ intervalSeconds: 30 })
    expect([b.intervalSeconds, b.recommendedIntervalMs()]).toEqual([30, 30_000])
    b.configure({ intervalSeconds: null })
    expect([b.intervalSeconds, b.recommendedIntervalMs()]).toEqual([null, 7500])
  })
  test('an interval faster than the cap allows is raised to the allowance, as at startup', () => {
    const b = new RateBudget({ capPerMinute: 10, intervalSeconds: 2 })
    expect(b.intervalRaise).toEqual({ configuredMs: 2000, usedMs: 7500 })
    b.configure({ intervalSeconds: 10 })
    expect(b.intervalRaise).toBeNull()
    expect(b.recommendedIntervalMs()).toBe(10_000)
  })
})
