// Reposts and bumps end to end below the browser: posts on the fake Reddit → runScan (stored, linked
// to their listing) → matches → dispatcher → outbox → a real SMTP server and a local push service.
// Post times come from a test clock, so "2 days later" is a clock step, not a wait.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { eq, isNotNull } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { outbox, posts as postsTable } from '../../src/db/schema'
import { rowCount } from '../db-reads'
import type { AccessState } from '../../src/access/rules'
import type { BusEvents, MatchItem } from '../../src/contract/events'
import type { OutboxWorker } from '../../src/outbox/worker'
import { runScan } from '../../src/scanner/scan'
import { attachListeners } from '../../src/services'
import { addTerm } from '../../src/terms/service'
import { startFakePushService, type FakePushService } from '../fakes/push-service'
import { startFakeReddit, type FakeReddit, fakeRedditClient } from '../fakes/reddit'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { outboxWithPush } from './notify-helpers'

const DAY = 24 * 3600_000
const FULL: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }
const ORIGIN = { origin: 'https://dibs.example.com' }

let smtp: FakeSmtp
let push: FakePushService
let fake: FakeReddit | null = null
let deps: TestDeps | null = null
let worker: OutboxWorker | null = null

beforeAll(async () => {
  smtp = await startSmtp()
  push = await startFakePushService()
})
afterAll(async () => {
  await smtp.stop()
  await push.stop()
})
afterEach(async () => {
  await worker?.tick()
  await worker?.stop()
  await fake?.stop()
  deps?.close()
  worker = fake = deps = null
})

async function setup() {
  smtp.messages.length = 0
  push.received.length = 0
  const clock = testClock(Date.parse('2026-11-20T15:00:00Z'))
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  const d = await makeDeps({ SMTP_URL: smtp.url, APP_URL: 'https://dibs.example.com' }, clock)
  deps = d
  const app = makeApp(d)
  worker = outboxWithPush(d, push)
  attachListeners(d, { outbox: worker })
  const client = fakeRedditClient(fake, { clock, timeoutMs: 2000 })
  const events: { name: string; data: any }[] = []
  d.bus.on('match.new', (e: BusEvents['match.new']) => void events.push({ name: 'match.new', data: e }))
  d.bus.on('match.updated', (e: BusEvents['match.updated']) => void events.push({ name: 'match.updated', data: e }))

  /** a subscriber with instant email and one push device, and a term */
  async function subscriber(term: string) {
    const u = await createUserWithSession(d, { emailFrequency: 'instant' })
    const device = push.subscribe()
    expect(
      (await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: { endpoint: device.endpoint, keys: device.keys }, headers: ORIGIN }))
        .status,
    ).toBe(201)
    expect((await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { web_push_enabled: true }, headers: ORIGIN })).status).toBe(200)
    await addTerm(d, u.userId, FULL, 'wts', term)
    return u
  }
  const publish = (title: string, author = 'glock_guy') => fake!.publish({ title, author, created_utc: Math.floor(clock.now().getTime() / 1000) })
  const scan = async () => {
    const r = await runScan(d, client)
    expect(r.status).toBe('success')
    await Bun.sleep(5) // the dispatcher flushes on the next macrotask
    await worker!.tick()
    return r
  }
  const list = async (cookie: string): Promise<MatchItem[]> => {
    const r = await call(app, 'GET', '/api/matches?category=wts', { cookie })
    expect(r.status).toBe(200)
    return r.body.matches
  }
  const alerts = (userId: number) => events.filter((e) => e.name === 'match.new' && e.data.userId === userId && e.data.notify)
  const outboxKeys = async (userId: number) =>
    (await asAsync(d.db).select({ key: outbox.dedupeKey }).from(outbox).where(eq(outbox.userId, userId)).orderBy(outbox.id)).map((r) => r.key)
  return { d, clock, events, subscriber, publish, scan, list, alerts, outboxKeys }
}

describe('reposts and bumps', () => {
  test('a bump 2 days later alerts nobody again; a price cut sends exactly one "Price drop: $450 → $400" alert', async () => {
    const s = await setup()
    const u = await s.subscriber('glock 19')
    s.clock.advance(60_000)
    const t1 = s.clock.now().toISOString()
    s.publish('[WTS] Glock 19 Gen 5 with holster - $450')
    await s.scan()
    await smtp.waitFor(1)
    expect(s.alerts(u.userId)).toHaveLength(1)
    const first = (await s.list(u.cookie))[0]!
    expect(first.repost).toBeNull()
    expect(first.priceDrop).toBeNull()

    // the same listing bumped two days later with touched-up wording, same price: no alert at all
    s.clock.advance(2 * DAY)
    const t2 = s.clock.now().toISOString()
    s.publish('BUMP [WTS] Glock 19 Gen 5 + holster, $450 shipped')
    await s.scan()
    await Bun.sleep(50)
    await worker!.tick()
    expect(s.alerts(u.userId)).toHaveLength(1)
    expect(await s.outboxKeys(u.userId)).toHaveLength(2) // the first alert's email and push, nothing since
    expect(smtp.messages).toHaveLength(1)
    const posts = await asAsync(s.d.db)
      .select({ id: postsTable.id, listingId: postsTable.listingId, price: postsTable.price })
      .from(postsTable)
      .orderBy(postsTable.id)
    expect(posts).toEqual([
      { id: posts[0]!.id, listingId: null, price: 450 },
      { id: posts[1]!.id, listingId: posts[0]!.id, price: 450 },
    ])
    const bumped = await s.list(u.cookie)
    expect(bumped).toHaveLength(1)
    expect(bumped[0]).toMatchObject({
      id: first.id,
      postId: posts[1]!.id,
      title: 'BUMP [WTS] Glock 19 Gen 5 + holster, $450 shipped',
      repost: { firstSeenAt: t1, postedAt: [t1, t2] },
      priceHistory: [{ price: 450, at: t1 }],
      priceDrop: null,
    })

    // a price cut a day later: one alert, on every channel the user has, saying so
    s.clock.advance(DAY)
    const t3 = s.clock.now().toISOString()
    s.publish('[WTS] Glock 19 Gen 5 with holster - $400')
    await s.scan()
    await smtp.waitFor(2)
    for (let i = 0; i < 100 && push.received.length < 2; i++) await Bun.sleep(20)
    expect(s.alerts(u.userId)).toHaveLength(2)
    const mail = smtp.messages[1]!
    expect(mail.subject).toStartWith('Price drop: $450 → $400 · [WTS] Glock 19 Gen 5 with holster - $400')
    expect(mail.text).toContain('Price drop: $450 → $400')
    expect(push.received).toHaveLength(2)
    expect(push.received[1]!.payload).toMatchObject({ title: 'Price drop: $450 → $400', postTitle: '[WTS] Glock 19 Gen 5 with holster - $400' })
    const dropped = await s.list(u.cookie)
    expect(dropped).toHaveLength(1) // the listing once: the drop's match replaced the earlier one
    expect(dropped[0]).toMatchObject({
      isNew: true,
      priceDrop: { from: 450, to: 400 },
      repost: { firstSeenAt: t1, postedAt: [t1, t2, t3] },
      priceHistory: [
        { price: 450, at: t1 },
        { price: 400, at: t3 },
      ],
    })
    expect(s.events.filter((e) => e.name === 'match.updated').map((e) => e.data)).toEqual([{ userId: u.userId, ids: [first.id], change: 'removed' }])
    await Bun.sleep(50)
    await worker!.tick()
    expect(smtp.messages).toHaveLength(2)
    expect(push.received).toHaveLength(2)
  })

  test('a catch-up that brings a post, its bump and its price cut at once stores one match with the whole history', async () => {
    const s = await setup()
    const u = await s.subscriber('eotech exps3')
    s.clock.advance(60_000)
    const created = (daysAgo: number) => Math.floor(s.clock.now().getTime() / 1000) - daysAgo * 86400
    const t = (daysAgo: number) => new Date(created(daysAgo) * 1000).toISOString()
    fake!.publish({ title: '[WTS] EOTech EXPS3-2 - $450', author: 'exps3_seller', created_utc: created(0) })
    s.clock.advance(4 * DAY)
    fake!.publish({ title: '[WTS] BUMP EOTech EXPS3-2, $450 shipped', author: 'exps3_seller', created_utc: created(2) })
    fake!.publish({ title: '[WTS] EOTech EXPS3-2 - $400', author: 'exps3_seller', created_utc: created(0) })
    await s.scan()
    await smtp.waitFor(1)
    const [card, ...rest] = await s.list(u.cookie)
    expect(rest).toHaveLength(0)
    expect(card).toMatchObject({ title: '[WTS] EOTech EXPS3-2 - $400', repost: { postedAt: [t(4), t(2), t(0)] }, priceDrop: { from: 450, to: 400 } })
  })

  test('the same title by another author, a different item by the same author, and a repost after 15 days alert normally', async () => {
    const s = await setup()
    const u = await s.subscriber('glock')
    s.clock.advance(60_000)
    s.publish('[WTS] Glock 19 Gen 5 - $450')
    await s.scan()
    s.clock.advance(DAY)
    s.publish('[WTS] Glock 19 Gen 5 - $450', 'another_seller')
    s.publish('[WTS] Glock 17 Gen 5 - $450')
    await s.scan()
    s.clock.advance(15 * DAY)
    s.publish('[WTS] Glock 19 Gen 5 - $400')
    await s.scan()
    await smtp.waitFor(4)
    expect(s.alerts(u.userId)).toHaveLength(4)
    expect(smtp.messages.map((m) => m.subject.startsWith('Price drop'))).toEqual([false, false, false, false])
    expect(await rowCount(s.d, postsTable, isNotNull(postsTable.listingId))).toBe(0)
    expect(await s.list(u.cookie)).toHaveLength(4)
  })

  test('a user new to a listing gets its cheaper repost as a normal new match, with the history on the card', async () => {
    const s = await setup()
    const cheap = await s.subscriber('holster <$420')
    s.clock.advance(60_000)
    s.publish('[WTS] Safariland 6360 holster - $450')
    await s.scan()
    expect(s.alerts(cheap.userId)).toHaveLength(0)
    s.clock.advance(2 * DAY)
    s.publish('[WTS] Safariland 6360 holster - $400')
    await s.scan()
    await smtp.waitFor(1)
    expect(s.alerts(cheap.userId)).toHaveLength(1)
    expect(smtp.messages[0]!.subject).toBe('[WTS] Safariland 6360 holster - $400 · GAFS WTS match')
    const [card] = await s.list(cheap.cookie)
    expect(card).toMatchObject({ priceDrop: null, priceHistory: [{ price: 450 }, { price: 400 }] })
    expect(card!.repost!.postedAt).toHaveLength(2)
  })
})
