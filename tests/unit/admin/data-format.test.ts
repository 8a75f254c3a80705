// Number formats of the admin data pages (ui/pages/admin/data-format.ts).
import { describe, expect, test } from 'bun:test'
import { formatBytes, formatSeconds, peakSummary, seriesSummary } from '../../../ui/pages/admin/data-format'

describe('formatBytes', () => {
  const table: [number, string][] = [
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [20 * 1024, '20 KiB'],
    [5 * 1024 ** 3, '5.0 GiB'],
    [-1, '—'],
  ]
  for (const [bytes, text] of table) test(`${bytes} → ${text}`, () => expect(formatBytes(bytes)).toBe(text))
})

describe('formatSeconds', () => {
  const table: [number | null, string][] = [
    [null, '—'],
    [0.44, '0.4 s'],
    [2.5, '2.5 s'],
    [12.4, '12 s'],
    [200, '3 min 20 s'],
    [7500, '2 h 5 min'],
    [3 * 86_400 + 4 * 3600, '3 d 4 h'],
  ]
  for (const [s, text] of table) test(`${s} → ${text}`, () => expect(formatSeconds(s)).toBe(text))
})

describe('chart summaries', () => {
  const labels = ['2026-03-08', '2026-03-09', '2026-03-10']
  test('a count series: its total and busiest day; all zero says none', () => {
    expect(seriesSummary(labels, [1, 4, 2])).toBe('7 in total, most on 2026-03-09 (4)')
    expect(seriesSummary(labels, [0, 0, 0])).toBe('none')
  })
  test('a measure: the highest day and how many days have a value', () => {
    expect(peakSummary(formatSeconds)(labels, [null, 30, 2.5])).toBe('highest 30 s on 2026-03-09, 2 of 3 days with data')
    expect(peakSummary(formatSeconds)(labels, [null, null, null])).toBe('no data')
  })
})
