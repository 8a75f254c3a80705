import { describe, expect, test } from 'bun:test'
import { RateBudget } from '../../../src/forums/rate-budget.ts'

const T0 = 1_700_000_000_000

describe('the local per-minute cap', () => {
  test('public mode allows 10 requests in any 60 s and then waits for the oldest to age out', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    for (let i = 0; i < 10; i++) {
      expect(b.canRequest(T0 + i * 1000)).toBe(true)
      b.noteRequest(T0 + i * 1000)
    }
    expect(b.canRequest(T0 + 10_000)).toBe(false)
    expect(b.nextAllowedAt(T0 + 10_000)).toBe(T0 + 60_000)
    expect(b.canRequest(T0 + 60_000)).toBe(true)
  })

  test('a long burst never exceeds the cap in any sliding minute', () => {
    const b = new RateBudget({ capPerMinute: 100 })
    const sent: number[] = []
    for (let t = T0; t < T0 + 5 * 60_000; t += 50) {
      if (b.canRequest(t)) {
        b.noteRequest(t)
        sent.push(t)
      }
    }
    for (const start of sent) expect(sent.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(100)
    expect(sent.length).toBe(500)
  })
})

describe("Reddit's headers", () => {
  test('remaining under one blocks until the reset Reddit named', () => {
    const b = new RateBudget({ capPerMinute: 100 })
    b.record(new Headers({ 'X-Ratelimit-Used': '600', 'X-Ratelimit-Remaining': '0.0', 'X-Ratelimit-Reset': '42' }), T0)
    expect(b.canRequest(T0 + 1000)).toBe(false)
    expect(b.nextAllowedAt(T0)).toBe(T0 + 42_000)
    expect(b.canRequest(T0 + 42_000)).toBe(true)
    expect(b.snapshot(T0).used).toBe(600)
  })

  test('a float remaining is read ("586.0") and plain objects work too', () => {
    const b = new RateBudget({ capPerMinute: 100 })
    b.record({ 'x-ratelimit-remaining': '586.0', 'x-ratelimit-reset': '111' }, T0)
    expect(b.snapshot(T0).remaining).toBe(586)
    expect(b.canRequest(T0)).toBe(true)
  })

  test('garbage header values are ignored', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    b.record(new Headers({ 'X-Ratelimit-Remaining': 'lots', 'X-Ratelimit-Reset': '-3' }), T0)
    expect(b.snapshot(T0).remaining).toBeNull()
    expect(b.canRequest(T0)).toBe(true)
  })
})

describe('backoff', () => {
  test('5xx, timeouts and malformed bodies back off exponentially up to 5 minutes', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    const waits: number[] = []
    let now = T0
    for (const reason of ['server', 'timeout', 'malformed', 'server', 'server', 'server', 'server', 'server', 'server', 'server'] as const) {
      const until = b.backoff(reason, now)
      waits.push(until - now)
      expect(b.canRequest(until - 1)).toBe(false)
      now = until
    }
    expect(waits.slice(0, 5)).toEqual([2000, 4000, 8000, 16000, 32000])
    expect(waits.at(-1)).toBe(300_000)
  })

  test('a success resets the exponent', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    b.backoff('server', T0)
    b.backoff('server', T0 + 2000)
    b.succeeded()
    expect(b.backoff('server', T0 + 10_000)).toBe(T0 + 12_000)
  })

  test('429 honours Retry-After / reset seconds rather than the exponent', () => {
    const b = new RateBudget({ capPerMinute: 100 })
    expect(b.backoff('rate_limited', T0, 37)).toBe(T0 + 37_000)
    expect(b.canRequest(T0 + 36_999)).toBe(false)
    expect(b.canRequest(T0 + 37_000)).toBe(true)
    expect(b.snapshot(T0).blockedReason).toBe('rate_limited')
  })

  test('429 without a number falls back to the last recorded reset', () => {
    const b = new RateBudget({ capPerMinute: 100 })
    b.record({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '90' }, T0)
    expect(b.backoff('rate_limited', T0 + 10_000)).toBe(T0 + 90_000)
  })
})

describe('recommended scan interval', () => {
  test('public: 10/min with 20% headroom is every 7.5 s', () => {
    expect(new RateBudget({ capPerMinute: 10 }).recommendedIntervalMs()).toBe(7500)
  })
  test('OAuth: 100/min would be 0.75 s, floored at 2 s', () => {
    expect(new RateBudget({ capPerMinute: 100 }).recommendedIntervalMs()).toBe(2000)
  })
  test('SCAN_INTERVAL_SECONDS overrides the computed value', () => {
    expect(new RateBudget({ capPerMinute: 10, intervalSeconds: 30 }).recommendedIntervalMs()).toBe(30_000)
    expect(new RateBudget({ capPerMinute: 100, intervalSeconds: 1 }).recommendedIntervalMs()).toBe(1000) // OAuth allows 0.75 s
  })
  test('a SCAN_INTERVAL_SECONDS faster than the mode allows is raised to the allowance, and says so', () => {
    const publicTwo = new RateBudget({ capPerMinute: 10, intervalSeconds: 2 })
    expect(publicTwo.recommendedIntervalMs()).toBe(7500)
    expect(publicTwo.intervalRaise).toEqual({ configuredMs: 2000, usedMs: 7500 })
    expect(new RateBudget({ capPerMinute: 10, intervalSeconds: 8 }).intervalRaise).toBeNull()
    expect(new RateBudget({ capPerMinute: 100, intervalSeconds: 1 }).intervalRaise).toBeNull()
    expect(new RateBudget({ capPerMinute: 10 }).intervalRaise).toBeNull()
  })
  test('a nearly spent Reddit window stretches the interval to last until the reset', () => {
    const b = new RateBudget({ capPerMinute: 100 })
    b.record({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '400' }, T0)
    // 10 requests less 20% headroom over 400 s → one per 50 s
    expect(b.recommendedIntervalMs(T0)).toBe(50_000)
    expect(b.recommendedIntervalMs(T0 + 401_000)).toBe(2000)
  })
})

describe('pacing: requests spread evenly over the window', () => {
  /** A scheduler that sends whenever the budget's pacing says so, for `minutes`. */
  function pacedLoop(b: RateBudget, minutes: number, pagesPerScan = () => 1) {
    const sent: number[] = []
    let t = T0
    while (t < T0 + minutes * 60_000) {
      for (let p = pagesPerScan(); p > 0; p--) {
        t = Math.max(t, b.nextAllowedAt(t)) // pages of one scan wait only for the cap
        b.noteRequest(t)
        sent.push(t)
      }
      t = b.nextPacedAt(t)
    }
    return sent
  }
  const maxInAnyMinute = (sent: number[]) => Math.max(...sent.map((s) => sent.filter((t) => t >= s && t < s + 60_000).length))

  test('public with SCAN_INTERVAL_SECONDS=2: one request every 7.5 s, never 10 then a stall', () => {
    const sent = pacedLoop(new RateBudget({ capPerMinute: 10, intervalSeconds: 2 }), 5)
    const gaps = sent.slice(1).map((t, i) => t - sent[i]!)
    expect(new Set(gaps)).toEqual(new Set([7500]))
    expect(maxInAnyMinute(sent)).toBe(8)
  })

  test('OAuth, adaptive: one request every 2 s', () => {
    const sent = pacedLoop(new RateBudget({ capPerMinute: 100 }), 2)
    expect(new Set(sent.slice(1).map((t, i) => t - sent[i]!))).toEqual(new Set([2000]))
  })

  test('a scan of three pages pushes the next scan three intervals out', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    for (let p = 0; p < 3; p++) b.noteRequest(T0 + p * 100)
    expect(b.nextPacedAt(T0 + 300)).toBe(T0 + 3 * 7500)
    expect(b.canRequest(T0 + 300)).toBe(true) // the cap alone would allow it at once
  })

  test('scans of random sizes (catch-up pages) stay under the cap in every minute', () => {
    let seed = 7
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const sent = pacedLoop(new RateBudget({ capPerMinute: 10 }), 30, () => (rnd() < 0.2 ? 1 + Math.floor(rnd() * 4) : 1))
    expect(maxInAnyMinute(sent)).toBeLessThanOrEqual(10)
    expect(sent.length).toBeGreaterThan(30 * 7) // and the average pace is still about 8 a minute
  })

  test('a request sent a little late keeps the grid; one sent much later starts a new one', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    b.noteRequest(T0)
    expect(b.nextPacedAt(T0)).toBe(T0 + 7500)
    b.noteRequest(T0 + 7500 + 40) // 40 ms late (timer, set-up): the next is still due on the grid
    expect(b.nextPacedAt(T0 + 7540)).toBe(T0 + 15_000)
    b.noteRequest(T0 + 60_000) // after a pause
    expect(b.nextPacedAt(T0 + 60_000)).toBe(T0 + 67_500)
  })

  test('pacing never lets a request through that the gates forbid', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    b.noteRequest(T0)
    b.backoff('server', T0 + 100) // 2 s
    expect(b.nextPacedAt(T0 + 100)).toBe(T0 + 7500)
    b.backoff('rate_limited', T0 + 200, 30)
    expect(b.nextPacedAt(T0 + 200)).toBe(T0 + 30_200)
  })
})

describe('the side share (re-checks)', () => {
  test('side requests are spaced to the share of the cap: 20 % of 10/min is one every 30 s; 0 turns them off', () => {
    const b = new RateBudget({ capPerMinute: 10 })
    expect(b.sideSpacingMs()).toBe(30_000)
    expect(b.sideAllowedAt(T0)).toBe(T0)
    b.noteSideRequest(T0)
    expect(b.sideAllowedAt(T0 + 1000)).toBe(T0 + 30_000)
    expect(b.sideRequestsLastMinute(T0 + 1000)).toBe(1)
    expect(new RateBudget({ capPerMinute: 10, sideShare: 0 }).sideAllowedAt(T0)).toBe(Number.POSITIVE_INFINITY)
    expect(new RateBudget({ capPerMinute: 100 }).sideSpacingMs()).toBe(3000)
  })

  test("a side request never moves the scan's pacing, and waits when it would leave the next scan no room in the cap", () => {
    const b = new RateBudget({ capPerMinute: 10 })
    b.noteRequest(T0)
    const paced = b.nextPacedAt(T0 + 1)
    b.noteSideRequest(T0 + 1000)
    expect(b.nextPacedAt(T0 + 1001)).toBe(paced)
    expect(b.lastRequestAt).toBe(T0)
    // 9 requests in the last minute: one more side request would leave the next scan no room
    const full = new RateBudget({ capPerMinute: 10, sideShare: 0.5 })
    full.noteRequest(T0)
    for (let i = 1; i <= 8; i++) full.noteSideRequest(T0 + i * 100)
    expect(full.sideAllowedAt(T0 + 1000)).toBe(T0 + 60_000) // when the oldest ages out
    expect(full.nextAllowedAt(T0 + 7500)).toBe(T0 + 7500) // the scan itself goes on time
  })

  test("a failed side request backs off only side requests; Reddit's remaining is kept for the scan's cadence", () => {
    const b = new RateBudget({ capPerMinute: 100 })
    b.sideBackoff(T0)
    expect(b.sideAllowedAt(T0)).toBe(T0 + 2000)
    expect(b.canRequest(T0)).toBe(true)
    const low = new RateBudget({ capPerMinute: 100 })
    low.record({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '60' }, T0) // 10 left for 60 s: the 2 s scans need all of them
    expect(low.sideAllowedAt(T0)).toBe(T0 + 60_000)
  })
})
