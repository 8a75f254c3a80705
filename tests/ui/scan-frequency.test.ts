// The spec's scan-frequency texts (§1 helper 'every 20 seconds', §9 tiers) beside Dibs' own cadence.
import { describe, expect, test } from 'bun:test'
import { cadence, SCAN_TIERS, scanHelperText, tierNote } from '../../ui/lib/scan-frequency'

describe('scan-frequency texts', () => {
  test.each([
    [7.5, '7.5 s'],
    [10, '10 s'],
    [60, '1 min'],
    [90, '1 min 30 s'],
  ])('cadence(%p) is %p', (s, text) => expect(cadence(s)).toBe(text))

  test.each([
    [undefined, 'Scan frequency: every 20 seconds.'],
    [10, 'Scan frequency: every 20 seconds or faster — right now Dibs checks the forums every 10 s.'],
    [20, 'Scan frequency: every 20 seconds or faster — right now Dibs checks the forums every 20 s.'],
    [
      60,
      "Scan frequency: every 20 seconds is the usual figure; right now Dibs checks the forums every 1 min (Reddit's rate limit or the administrator's setting).",
    ],
  ])('the helper at %p s says the truth', (s, text) => expect(scanHelperText(s)).toBe(text))

  test('the tiers as the spec displays them, and that Dibs does not scan by tier', () => {
    expect(SCAN_TIERS.map((t) => `${t.tier}: ${t.every}`)).toEqual(['Pro: 1 minute', 'Paid: 5 minutes', 'Free: 10 minutes', 'Guest: 15 minutes'])
    expect(tierNote(7.5)).toContain('Dibs does not scan by tier')
    expect(tierNote(7.5)).toEndWith('every 7.5 s right now.')
  })
})
