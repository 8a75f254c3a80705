// Quiet-hours windows: inside/outside, ranges crossing midnight, DST changes (Europe/Berlin and
// America/New_York), the summary sentence and the validators.
import { describe, expect, test } from 'bun:test'
import { isHhmm, isTimeZone, quietSummary, quietUntil, zonedInstant } from '../../../src/notify/quiet-hours'

const q = (start: string, end: string, timeZone: string) => ({ start, end, timeZone })

describe('quietUntil', () => {
  const cases: { name: string; quiet: ReturnType<typeof q>; now: string; until: string | null }[] = [
    { name: 'same-day window, inside', quiet: q('13:00', '15:00', 'UTC'), now: '2026-06-10T14:00:00Z', until: '2026-06-10T15:00:00.000Z' },
    { name: 'same-day window, at the end (end excluded)', quiet: q('13:00', '15:00', 'UTC'), now: '2026-06-10T15:00:00Z', until: null },
    {
      name: 'same-day window, at the start (start included)',
      quiet: q('13:00', '15:00', 'UTC'),
      now: '2026-06-10T13:00:00Z',
      until: '2026-06-10T15:00:00.000Z',
    },
    { name: 'same-day window, outside', quiet: q('13:00', '15:00', 'UTC'), now: '2026-06-10T12:59:00Z', until: null },
    {
      name: 'crossing midnight, before midnight → tomorrow',
      quiet: q('22:00', '07:00', 'UTC'),
      now: '2026-06-10T23:30:00Z',
      until: '2026-06-11T07:00:00.000Z',
    },
    { name: 'crossing midnight, after midnight → today', quiet: q('22:00', '07:00', 'UTC'), now: '2026-06-11T03:00:00Z', until: '2026-06-11T07:00:00.000Z' },
    { name: 'crossing midnight, daytime outside', quiet: q('22:00', '07:00', 'UTC'), now: '2026-06-11T12:00:00Z', until: null },
    // Berlin is UTC+2 in summer: 23:30 local = 21:30Z; the end 07:00 local = 05:00Z.
    { name: 'time zone: Berlin summer', quiet: q('22:00', '07:00', 'Europe/Berlin'), now: '2026-06-10T21:30:00Z', until: '2026-06-11T05:00:00.000Z' },
    { name: 'time zone: outside in Berlin though inside in UTC', quiet: q('22:00', '07:00', 'Europe/Berlin'), now: '2026-06-10T06:00:00Z', until: null },
    // Berlin springs forward 2026-03-29 02:00 → 03:00 (UTC+1 → UTC+2): 07:00 local = 05:00Z.
    { name: 'DST spring forward night (Berlin)', quiet: q('22:00', '07:00', 'Europe/Berlin'), now: '2026-03-28T22:00:00Z', until: '2026-03-29T05:00:00.000Z' },
    // Berlin falls back 2026-10-25 03:00 → 02:00 (UTC+2 → UTC+1): 07:00 local = 06:00Z.
    { name: 'DST fall back night (Berlin)', quiet: q('22:00', '07:00', 'Europe/Berlin'), now: '2026-10-24T21:00:00Z', until: '2026-10-25T06:00:00.000Z' },
    // An end inside the skipped hour (02:30 does not exist on 2026-03-08 in New York): moved on by the gap, 03:30 EDT = 07:30Z.
    {
      name: 'end in the skipped hour (New York)',
      quiet: q('23:00', '02:30', 'America/New_York'),
      now: '2026-03-08T05:00:00Z',
      until: '2026-03-08T07:30:00.000Z',
    },
    { name: 'start = end means none', quiet: q('07:00', '07:00', 'UTC'), now: '2026-06-10T07:00:00Z', until: null },
    { name: 'unknown zone means none', quiet: q('00:00', '23:59', 'Mars/Olympus'), now: '2026-06-10T07:00:00Z', until: null },
  ]
  for (const c of cases)
    test(c.name, () => {
      expect(quietUntil(c.quiet, new Date(c.now))?.toISOString() ?? null).toBe(c.until)
    })
  test('no quiet hours', () => expect(quietUntil(null, new Date())).toBeNull())
})

describe('zonedInstant', () => {
  test('a normal wall time', () => expect(zonedInstant(2026, 1, 15, 9 * 60, 'America/New_York').toISOString()).toBe('2026-01-15T14:00:00.000Z'))
  test('a positive-offset zone across the date line', () =>
    expect(zonedInstant(2026, 1, 15, 7 * 60, 'Pacific/Auckland').toISOString()).toBe('2026-01-14T18:00:00.000Z'))
})

describe('validators and summary', () => {
  test.each([
    ['00:00', true],
    ['23:59', true],
    ['24:00', false],
    ['7:00', false],
    ['07:60', false],
    ['', false],
  ])('isHhmm(%p) = %p', (s, ok) => expect(isHhmm(s)).toBe(ok))
  test.each([
    ['Europe/Berlin', true],
    ['UTC', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Not/AZone', false],
    ['', false],
  ])('isTimeZone(%p) = %p', (s, ok) => expect(isTimeZone(s)).toBe(ok))
  test('the sentence', () => {
    expect(quietSummary(q('22:00', '07:00', 'Europe/Berlin'))).toBe(
      'Quiet from 22:00 to 07:00 the next morning (Europe/Berlin): email and push wait and arrive as one summary at 07:00.',
    )
    expect(quietSummary(null)).toBe('No quiet hours: alerts arrive at any time.')
  })
})
