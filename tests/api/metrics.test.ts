// GET /metrics and the alert latency rows through a real flow: a fake Reddit → runScan → a stored
// match → the socket hub (a real WebSocket client) → the outbox → a real SMTP server and a local
// push service. One world for the suite: the scrape before and after shows the counts move.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { AccessState } from '../../src/access/rules'
import { enqueueEmail } from '../../src/outbox/queue'
import type { OutboxWorker } from '../../src/outbox/worker'
import { runScan } from '../../src/scanner/scan'
import { attachListeners } from '../../src/services'
import { addTerm } from '../../src/terms/service'
import { startFakePushService, type FakePushService } from '../fakes/push-service'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { createUserWithSession, startTestServer } from '../helpers'
import { outboxWithPush } from './notify-helpers'

const TOKEN = 'metrics-token-0123456789abcdef'
const FULL: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }

let reddit: FakeReddit
let smtp: FakeSmtp
let push: FakePushService
let server: Awaited<ReturnType<typeof startTestServer>>
let worker: OutboxWorker
let admin: { cookie: string }
let user: { userId: number; cookie: string }
let ws: WebSocket
let before = ''

const origin = () => new URL(server.deps.config.appUrl).origin
const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers })
const send = (method: string, path: string, cookie: string, json: unknown) =>
  fetch(server.url + path, { method, headers: { cookie, origin: origin(), 'content-type': 'application/json' }, body: JSON.stringify(json) })
const scrape = async () => {
  const r = await get('/metrics', { authorization: `Bearer ${TOKEN}` })
  expect(r.status).toBe(200)
  return r.text()
}
/** The value of one series line (`name{labels} value`), 0 when absent. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '))
  return line ? Number(line.slice(series.length + 1)) : 0
}
const until = async (ok: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}
type Row = Record<'created_at' | 'received_at' | 'stored_at' | 'matched_at' | 'socket_at' | 'push_at' | 'email_at', number | null>
const latencyRow = () => server.deps.sqlite.query('SELECT * FROM alert_latency').get() as Row | null

beforeAll(async () => {
  reddit = await startFakeReddit()
  smtp = await startSmtp()
  push = await startFakePushService()
  server = await startTestServer({ REDDIT_BASE_URL: reddit.url, SMTP_URL: smtp.url, METRICS_TOKEN: TOKEN })
  const d = server.deps
  worker = outboxWithPush(d, push, d.metrics.delivered)
  attachListeners(d, { outbox: worker })
  admin = await createUserWithSession(d, { role: 'admin' })
  user = await createUserWithSession(d, { emailFrequency: 'instant' })
  const device = push.subscribe()
  expect((await send('POST', '/api/push/subscriptions', user.cookie, { endpoint: device.endpoint, keys: device.keys })).status).toBe(201)
  expect((await send('PUT', '/api/notifications/preferences', user.cookie, { web_push_enabled: true, email_frequency: 'instant' })).status).toBe(200)
  await addTerm(d, user.userId, FULL, 'wts', 'rmr')
  ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin: origin(), cookie: user.cookie } } as never)
  const messages: string[] = []
  ws.onmessage = (e) => void messages.push(String(e.data))
  await until(() => messages.some((m) => m.includes('"hello"')), 'the socket hello')
  before = await scrape()
  // Reddit times are whole seconds: publish in the second after the term was saved, so the post is newer.
  await Bun.sleep(1005 - (Date.now() % 1000))
  reddit.publish({ title: '[WTS] Trijicon RMR Type 2 - $400', subreddit: 'GunAccessoriesForSale' })
  expect(await runScan(d)).toMatchObject({ status: 'success', postsNew: 1, matchesCreated: 1 })
  await until(() => messages.some((m) => m.includes('"match.new"')), 'match.new on the socket')
  await smtp.waitFor(1, 5000)
  await until(() => push.received.length === 1, 'the push')
  await until(() => {
    const r = latencyRow()
    return r !== null && r.socket_at !== null && r.push_at !== null && r.email_at !== null
  }, 'every latency stamp')
})
afterAll(async () => {
  ws?.close()
  await worker?.stop()
  await server?.stop()
  await reddit?.stop()
  await smtp?.stop()
  await push?.stop()
})

describe('alert latency rows', () => {
  test('an alert gets every timestamp of its path, in order', () => {
    const r = latencyRow()!
    for (const k of ['created_at', 'received_at', 'stored_at', 'matched_at', 'socket_at', 'push_at', 'email_at'] as (keyof Row)[]) expect(r[k]).not.toBeNull()
    expect(r.created_at! % 1000).toBe(0) // Reddit's created_utc
    expect(r.created_at!).toBeLessThanOrEqual(r.received_at!)
    expect(r.received_at!).toBeLessThanOrEqual(r.stored_at!)
    expect(r.stored_at!).toBeLessThanOrEqual(r.matched_at!)
    expect(r.matched_at!).toBeLessThanOrEqual(r.socket_at!)
    expect(r.matched_at!).toBeLessThanOrEqual(r.push_at!)
    expect(r.matched_at!).toBeLessThanOrEqual(r.email_at!)
    expect(r.email_at! - r.created_at!).toBeLessThan(10_000)
  })

  test('GET /api/admin/latency gives each stage and end to end for the window (admins only)', async () => {
    expect((await get('/api/admin/latency?window=1h', { cookie: user.cookie })).status).toBe(403)
    expect((await get('/api/admin/latency?window=2h', { cookie: admin.cookie })).status).toBe(400)
    const body = (await (await get('/api/admin/latency?window=1h', { cookie: admin.cookie })).json()) as any
    expect(body.window).toBe('1h')
    expect(body.alerts).toBe(1)
    const keys = body.stages.map((s: any) => s.key)
    expect(keys).toEqual(['created_received', 'received_stored', 'stored_matched', 'matched_socket', 'matched_push', 'matched_email'])
    for (const s of [...body.stages, ...body.endToEnd]) {
      expect(s.count).toBe(1)
      expect(s.p50Ms).toBe(s.p99Ms) // one alert: every percentile is its value
    }
    const r = latencyRow()!
    expect(body.endToEnd.find((s: any) => s.key === 'created_email').p95Ms).toBe(r.email_at! - r.created_at!)
  })
})

describe('GET /metrics', () => {
  test('refuses without credentials, with a wrong token and for a non-admin session; accepts the token and an admin session', async () => {
    expect((await get('/metrics')).status).toBe(401)
    const wrong = await get('/metrics', { authorization: 'Bearer not-the-token-at-all' })
    expect(wrong.status).toBe(401)
    expect(((await wrong.json()) as any).error.code).toBe('BAD_TOKEN')
    expect((await get('/metrics', { authorization: `Basic ${btoa('a:b')}` })).status).toBe(401)
    expect((await get('/metrics', { cookie: user.cookie })).status).toBe(403)
    const byAdmin = await get('/metrics', { cookie: admin.cookie })
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
    expect(await scrape()).toContain('# TYPE dibs_scans_total counter')
  })

  test('every named series is exposed, and the counts moved with the scan, the match and the deliveries', async () => {
    await get('/readyz')
    const after = await scrape()
    const moved = (series: string, by = 1) => expect(value(after, series) - value(before, series)).toBe(by)
    moved('dibs_scans_total{result="success"}')
    moved('dibs_reddit_requests_total')
    moved('dibs_posts_ingested_total{forum="product"}')
    moved('dibs_matches_created_total{category="wts",alert="true"}')
    moved('dibs_deliveries_total{channel="email",result="sent"}')
    moved('dibs_deliveries_total{channel="push",result="sent"}')
    for (const stage of ['created_received', 'received_stored', 'stored_matched', 'matched_socket', 'matched_push', 'matched_email'])
      moved(`dibs_alert_stage_seconds_count{stage="${stage}"}`)
    for (const channel of ['socket', 'push', 'email']) moved(`dibs_alert_end_to_end_seconds_count{channel="${channel}"}`)
    expect(value(after, 'dibs_scan_duration_seconds_count{result="success"}')).toBe(1)
    expect(value(after, 'dibs_open_sockets')).toBe(1)
    expect(value(after, 'dibs_term_index_terms')).toBe(1)
    expect(value(after, 'dibs_reddit_allowed_per_minute')).toBe(10)
    expect(value(after, 'dibs_reddit_requests_last_minute')).toBeGreaterThanOrEqual(1)
    expect(value(after, 'dibs_reddit_budget_remaining')).toBeGreaterThan(0)
    expect(value(after, 'process_resident_memory_bytes')).toBeGreaterThan(1_000_000)
    expect(after).toContain('dibs_event_loop_lag_seconds ')
    expect(after).toContain('dibs_event_loop_lag_max_seconds ')
    // HTTP by route pattern (never the raw path) and status, with durations.
    expect(value(after, 'dibs_http_requests_total{method="GET",route="/readyz",status="200"}')).toBe(1)
    expect(value(after, 'dibs_http_requests_total{method="GET",route="/metrics",status="401"}')).toBeGreaterThanOrEqual(1)
    expect(value(after, 'dibs_http_request_duration_seconds_count{method="GET",route="/readyz"}')).toBe(1)
    expect(after).not.toContain('route="/api/admin/latency?')
    for (const name of ['dibs_outbox_depth', 'dibs_outbox_oldest_pending_seconds', 'dibs_reddit_rate_limited_total']) expect(after).toContain(`# TYPE ${name} `)
  })

  test('outbox depth and the age of the oldest pending row are read from SQLite at scrape time', async () => {
    const d = server.deps
    // Hold the worker's hand off: a row that is not due yet stays pending.
    const id = (await enqueueEmail(d, 'confirm', { to: 'x@example.com', subject: 's', text: 't', html: '<p>h</p>' }))!
    d.sqlite.run('UPDATE outbox SET next_attempt_at = ?, created_at = ? WHERE id = ?', [Date.now() + 3_600_000, Date.now() - 90_000, id])
    const text = await scrape()
    expect(value(text, 'dibs_outbox_depth{channel="email",status="pending"}')).toBe(1)
    expect(value(text, 'dibs_outbox_oldest_pending_seconds{channel="email"}')).toBeGreaterThanOrEqual(90)
    d.sqlite.run('DELETE FROM outbox WHERE id = ?', [id])
  })

  test('the Grafana dashboard (docs/grafana-dashboard.json) queries only series /metrics exposes, and every one of them', async () => {
    const dashboard = await Bun.file(new URL('../../docs/grafana-dashboard.json', import.meta.url)).json()
    const exprs: string[] = dashboard.panels.flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr))
    const used = new Set(exprs.flatMap((e) => e.match(/\b(dibs|process)_[a-z_]+/g) ?? []).map((n) => n.replace(/_(bucket|count|sum)$/, '')))
    const exposed = new Set([...(await scrape()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!))
    expect([...used].sort()).toEqual([...exposed].sort())
  })

  test('a 429 from Reddit counts as a rate-limited scan', async () => {
    const b = await scrape()
    reddit.setFault('429')
    server.deps.source.budget!.nextAllowedAt = () => 0 // the budget's pacing would hold this second scan back
    const r = await runScan(server.deps)
    expect(r.status).toBe('failed')
    const a = await scrape()
    expect(value(a, 'dibs_reddit_rate_limited_total') - value(b, 'dibs_reddit_rate_limited_total')).toBe(1)
    expect(value(a, 'dibs_scans_total{result="failed"}') - value(b, 'dibs_scans_total{result="failed"}')).toBe(1)
  })
})
