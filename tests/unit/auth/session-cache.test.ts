// The browser's access-info cache (spec §9): key, validity windows, per-user reads.
import { describe, expect, test } from 'bun:test'
import { CACHE_KEY, cacheAge, readCache, writeCache, type CacheEntry } from '../../../ui/session'

const MIN = 60_000
const me = (id: number) =>
  ({ user: { id, email: `u${id}@example.com`, name: 'U' }, access: { userRole: 'app_trial', hasAccess: true } }) as unknown as CacheEntry['data']

function memoryStorage() {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), map: m }
}

describe('cacheAge', () => {
  const now = 1_000_000_000
  const cases: [string, number, ReturnType<typeof cacheAge>][] = [
    ['just written', 0, 'fresh'],
    ['19 min', 19 * MIN, 'fresh'],
    ['20 min: refresh proactively', 20 * MIN, 'refresh'],
    ['29 min', 29 * MIN, 'refresh'],
    ['30 min: no longer valid, only for outages', 30 * MIN, 'stale'],
    ['2 h', 120 * MIN, 'stale'],
    ['2 h + 1 ms', 120 * MIN + 1, 'expired'],
    ['from the future', -1, 'expired'],
  ]
  for (const [name, age, want] of cases) test(`${name} → ${want}`, () => expect(cacheAge({ timestamp: now - age, data: me(1) }, now)).toBe(want))
  test('no cache → expired', () => expect(cacheAge(null)).toBe('expired'))
  test('an AccessInfo whose access has ended since it was cached is never trusted (issue 12 item 2)', () => {
    const data = (ends: number) => ({ ...me(1), access: { ...me(1).access, accessExpiresAt: new Date(ends).toISOString() } }) as CacheEntry['data']
    expect(cacheAge({ timestamp: now - MIN, data: data(now + MIN) }, now)).toBe('fresh')
    expect(cacheAge({ timestamp: now - MIN, data: data(now) }, now)).toBe('expired')
    expect(cacheAge({ timestamp: now - 40 * MIN, data: data(now - 1) }, now)).toBe('expired') // not even for outages
    const locked = { ...data(now - 1), access: { ...data(now - 1).access, hasAccess: false } } as CacheEntry['data']
    expect(cacheAge({ timestamp: now - MIN, data: locked }, now)).toBe('fresh') // already says no access
  })
})

describe('readCache / writeCache', () => {
  test(`stored under '${CACHE_KEY}' as {timestamp, data}`, () => {
    const s = memoryStorage()
    writeCache(s, me(7), 123)
    expect(JSON.parse(s.map.get('access_info_cache')!)).toEqual({ timestamp: 123, data: me(7) })
    expect(readCache(s)).toEqual({ timestamp: 123, data: me(7) })
  })
  test("another user's cache is not used", () => {
    const s = memoryStorage()
    writeCache(s, me(7), 123)
    expect(readCache(s, 8)).toBeNull()
    expect(readCache(s, 7)?.data.user.id).toBe(7)
  })
  for (const raw of ['not json', '{}', '{"timestamp":"x","data":{}}', 'null'])
    test(`a damaged entry (${raw}) reads as none`, () => {
      const s = memoryStorage()
      s.setItem(CACHE_KEY, raw)
      expect(readCache(s)).toBeNull()
    })
})
