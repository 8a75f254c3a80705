// docs/atomicity-audit.md A5: the channel limit (MAX_ENDPOINTS) holds when two adds run at once.
// addEndpoint awaits its statements (issue 29, phase 1); its count and insert are one transaction,
// so the second add counts the first one's row.
import { afterEach, expect, test } from 'bun:test'
import { addEndpoint, MAX_ENDPOINTS } from '../../../src/notify/endpoints'
import { makeDeps, testClock, type TestDeps } from '../../helpers'

const T = Date.UTC(2026, 5, 1, 12, 0)
let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

test('two adds at once on the last free place: one is added, the other answers CHANNEL_LIMIT', async () => {
  const d = (deps = makeDeps({}, testClock(T)))
  d.sqlite.run('INSERT INTO users (id, email) VALUES (1, ?)', ['u1@example.com'])
  const ep = d.sqlite.query('INSERT INTO notify_endpoints (user_id, kind, url, options, created_at) VALUES (1, ?, ?, ?, ?)')
  for (let i = 1; i < MAX_ENDPOINTS; i++) ep.run('webhook', `https://example.com/hook${i}`, '{}', T)
  const access = { role: 'admin' as const, subscriptionStatus: null, accessExpiresAt: null }
  const resolve = async () => ['93.184.216.34']
  const add = (n: number) => addEndpoint(d, 1, access, { kind: 'webhook', url: `https://example.com/new${n}` }, resolve)

  const outcomes = await Promise.allSettled([add(1), add(2)])
  expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
  const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
  expect((refused.reason as { code: string }).code).toBe('CHANNEL_LIMIT')
  expect(d.sqlite.query('SELECT count(*) AS n FROM notify_endpoints WHERE user_id = 1').get()).toEqual({ n: MAX_ENDPOINTS })
})
