// Delivery end to end below the browser: `match.new` on the bus → dispatcher → durable outbox →
// a real SMTP server (smtp-server) and a local HTTPS push service that decrypts (http_ece) and
// verifies VAPID. Time is a test clock, so backoff and digest windows are stepped, not waited.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { setSetting } from '../../src/settings/service'
import { notificationPrefs, outbox, pushSubscriptions, userAccess } from '../../src/db/schema'
import { runDigests } from '../../src/notify/digest'
import type { OutboxWorker } from '../../src/outbox/worker'
import { attachListeners } from '../../src/services'
import type { MatchItem } from '../../src/contract/events'
import { MAX_ATTEMPTS, outboxCounts, processOutbox } from '../../src/outbox/queue'
import { runTrialEmails } from '../../src/notify/trial'
import { call, createUserWithSession, makeApp, makeDeps, testClock, wire, type TestDeps } from '../helpers'
import { startFakePushService, type FakePushService } from '../fakes/push-service'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { expectAutoSubmitted, expectMailClientLayout, expectTextLikeHtml } from './mail-checks'
import { makeMatch, outboxWithPush } from './notify-helpers'

let smtp: FakeSmtp
let push: FakePushService
let deps: TestDeps
let worker: OutboxWorker
const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))

beforeAll(async () => {
  smtp = await startSmtp()
  push = await startFakePushService()
})
afterAll(async () => {
  await smtp.stop()
  await push.stop()
})
beforeEach(() => {
  smtp.messages.length = 0
  push.received.length = 0
  deps = makeDeps({ SMTP_URL: smtp.url, APP_URL: 'https://dibs.example.com', DIGEST_INTERVAL_MINUTES: '15' }, clock)
  wire(deps)
  worker = outboxWithPush(deps, push)
  attachListeners(deps, { outbox: worker })
})
afterEach(async () => {
  await worker.tick()
  await worker.stop()
  deps.close()
})

const ORIGIN = { origin: 'https://dibs.example.com' }
const put = async (cookie: string, json: unknown) => {
  const r = await call(makeApp(deps), 'PUT', '/api/notifications/preferences', { cookie, json, headers: ORIGIN })
  expect(r.status).toBe(200)
}
const emit = (userId: number, match: MatchItem, notify = true) => deps.bus.emit('match.new', { userId, match, notify })

describe('instant email', () => {
  test('arrives within moments with the subject, post link, matched term and unsubscribe headers', async () => {
    const u = await createUserWithSession(deps, { email: 'pat@example.com', emailFrequency: 'instant' })
    const m = makeMatch(deps, u.userId, { title: '[WTS] Trijicon RMR Type 2 - $350', term: 'trijicon rmr' })
    const t0 = Date.now()
    emit(u.userId, m)
    const [mail] = await smtp.waitFor(1, 5000)
    expect(Date.now() - t0).toBeLessThan(3000)
    expect(mail!.to).toEqual(['pat@example.com'])
    expect(mail!.subject).toStartWith('[WTS] Trijicon RMR Type 2 - $350')
    expect(mail!.text).toContain(m.url)
    expect(mail!.text).toContain('Matched term: trijicon rmr')
    expect(mail!.html).toContain(`href="${m.url}"`)
    expect(mail!.headers['list-unsubscribe']).toMatch(/^<https:\/\/dibs\.example\.com\/api\/unsubscribe\?token=[\w.-]+>$/)
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    expect(mail!.headers['content-type']).toContain('multipart/alternative')
  })

  test("opening the email's unsubscribe link changes nothing; the one-click POST of its List-Unsubscribe URL turns alert emails off", async () => {
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    emit(u.userId, makeMatch(deps, u.userId))
    const [mail] = await smtp.waitFor(1)
    const link = /<(https:\/\/dibs\.example\.com[^>]+)>/.exec(mail!.headers['list-unsubscribe']!)![1]!
    const path = link.replace('https://dibs.example.com', '')
    expect(mail!.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`)
    const opened = await call(makeApp(deps), 'GET', path)
    expect(opened.headers.get('location')).toStartWith('/unsubscribe?token=')
    expect(deps.db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, u.userId)).get()?.emailFrequency).toBe('instant')
    const oneClick = await makeApp(deps).handle(
      new Request(link, {
        method: 'POST',
        headers: { origin: 'https://mail.example.net', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    )
    expect(oneClick.status).toBe(200)
    emit(u.userId, makeMatch(deps, u.userId))
    await Bun.sleep(20)
    await worker.tick()
    expect(smtp.messages).toHaveLength(1)
  })

  test('a match re-emitted (rescan, restart) is sent once: dedupe key match:<id>:email', async () => {
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    const m = makeMatch(deps, u.userId)
    emit(u.userId, m)
    emit(u.userId, m)
    await smtp.waitFor(1)
    await worker.tick()
    emit(u.userId, m)
    await Bun.sleep(20)
    await worker.tick()
    expect(smtp.messages).toHaveLength(1)
    expect(
      deps.db
        .select()
        .from(outbox)
        .all()
        .map((r) => r.dedupeKey),
    ).toEqual([`match:${m.id}:email`])
  })

  test('backfill matches (notify: false), batched and none users, locked and paused accounts get no instant email', async () => {
    const a = await createUserWithSession(deps, { emailFrequency: 'instant' })
    emit(a.userId, makeMatch(deps, a.userId, { source: 'backfill' }), false)
    const b = await createUserWithSession(deps)
    deps.db.insert(notificationPrefs).values({ userId: b.userId, emailFrequency: 'batched' }).run()
    emit(b.userId, makeMatch(deps, b.userId))
    const c = await createUserWithSession(deps)
    deps.db.insert(notificationPrefs).values({ userId: c.userId, emailFrequency: 'none' }).run()
    emit(c.userId, makeMatch(deps, c.userId))
    const d = await createUserWithSession(deps, { role: 'trial_expired', emailFrequency: 'instant' })
    emit(d.userId, makeMatch(deps, d.userId))
    await setSetting(deps, 'is_emergency_paused', true)
    const e = await createUserWithSession(deps, { emailFrequency: 'instant' })
    emit(e.userId, makeMatch(deps, e.userId))
    await Bun.sleep(20)
    await worker.tick()
    expect(deps.db.select().from(outbox).all()).toHaveLength(0)
    expect(smtp.messages).toHaveLength(0)
  })

  test('while paused, queued alerts wait in the queue and go out after the pause ends; account emails still go', async () => {
    const { enqueueEmail } = await import('../../src/outbox/queue')
    await setSetting(deps, 'is_emergency_paused', true)
    await enqueueEmail(deps, 'match', { to: 'a@example.com', subject: 'alert', text: 't', html: 'h' }, { dedupeKey: 'match:999:email' })
    await enqueueEmail(deps, 'confirm', { to: 'a@example.com', subject: 'confirm', text: 't', html: 'h' })
    await smtp.waitFor(1)
    await worker.tick()
    expect(smtp.messages.map((m) => m.subject)).toEqual(['confirm'])
    expect((await outboxCounts(deps, 'email')).pending).toBe(1)
    await setSetting(deps, 'is_emergency_paused', false)
    await worker.tick()
    await smtp.waitFor(2)
    expect(smtp.messages.map((m) => m.subject)).toEqual(['confirm', 'alert'])
  })
})

describe('alert emails in real mail clients', () => {
  test('an instant alert: the post title first in the subject, a table layout with its own background, List-Id, Auto-Submitted, a text part like the HTML', async () => {
    const u = await createUserWithSession(deps, { email: 'pat@example.com', emailFrequency: 'instant' })
    const m = makeMatch(deps, u.userId, { title: '[WTS] Trijicon RMR Type 2 - $350', term: 'trijicon rmr' })
    emit(u.userId, m)
    const [mail] = await smtp.waitFor(1)
    expect(mail!.subject).toStartWith('[WTS] Trijicon RMR Type 2 - $350')
    expect(mail!.subject).toContain('GAFS WTS match')
    expectMailClientLayout(mail!, { button: true })
    expectAutoSubmitted(mail!)
    expect(mail!.headers['list-id']).toBe('"Dibs alerts" <alerts.dibs.example.com>')
    expectTextLikeHtml(mail!, ['[WTS] Trijicon RMR Type 2 - $350', `u/${m.author}`, 'Matched term: trijicon rmr'])
  })

  test('a digest: the same layout and headers; its text part names every author, like the HTML', async () => {
    const u = await createUserWithSession(deps, { email: 'dig@example.com' })
    clock.advance(1000)
    const made = [
      makeMatch(deps, u.userId, { category: 'wts', title: '[WTS] Aimpoint T2 & "mount"', term: 'aimpoint' }),
      makeMatch(deps, u.userId, { category: 'gd', title: '[Optic] Holosun 507c $299', term: 'holosun' }),
    ]
    clock.advance(16 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
    const [mail] = await smtp.waitFor(1)
    expectMailClientLayout(mail!, { button: true })
    expectAutoSubmitted(mail!)
    expect(mail!.headers['list-id']).toBe('"Dibs alerts" <alerts.dibs.example.com>')
    expectTextLikeHtml(mail!, [...made.flatMap((m) => [m.title, `u/${m.author}`]), 'Matched term: holosun'])
  })

  test('account emails from this folder (trial reminder) carry Auto-Submitted but no List-Id', async () => {
    await createUserWithSession(deps, { role: 'app_trial', accessExpiresAt: new Date(clock.now().getTime() + 86_400_000) })
    expect(await runTrialEmails(deps)).toMatchObject({ ending: 1 })
    const [mail] = await smtp.waitFor(1)
    expectMailClientLayout(mail!, { button: true })
    expectAutoSubmitted(mail!)
    expect(mail!.headers['list-id']).toBeUndefined()
    expectTextLikeHtml(mail!)
  })
})

describe('default frequency', () => {
  test('an account that never chose gets no email per match: its matches arrive together in the next digest', async () => {
    const u = await createUserWithSession(deps, { email: 'quiet@example.com' })
    clock.advance(1000)
    const made = [1, 2, 3].map((i) => makeMatch(deps, u.userId, { title: `[WTS] Aimpoint Micro #${i}` }))
    for (const m of made) emit(u.userId, m)
    await Bun.sleep(50)
    await worker.tick()
    expect(smtp.messages).toHaveLength(0)
    expect(deps.db.select().from(outbox).all()).toHaveLength(0)
    clock.advance(14 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 0 }) // the window opened at confirmation
    clock.advance(60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
    const [mail] = await smtp.waitFor(1)
    expect(mail!.to).toEqual(['quiet@example.com'])
    for (const m of made) expect(mail!.text).toContain(m.url)
    // The window moved on (its row now exists): the next run sends nothing twice.
    clock.advance(15 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 0 })
    expect(deps.db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, u.userId)).get()).toMatchObject({ emailFrequency: 'batched' })
  })
})

describe('default frequency, accounts from before it changed', () => {
  test('an account that never chose and had instant emails gets no repeat of them in its first digest', async () => {
    const u = await createUserWithSession(deps, { email: 'old@example.com' })
    clock.advance(30 * 86_400_000)
    const { enqueueEmail } = await import('../../src/outbox/queue')
    const emailed = makeMatch(deps, u.userId, { title: '[WTS] emailed on its own before the upgrade' })
    await enqueueEmail(deps, 'match', { to: u.email, subject: emailed.title, text: emailed.url, html: 'h' }, { dedupeKey: `match:${emailed.id}:email` })
    await smtp.waitFor(1)
    clock.advance(60_000)
    const fresh = makeMatch(deps, u.userId, { title: '[WTS] made after the upgrade' })
    clock.advance(60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
    const [, digest] = await smtp.waitFor(2)
    expect(digest!.text).toContain(fresh.url)
    expect(digest!.text).not.toContain(emailed.url)
  })
})

describe('durable delivery', () => {
  test('with the SMTP server down, matches made meanwhile are all delivered once after it comes back on the same port', async () => {
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    await smtp.stop()
    const made = [1, 2, 3].map(() => makeMatch(deps, u.userId))
    for (const m of made) emit(u.userId, m)
    await Bun.sleep(50)
    await worker.tick()
    expect(await outboxCounts(deps, 'email')).toMatchObject({ pending: 3, sent: 0 })
    expect(
      deps.db
        .select()
        .from(outbox)
        .all()
        .every((r) => r.attempts >= 1 && r.lastError),
    ).toBe(true)
    // Still down at the first retry.
    clock.advance(6_000)
    await worker.tick()
    expect((await outboxCounts(deps, 'email')).pending).toBe(3)
    await smtp.start()
    clock.advance(60_000)
    await worker.tick()
    await smtp.waitFor(3)
    clock.advance(3_600_000)
    await worker.tick()
    await Bun.sleep(100)
    expect(smtp.messages).toHaveLength(3)
    expect(new Set(smtp.messages.map((m) => m.subject)).size).toBe(3)
    expect(await outboxCounts(deps, 'email')).toMatchObject({ pending: 0, sent: 3, failed: 0 })
  })

  test(`a row that keeps failing ends in the failed state after ${MAX_ATTEMPTS} attempts, kept for the admin`, async () => {
    const localClock = testClock(Date.parse('2026-03-01T12:00:00Z'))
    const local = makeDeps({}, localClock)
    const { enqueueEmail } = await import('../../src/outbox/queue')
    await enqueueEmail(local, 'match', { to: 'x@example.com', subject: 's', text: 't', html: 'h' })
    let calls = 0
    const failing = {
      email: async () => {
        calls++
        throw new Error('connection refused')
      },
    }
    for (let i = 0; i < MAX_ATTEMPTS + 3; i++) {
      await processOutbox(local, failing)
      localClock.advance(2 * 3_600_000)
    }
    expect(calls).toBe(MAX_ATTEMPTS)
    const [row] = local.db.select().from(outbox).all()
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'connection refused' })
    local.close()
  })
})

describe('digest', () => {
  test('a batched user gets one digest per interval listing every new match grouped by category with link and term', async () => {
    const u = await createUserWithSession(deps, { email: 'dig@example.com' })
    await put(u.cookie, { email_frequency: 'batched' })
    clock.advance(1000)
    const wts = makeMatch(deps, u.userId, { category: 'wts', title: '[WTS] Aimpoint T2', term: 'aimpoint' })
    const gd = makeMatch(deps, u.userId, { category: 'gd', title: '[Optic] Holosun 507c $299', term: 'holosun' })
    const wtb = makeMatch(deps, u.userId, { category: 'wtb', title: '[WTB] Glock 19 mags', term: 'glock mag*' })
    const wts2 = makeMatch(deps, u.userId, { category: 'wts', title: '[WTS] EOTech EXPS3', term: 'eotech' })
    makeMatch(deps, u.userId, { category: 'wts', title: 'backfilled', source: 'backfill' })
    for (const m of [wts, gd, wtb, wts2]) emit(u.userId, m)
    expect(await runDigests(deps)).toMatchObject({ sent: 0 }) // window not over yet
    clock.advance(15 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
    const [mail] = await smtp.waitFor(1)
    expect(mail!.subject).toBe('[Dibs] 4 new matches in your digest')
    const text = mail!.text
    expect(text.indexOf('== GAFS WTS (2) ==')).toBeLessThan(text.indexOf('== GAFS WTB (1) =='))
    expect(text.indexOf('== GAFS WTB (1) ==')).toBeLessThan(text.indexOf('== Gundeals (1) =='))
    for (const m of [wts, gd, wtb, wts2]) expect(text).toContain(m.url)
    expect(text).toContain('Matched term: glock mag*')
    expect(text).not.toContain('backfilled')
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    // The next window starts empty: nothing to send.
    clock.advance(15 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 0 })
    makeMatch(deps, u.userId, { title: 'later one' })
    clock.advance(15 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
    await smtp.waitFor(2)
    expect(smtp.messages[1]!.subject).toBe('[Dibs] 1 new match in your digest')
  })
})

describe('web push', () => {
  async function pushUser() {
    const u = await createUserWithSession(deps)
    const app = makeApp(deps)
    const device = push.subscribe()
    expect(
      (await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: { endpoint: device.endpoint, keys: device.keys }, headers: ORIGIN }))
        .status,
    ).toBe(201)
    await put(u.cookie, { web_push_enabled: true, email_frequency: 'none' })
    return { ...u, device }
  }
  const waitPush = async (n: number) => {
    for (let i = 0; i < 250 && push.received.length < n; i++) await Bun.sleep(20)
    return push.received
  }

  test('a match is pushed encrypted (aes128gcm) with VAPID; the payload has the post title, category and matched term', async () => {
    const u = await pushUser()
    const m = makeMatch(deps, u.userId, { category: 'wtb', title: '[WTB] Surefire X300', term: 'x300' })
    emit(u.userId, m)
    const [got] = await waitPush(1)
    expect(got!.id).toBe(u.device.id)
    expect(got!.payload).toMatchObject({
      title: 'New GAFS WTB match',
      postTitle: '[WTB] Surefire X300',
      category: 'wtb',
      matchedTerm: 'x300',
      matchId: m.id,
      url: `https://dibs.example.com/dashboard/gafs/wtb?match=${m.id}`,
      postUrl: m.url,
    })
    expect(got!.headers.urgency).toBe('high')
    expect(push.rejected).toEqual([])
    expect(
      deps.db
        .select()
        .from(outbox)
        .all()
        .map((r) => r.dedupeKey),
    ).toEqual([`match:${m.id}:push:1`])
  })

  test('the VAPID Authorization header is signed once per push service and reused', async () => {
    const u = await pushUser()
    for (let i = 0; i < 3; i++) emit(u.userId, makeMatch(deps, u.userId))
    const got = await waitPush(3)
    expect(got).toHaveLength(3)
    expect(new Set(got.map((g) => g.jwt)).size).toBe(1)
  })

  test('a 410 Gone deletes the subscription and fails the row without retrying', async () => {
    const u = await pushUser()
    push.respondWith(u.device.id, 410)
    emit(u.userId, makeMatch(deps, u.userId))
    await worker.tick()
    await Bun.sleep(50)
    await worker.tick()
    expect(deps.db.select().from(pushSubscriptions).all()).toHaveLength(0)
    const [row] = deps.db.select().from(outbox).all()
    expect(row).toMatchObject({ channel: 'push', status: 'failed', attempts: 1 })
    expect(row!.lastError).toContain('410')
  })

  test('a 500 from the push service is retried with backoff and then delivered', async () => {
    const u = await pushUser()
    push.respondWith(u.device.id, 503)
    emit(u.userId, makeMatch(deps, u.userId))
    await Bun.sleep(50)
    await worker.tick()
    expect((await outboxCounts(deps, 'push')).pending).toBe(1)
    push.respondWith(u.device.id, 201)
    clock.advance(10_000)
    await worker.tick()
    expect(await waitPush(1)).toHaveLength(1)
    expect(await outboxCounts(deps, 'push')).toMatchObject({ sent: 1, pending: 0 })
  })
})

describe('trial emails', () => {
  test('"ending soon" two days before the end and "ended" after it, each once', async () => {
    const u = await createUserWithSession(deps, { role: 'app_trial', accessExpiresAt: new Date(clock.now().getTime() + 3 * 86_400_000) })
    expect(await runTrialEmails(deps)).toEqual({ ending: 0, ended: 0 })
    clock.advance(1.5 * 86_400_000)
    expect(await runTrialEmails(deps)).toEqual({ ending: 1, ended: 0 })
    expect(await runTrialEmails(deps)).toEqual({ ending: 0, ended: 0 })
    clock.advance(2 * 86_400_000)
    expect(await runTrialEmails(deps)).toEqual({ ending: 0, ended: 1 })
    expect(await runTrialEmails(deps)).toEqual({ ending: 0, ended: 0 })
    await smtp.waitFor(2)
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Your Dibs trial is ending soon', 'Your Dibs free trial has ended'])
    expect(smtp.messages[0]!.text).toContain('https://dibs.example.com/dashboard/subscription')
    const access = deps.db.select().from(userAccess).where(eq(userAccess.userId, u.userId)).get()!
    expect(access.trialEndingNotifiedAt).not.toBeNull()
    expect(access.trialEndedNotifiedAt).not.toBeNull()
  })
})
