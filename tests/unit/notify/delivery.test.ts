// Per-term delivery: the union of the channels of a match's terms, mutes and their expiry, and
// "always notify" through quiet hours.
import { describe, expect, test } from 'bun:test'
import { DEFAULT_DELIVERY, deliveryPlan, isMuted, mutedUntil, MUTED_FOREVER, readDelivery, type TermSettings } from '../../../src/notify/delivery'

const now = new Date('2026-06-10T12:00:00Z')
const term = (over: Partial<TermSettings['delivery']> = {}, extra: Partial<Omit<TermSettings, 'delivery'>> = {}): TermSettings => ({
  delivery: { ...DEFAULT_DELIVERY, ...over },
  mutedUntil: null,
  alwaysNotify: false,
  ...extra,
})
const muted = (ms: number) => ({ mutedUntil: new Date(now.getTime() + ms) })

describe('deliveryPlan: the union of the terms', () => {
  const cases: {
    name: string
    terms: TermSettings[]
    freq: 'instant' | 'batched' | 'none'
    email: string
    push: boolean
    endpoints: number[]
    bypass?: boolean
  }[] = [
    { name: 'no term settings: the user defaults (batched → digest)', terms: [], freq: 'batched', email: 'digest', push: true, endpoints: [1, 2] },
    { name: 'default term follows instant', terms: [term()], freq: 'instant', email: 'instant', push: true, endpoints: [1, 2] },
    { name: 'default term follows none', terms: [term()], freq: 'none', email: 'off', push: true, endpoints: [1, 2] },
    {
      name: 'a term set to instant overrides a batched user',
      terms: [term({ email: 'instant' })],
      freq: 'batched',
      email: 'instant',
      push: true,
      endpoints: [1, 2],
    },
    {
      name: 'a term set to off',
      terms: [term({ email: 'off', push: false, endpoints: { '1': false } })],
      freq: 'instant',
      email: 'off',
      push: false,
      endpoints: [2],
    },
    {
      name: 'off + digest + instant → instant; push from either',
      terms: [term({ email: 'off', push: false }), term({ email: 'digest', push: false }), term({ email: 'instant', push: true })],
      freq: 'none',
      email: 'instant',
      push: true,
      endpoints: [1, 2],
    },
    {
      name: 'endpoints: union of per-term choices',
      terms: [term({ endpoints: { '1': false, '2': true } }), term({ endpoints: { '1': true, '2': false } })],
      freq: 'batched',
      email: 'digest',
      push: true,
      endpoints: [1, 2],
    },
    { name: 'a muted term alerts nowhere', terms: [term({ email: 'instant' }, muted(60_000))], freq: 'instant', email: 'off', push: false, endpoints: [] },
    {
      name: 'a muted term and a live one: only the live one counts',
      terms: [term({ email: 'instant', endpoints: { '2': true } }, muted(60_000)), term({ email: 'digest', push: false, endpoints: { '2': false } })],
      freq: 'instant',
      email: 'digest',
      push: false,
      endpoints: [1],
    },
    { name: 'an expired mute no longer counts', terms: [term({ email: 'instant' }, muted(-1))], freq: 'none', email: 'instant', push: true, endpoints: [1, 2] },
    {
      name: 'always notify bypasses quiet hours',
      terms: [term({}, { alwaysNotify: true }), term()],
      freq: 'instant',
      email: 'instant',
      push: true,
      endpoints: [1, 2],
      bypass: true,
    },
    {
      name: 'always notify on a muted term does not',
      terms: [term({}, { alwaysNotify: true, ...muted(1000) }), term()],
      freq: 'instant',
      email: 'instant',
      push: true,
      endpoints: [1, 2],
      bypass: false,
    },
  ]
  for (const c of cases)
    test(c.name, () => {
      const plan = deliveryPlan(c.terms, c.freq, [1, 2], now)
      expect({ email: plan.email as string, push: plan.push, endpoints: [...plan.endpoints].sort((a, b) => a - b), bypass: plan.bypassQuiet }).toEqual({
        email: c.email,
        push: c.push,
        endpoints: c.endpoints,
        bypass: c.bypass ?? false,
      })
    })
})

describe('mutes', () => {
  test('1 h / 8 h / 24 h expire; "until I unmute" does not', () => {
    for (const [choice, hours] of [
      ['1h', 1],
      ['8h', 8],
      ['24h', 24],
    ] as const) {
      const until = mutedUntil(choice, now)
      expect(until.getTime() - now.getTime()).toBe(hours * 3600_000)
      expect(isMuted({ mutedUntil: until }, new Date(until.getTime() - 1))).toBe(true)
      expect(isMuted({ mutedUntil: until }, until)).toBe(false)
    }
    const forever = mutedUntil('forever', now)
    expect(forever.getTime()).toBe(MUTED_FOREVER)
    expect(isMuted({ mutedUntil: forever }, new Date('2200-01-01T00:00:00Z'))).toBe(true)
  })
})

describe('readDelivery', () => {
  test('lenient: junk and missing fields take the defaults', () => {
    expect(readDelivery(null)).toEqual(DEFAULT_DELIVERY)
    expect(readDelivery({ email: 'hourly', push: 'yes', endpoints: { '3': false, '4': 'no' } })).toEqual({
      email: 'default',
      push: true,
      endpoints: { '3': false },
    })
    expect(readDelivery({ email: 'digest', push: false })).toEqual({ email: 'digest', push: false, endpoints: {} })
  })
})
