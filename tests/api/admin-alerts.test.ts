// Admin Alerts API (issue 14 item 10): the outbox per channel and day, the oldest pending age, failed
// messages with their last error, Retry one / Retry all (delivered for real through the SMTP fake),
// push subscriptions removed as gone (410 from the push service fake), and bounces: not known.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { outbox, pushSubscriptions } from '../../src/db/schema'
import { BOUNCES_TEXT, FAILED_PAGE_SIZE } from '../../src/admin/alerts/view'
import { enqueue, enqueueEmail } from '../../src/outbox/queue'
import type { OutboxWorker } from '../../src/outbox/worker'
import type { OutboxStatus } from '../../src/outbox/status'
import { attachListeners } from '../../src/services'
import { startFakePushService, type FakePushService } from '../fakes/push-service'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { call } from '../helpers'
import { adminWorld, auditRows, expectAdminOnly, type AdminWorld } from './admin-data-helpers'
import { outboxWithPush } from './notify-helpers'

let smtp: FakeSmtp
let push: FakePushService
let w: AdminWorld
let worker: OutboxWorker

beforeAll(async () => {
  smtp = await startSmtp()
  push = await startFakePushService()
})
afterAll(async () => {
  await smtp.stop()
  await push.stop()
})
beforeEach(async () => {
  smtp.messages.length = 0
  w = await adminWorld({ SMTP_URL: smtp.url })
  worker = outboxWithPush(w.deps, push)
  attachListeners(w.deps, { outbox: worker })
})
afterEach(async () => {
  await worker.tick()
  await worker.stop()
  w.deps.close()
})

const T = (iso: string) => new Date(iso)
let n = 0
/** An email row, optionally already failed with an error, created at `at`. */
async function email(opts: { at?: string; status?: OutboxStatus; error?: string; userId?: number | null } = {}) {
  n++
  const id = (await enqueueEmail(w.deps, 'match', { to: `to${n}@example.com`, subject: `Alert ${n}`, text: 't', html: '<p>h</p>' }, { userId: opts.userId }))!
  w.deps.db
    .update(outbox)
    .set({
      status: opts.status ?? 'pending',
      lastError: opts.error ?? null,
      createdAt: T(opts.at ?? '2026-03-10T11:00:00Z'),
      nextAttemptAt: T(opts.at ?? '2026-03-10T11:00:00Z'),
    })
    .where(eq(outbox.id, id))
    .run()
  return id
}
const rowOf = (id: number) => w.deps.db.select().from(outbox).where(eq(outbox.id, id)).get()!

describe('admin only (signed out 401, subscriber 403)', () => {
  const table: [{ method: string; path: string }, number][] = [
    [{ method: 'GET', path: '/api/admin/alerts' }, 200],
    [{ method: 'GET', path: '/api/admin/alerts?days=90' }, 200],
    [{ method: 'GET', path: '/api/admin/alerts/failed' }, 200],
    [{ method: 'POST', path: '/api/admin/alerts/999/retry' }, 404],
    [{ method: 'POST', path: '/api/admin/alerts/retry-failed' }, 200],
  ]
  for (const [route, status] of table) test(`${route.method} ${route.path} → admin ${status}`, () => expectAdminOnly(w, route, status).then(() => undefined))

  test('days other than 7, 30, 90 and pages below 1 are refused', async () => {
    expect((await call(w.app, 'GET', '/api/admin/alerts?days=1', { cookie: w.admin.cookie })).status).toBe(400)
    expect((await call(w.app, 'GET', '/api/admin/alerts/failed?page=0', { cookie: w.admin.cookie })).status).toBe(400)
  })
})

describe('overview', () => {
  test('per channel and day: rows queued by their status now, 0 on empty days; counts, due and the oldest pending age', async () => {
    await worker.stop() // nothing is delivered while the rows are set up
    await email({ at: '2026-03-10T09:00:00Z', status: 'sent' })
    await email({ at: '2026-03-10T11:00:00Z', status: 'pending' })
    await email({ at: '2026-03-08T10:00:00Z', status: 'failed', error: 'boom' })
    await email({ at: '2026-03-09T12:00:00Z', status: 'pending' }) // the oldest pending: 24 h ago
    await email({ at: '2026-02-01T12:00:00Z', status: 'sent' }) // outside 7 days
    const pushId = (await enqueue(w.deps, { channel: 'push', kind: 'match', payload: { subscriptionId: 1, message: {} } }))!
    w.deps.db
      .update(outbox)
      .set({ createdAt: T('2026-03-04T00:00:00Z'), status: 'sent' })
      .where(eq(outbox.id, pushId))
      .run()
    const r = await call(w.app, 'GET', '/api/admin/alerts?days=7', { cookie: w.admin.cookie })
    expect(r.body.labels).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'])
    expect(r.body.channels).toEqual(['email', 'push'])
    expect(r.body.perDay.email).toEqual({
      pending: [0, 0, 0, 0, 0, 1, 1],
      sending: [0, 0, 0, 0, 0, 0, 0],
      sent: [0, 0, 0, 0, 0, 0, 1],
      failed: [0, 0, 0, 0, 1, 0, 0],
    })
    expect(r.body.perDay.push.sent).toEqual([1, 0, 0, 0, 0, 0, 0])
    expect(r.body.queue.email).toEqual({
      pending: 2,
      sending: 0,
      sent: 2,
      failed: 1,
      due: 2,
      oldestPendingAt: '2026-03-09T12:00:00.000Z',
      oldestPendingAgeSeconds: 86_400,
    })
    expect(r.body.queue.push).toMatchObject({ pending: 0, sent: 1, oldestPendingAt: null, oldestPendingAgeSeconds: null })
    expect(r.body.bounces).toEqual({ known: false, text: BOUNCES_TEXT })
    expect(BOUNCES_TEXT).toStartWith('Not known')
    const quarter = await call(w.app, 'GET', '/api/admin/alerts?days=90', { cookie: w.admin.cookie })
    expect(quarter.body.perDay.email.sent.reduce((a: number, b: number) => a + b, 0)).toBe(2)
  })

  test('rows parked outside the queue (quiet hours, a re-check, skipped) are counted; an external channel shows once it has rows', async () => {
    await worker.stop()
    await email({ status: 'held' })
    await email({ status: 'waiting' })
    await email({ status: 'skipped' })
    await email({ status: 'skipped' })
    const hook = (await enqueue(w.deps, { channel: 'webhook', kind: 'match', payload: { endpointId: 1, alert: {} } }))!
    w.deps.db
      .update(outbox)
      .set({ createdAt: T('2026-01-01T00:00:00Z'), status: 'waiting' })
      .where(eq(outbox.id, hook))
      .run() // before the window
    const r = await call(w.app, 'GET', '/api/admin/alerts?days=7', { cookie: w.admin.cookie })
    expect(r.body.channels).toEqual(['email', 'push', 'webhook'])
    expect(r.body.parked).toEqual({
      email: { held: 1, waiting: 1, skipped: 2 },
      push: { held: 0, waiting: 0, skipped: 0 },
      webhook: { held: 0, waiting: 1, skipped: 0 },
    })
    expect(r.body.queue.email).toMatchObject({ pending: 0, sent: 0, failed: 0 })
  })
})

describe('failed messages', () => {
  test('paged, newest first, with the last error, attempts and the recipient account', async () => {
    await worker.stop()
    const ids: number[] = []
    for (let i = 0; i < FAILED_PAGE_SIZE + 5; i++) ids.push(await email({ status: 'failed', error: `550 mailbox ${i} unavailable`, userId: w.user.userId }))
    await email({ status: 'sent' })
    const one = await call(w.app, 'GET', '/api/admin/alerts/failed', { cookie: w.admin.cookie })
    expect(one.body).toMatchObject({ page: 1, pageSize: FAILED_PAGE_SIZE, total: 25, pages: 2 })
    expect(one.body.rows).toHaveLength(FAILED_PAGE_SIZE)
    expect(one.body.rows[0]).toMatchObject({
      id: ids.at(-1),
      channel: 'email',
      kind: 'match',
      email: 'sub@example.com',
      lastError: '550 mailbox 24 unavailable',
    })
    expect(one.body.rows[0]).not.toHaveProperty('payload')
    const two = await call(w.app, 'GET', '/api/admin/alerts/failed?page=2', { cookie: w.admin.cookie })
    expect(two.body.rows.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 5).reverse())
  })
})

describe('retry', () => {
  test('Retry moves a failed row back to pending, wakes the outbox, and the mail is delivered; audited', async () => {
    const id = await email({ status: 'failed', error: 'SMTP 451 try later' })
    w.deps.db.update(outbox).set({ attempts: 15 }).where(eq(outbox.id, id)).run()
    const r = await call(w.app, 'POST', `/api/admin/alerts/${id}/retry`, { cookie: w.admin.cookie })
    expect(r.body).toEqual({ ok: true, id })
    expect(rowOf(id).status).not.toBe('failed')
    const [mail] = await smtp.waitFor(1, 5000)
    expect(mail!.subject).toBe(`Alert ${n}`)
    await worker.tick()
    expect(rowOf(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    expect(auditRows(w, 'outbox.retry')).toMatchObject([{ actor: 'admin@example.com', target: `outbox:${id}`, result: 'ok' }])
  })

  test('only a failed row can be retried: a sent one answers 404 and is left alone (audited as failed)', async () => {
    await worker.stop()
    const id = await email({ status: 'sent' })
    const r = await call(w.app, 'POST', `/api/admin/alerts/${id}/retry`, { cookie: w.admin.cookie })
    expect(r.status).toBe(404)
    expect(rowOf(id).status).toBe('sent')
    expect(auditRows(w, 'outbox.retry').map((a) => a.result)).toEqual(['failed'])
  })

  test('Retry all puts every failed row back and they are delivered; the count is audited', async () => {
    const ids = [await email({ status: 'failed', error: 'x' }), await email({ status: 'failed', error: 'y' }), await email({ status: 'failed', error: 'z' })]
    const r = await call(w.app, 'POST', '/api/admin/alerts/retry-failed', { cookie: w.admin.cookie })
    expect(r.body).toEqual({ count: 3 })
    await smtp.waitFor(3, 5000)
    await worker.tick()
    expect(ids.map((id) => rowOf(id).status)).toEqual(['sent', 'sent', 'sent'])
    expect(auditRows(w, 'outbox.retry_all').map((a) => a.details)).toEqual([{ count: 3 }])
    const again = await call(w.app, 'POST', '/api/admin/alerts/retry-failed', { cookie: w.admin.cookie })
    expect(again.body).toEqual({ count: 0 })
  })
})

describe('push subscriptions removed as gone', () => {
  test("a 410 from the push service deletes the subscription and records 'push.gone' by 'system'; the overview lists it", async () => {
    const device = push.subscribe()
    const sub = w.deps.db
      .insert(pushSubscriptions)
      .values({ userId: w.user.userId, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth, userAgent: 'Firefox on Linux' })
      .returning()
      .get()
    push.respondWith(device.id, 410)
    await enqueue(w.deps, { channel: 'push', kind: 'match', userId: w.user.userId, payload: { subscriptionId: sub.id, message: { title: 'x' } } })
    await Bun.sleep(20)
    await worker.tick()
    expect(w.deps.db.select().from(pushSubscriptions).all()).toEqual([])
    expect(auditRows(w, 'push.gone')).toMatchObject([
      { actor: 'system', actorId: null, target: `push_subscription:${sub.id}`, details: { userId: w.user.userId, status: 410 } },
    ])
    const r = await call(w.app, 'GET', '/api/admin/alerts', { cookie: w.admin.cookie })
    expect(r.body.pushGone.count).toBe(1)
    expect(r.body.pushGone.perDay.at(-1)).toBe(1)
    expect(r.body.pushGone.recent[0]).toMatchObject({
      at: '2026-03-10T12:00:00.000Z',
      userId: w.user.userId,
      status: 410,
      service: push.origin,
      userAgent: 'Firefox on Linux',
    })
  })
})
