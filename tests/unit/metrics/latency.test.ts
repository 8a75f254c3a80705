import { afterEach, describe, expect, spyOn, test } from 'bun:test'
import { figures, latencyReport, STAGES } from '../../../src/metrics/latency-stats'
import { alertOfOutboxRow, claimDelays, insertAlertRows, pruneAlertLatency, stampClaim, type CreatedMatch } from '../../../src/metrics/latency'
import { jsonLine, log, recentLogLines, setLogFormat, setLogLevel } from '../../../src/lib/log'
import { parseEnv } from '../../../src/config'
import { makeDeps, type TestDeps } from '../../helpers'

const row = (matched: number, socketGap: number | null) => ({
  created_at: matched - 5000,
  received_at: matched - 300,
  stored_at: matched - 100,
  matched_at: matched,
  socket_at: socketGap === null ? null : matched + socketGap,
  push_at: null,
  email_at: null,
  claimed_at: null,
  claim_channel: null,
})

describe('alert latency percentiles', () => {
  test('nearest rank over the rows that reached the stage', () => {
    const rows = [...Array.from({ length: 10 }, (_, i) => row(1_000_000, (i + 1) * 100)), row(1_000_000, null)]
    const socket = figures(
      rows,
      STAGES.find((s) => s.key === 'matched_socket')!,
    )
    expect(socket).toMatchObject({ count: 10, p50Ms: 500, p95Ms: 1000, p99Ms: 1000 })
    const push = figures(
      rows,
      STAGES.find((s) => s.key === 'matched_push')!,
    )
    expect(push).toMatchObject({ count: 0, p50Ms: null, p95Ms: null, p99Ms: null })
  })

  let deps: TestDeps | null = null
  afterEach(() => {
    deps?.close()
    deps = null
  })
  test('windows of 1 h, 24 h and 7 d count the alerts matched within them; pruning drops rows over 30 days', async () => {
    deps = makeDeps()
    const now = deps.now().getTime()
    const insert = deps.sqlite.query('INSERT INTO alert_latency (match_id, user_id, matched_at, created_at, socket_at) VALUES (?, 1, ?, ?, ?)')
    const ages = [10 * 60_000, 5 * 3_600_000, 3 * 86_400_000, 31 * 86_400_000]
    ages.forEach((age, i) => insert.run(i + 1, now - age, now - age - 1000 * (i + 1), now - age + 10))
    expect((await latencyReport(deps, now, '1h')).alerts).toBe(1)
    expect((await latencyReport(deps, now, '24h')).alerts).toBe(2)
    const week = await latencyReport(deps, now, '7d')
    expect(week.alerts).toBe(3)
    expect(week.endToEnd.find((s) => s.key === 'created_socket')).toMatchObject({ count: 3, p50Ms: 2010, p99Ms: 3010 })
    expect(await pruneAlertLatency(deps, now)).toBe(1)
  })

  test('alert rows: one per alert that notifies, over several statements of 500; a row already there is kept; claims stamp once', async () => {
    deps = makeDeps()
    const now = deps.now().getTime()
    deps.sqlite.query('INSERT INTO alert_latency (match_id, user_id, matched_at) VALUES (1, 9, 5)').run()
    const created: CreatedMatch[] = Array.from({ length: 1203 }, (_, i) => ({
      userId: 1,
      notify: i % 3 !== 2,
      item: { id: i + 1, postId: null, postCreatedAt: i === 3 ? new Date(now - 4000).toISOString() : null },
    }))
    await insertAlertRows(deps, created, { receivedAt: now - 300, storedAt: now - 100 }, now)
    const count = deps.sqlite.query('SELECT count(*) AS n, min(matched_at) AS first FROM alert_latency').get() as { n: number; first: number }
    expect(count).toEqual({ n: 802, first: 5 })
    expect(await stampClaim(deps, 4, 1, now + 1000, 'push', 'claim')).toEqual({ at: now + 1000, createdAt: now - 4000, channel: 'push', action: 'claim' })
    expect(await stampClaim(deps, 4, 1, now + 2000, 'app', 'open')).toBeNull()
    const delays = await claimDelays(
      deps,
      Array.from({ length: 1203 }, (_, i) => i + 1),
    )
    expect([...delays]).toEqual([[4, { ms: 5000, channel: 'push', action: 'claim' }]])
  })

  test('outbox rows map to their alert by dedupe key', () => {
    expect(alertOfOutboxRow({ kind: 'match', dedupeKey: 'match:42:email' })).toBe(42)
    expect(alertOfOutboxRow({ kind: 'match', dedupeKey: 'match:7:push:3' })).toBe(7)
    expect(alertOfOutboxRow({ kind: 'digest', dedupeKey: 'digest:1:2' })).toBeNull()
  })
})

describe('LOG_FORMAT', () => {
  afterEach(() => {
    setLogFormat('text')
    setLogLevel('silent')
  })
  test('json: one object per line with time, level, message and the fields; the admin ring keeps the text', () => {
    const out = spyOn(console, 'log').mockImplementation(() => {})
    const err = spyOn(console, 'error').mockImplementation(() => {})
    setLogLevel('info')
    setLogFormat('json')
    log.info('GET /api/terms', { status: 200, ms: '1.5' })
    log.warn('scan failed', { error: new Error('rate_limited: 429'), level: 'x' })
    const lines = [...out.mock.calls, ...err.mock.calls].map((c) => JSON.parse(String(c[0])))
    out.mockRestore()
    err.mockRestore()
    expect(lines[0]).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: 'info', message: 'GET /api/terms', status: 200, ms: '1.5' })
    expect(lines[1]).toMatchObject({ level: 'warn', message: 'scan failed', error: 'rate_limited: 429', field_level: 'x' })
    expect(recentLogLines().lines.at(-2)!.text).toBe('GET /api/terms status=200 ms=1.5')
    expect(JSON.parse(jsonLine('t', 'debug', 'm'))).toEqual({ time: 't', level: 'debug', message: 'm' })
  })

  test('config: text by default, json on request, anything else refused', () => {
    expect(parseEnv({}).logFormat).toBe('text')
    expect(parseEnv({ LOG_FORMAT: 'json' }).logFormat).toBe('json')
    expect(() => parseEnv({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT: expected text or json, got "xml"')
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN')
    expect(parseEnv({}).metricsToken).toBeNull()
  })
})
