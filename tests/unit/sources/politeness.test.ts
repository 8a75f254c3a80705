import { describe, expect, test } from 'bun:test'
import { DEFAULT_FEED_INTERVAL_MS, HostPoliteness, MIN_FEED_INTERVAL_MS } from '../../../src/sources/politeness'

const clock = (start = 1_000_000) => {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('per-host politeness', () => {
  test('a host rests for the interval (60 s by default) after a fetch; other hosts do not wait', () => {
    const c = clock()
    const p = new HostPoliteness(c.now)
    expect(p.intervalMs).toBe(DEFAULT_FEED_INTERVAL_MS)
    expect(p.mayFetch('https://forum.example.com/forums/a.1/index.rss')).toBe(true)
    p.fetched('https://forum.example.com/forums/a.1/index.rss')
    expect(p.mayFetch('https://FORUM.example.com/forums/b.2/index.rss')).toBe(false) // same host, other board
    expect(p.nextAt('forum.example.com')).toBe(c.now() + 60_000)
    expect(p.mayFetch('https://other.example.org/feed')).toBe(true)
    c.advance(59_999)
    expect(p.mayFetch('forum.example.com')).toBe(false)
    c.advance(1)
    expect(p.mayFetch('forum.example.com')).toBe(true)
  })

  test('never below 15 s, whatever is asked', () => {
    for (const asked of [0, 1000, -5, Number.NaN])
      expect(new HostPoliteness(() => 0, asked).intervalMs).toBe(Number.isNaN(asked) ? DEFAULT_FEED_INTERVAL_MS : MIN_FEED_INTERVAL_MS)
    expect(new HostPoliteness(() => 0, 120_000).intervalMs).toBe(120_000)
  })

  test('a Retry-After pushes the next fetch out, and a later fetch never pulls it back in', () => {
    const c = clock()
    const p = new HostPoliteness(c.now, 15_000)
    p.deferUntil('https://forum.example.com/x', c.now() + 300_000)
    p.fetched('forum.example.com')
    expect(p.nextAt('forum.example.com')).toBe(c.now() + 300_000)
  })
})
