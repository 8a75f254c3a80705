// The admin charts' pure core: UTC day windows, gap-filled series and per-day percentiles (the percentile itself: tests/unit/lib/percentile.test.ts).
import { describe, expect, test } from 'bun:test'
import { DAY_MS, dailyPercentiles, dayLabels, dayWindow, fillSeries, utcDay } from '../../../src/admin/shared/series'

const at = (iso: string) => new Date(iso)

describe('day windows (UTC)', () => {
  const cases: [string, number, string, string][] = [
    ['2026-03-10T12:00:00Z', 7, '2026-03-04', '2026-03-10'],
    ['2026-03-10T00:00:00Z', 7, '2026-03-04', '2026-03-10'], // midnight belongs to the new day
    ['2026-03-10T23:59:59.999Z', 1, '2026-03-10', '2026-03-10'],
    ['2026-03-01T05:00:00Z', 30, '2026-01-31', '2026-03-01'], // across February
  ]
  for (const [now, days, first, last] of cases)
    test(`${days} days ending ${now}: ${first} … ${last}`, () => {
      const labels = dayLabels(at(now), days)
      expect(labels).toHaveLength(days)
      expect([labels[0], labels.at(-1)]).toEqual([first, last])
      expect(dayWindow(at(now), days).startMs).toBe(Date.parse(`${first}T00:00:00Z`))
    })
  test('the leap day is one of the days', () => expect(dayLabels(at('2024-03-01T05:00:00Z'), 3)).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']))
  test('utcDay floors to midnight UTC, whatever the local time zone', () => {
    expect(utcDay(Date.parse('2026-03-10T23:59:59.999Z')) * DAY_MS).toBe(Date.parse('2026-03-10T00:00:00Z'))
  })
})

describe('fillSeries', () => {
  const window = { first: 100, last: 104 }
  test('days without rows are 0; listed keys exist even without rows, in their order', () => {
    expect(fillSeries([{ day: 101, key: 'gd', n: 3 }], window, ['product', 'gd'])).toEqual({ product: [0, 0, 0, 0, 0], gd: [0, 3, 0, 0, 0] })
  })
  test('unlisted keys follow; rows of one day and key add up; rows outside the window are ignored', () => {
    const rows = [
      { day: 99, key: 'wts', n: 50 },
      { day: 100, key: 'wts', n: 1 },
      { day: 100, key: 'wts', n: 2 },
      { day: 104, key: 'other', n: 7 },
      { day: 105, key: 'wts', n: 50 },
    ]
    expect(fillSeries(rows, window, ['wts'])).toEqual({ wts: [3, 0, 0, 0, 0], other: [0, 0, 0, 0, 7] })
  })
})

describe('dailyPercentiles', () => {
  test('per day p50/p95 and count, null on days without values, input in any order', () => {
    const rows = [
      { day: 11, value: 30 },
      { day: 10, value: 5 },
      { day: 10, value: 1 },
      { day: 10, value: 3 },
      { day: 12, value: 2 },
      { day: 9, value: 999 },
    ]
    expect(dailyPercentiles(rows, { first: 10, last: 13 })).toEqual({ p50: [3, 30, 2, null], p95: [5, 30, 2, null], count: [3, 1, 1, 0] })
  })
})
