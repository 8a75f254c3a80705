// Notification API scenarios: preferences (defaults, gating), push subscriptions, VAPID key,
// unsubscribe links (GET redirect + RFC 8058 one-click POST) and the contact form.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { contactMessages, notificationPrefs, outbox, pushSubscriptions } from '../../src/db/schema'
import { createUnsubscribeToken, UNSUBSCRIBE_TTL_MS } from '../../src/notify/unsubscribe'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { signupAndConfirm } from './auth-helpers'

let deps: TestDeps
const db = () => asAsync(deps.db)
let app: ReturnType<typeof makeApp>
const clock = testClock(Date.parse('2026-03-01T12:00:00Z'))
beforeEach(async () => {
  deps = await makeDeps({ ADMIN_EMAILS: 'boss@example.com,ops@example.com' }, clock)
  app = makeApp(deps)
})
afterEach(() => deps.close())

describe('GET|PUT /api/notifications/preferences', () => {
  test("a user without a row gets the spec's defaults: email on as the batched digest, push off, and the digest interval", async () => {
    const u = await createUserWithSession(deps)
    const r = await call(app, 'GET', '/api/notifications/preferences', { cookie: u.cookie })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      email_frequency: 'batched',
      web_push_enabled: false,
      digest_interval_minutes: 15,
      gates: { email: { allowed: true }, webPush: { allowed: true } },
    })
  })

  test('a new account (sign-up, confirmation) gets the batched digest; the answer names DIGEST_INTERVAL_MINUTES', async () => {
    deps.close()
    deps = await makeDeps({ DIGEST_INTERVAL_MINUTES: '30' }, clock)
    app = makeApp(deps)
    const { cookie } = await signupAndConfirm(app, deps, 'fresh@example.com')
    const r = await call(app, 'GET', '/api/notifications/preferences', { cookie: cookie! })
    expect(r.body).toMatchObject({ email_frequency: 'batched', web_push_enabled: false, digest_interval_minutes: 30 })
    const put = await call(app, 'PUT', '/api/notifications/preferences', { cookie: cookie!, json: { web_push_enabled: false } })
    expect(put.body).toMatchObject({ email_frequency: 'batched', digest_interval_minutes: 30 })
  })

  test('changes are partial and persist', async () => {
    const u = await createUserWithSession(deps)
    expect((await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { email_frequency: 'batched' } })).status).toBe(200)
    expect((await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { web_push_enabled: true } })).status).toBe(200)
    const r = await call(app, 'GET', '/api/notifications/preferences', { cookie: u.cookie })
    expect(r.body).toMatchObject({ email_frequency: 'batched', web_push_enabled: true })
  })

  const scenarios: { name: string; json: unknown; status: number; message?: string }[] = [
    { name: 'email on without a subscription', json: { email_frequency: 'instant' }, status: 403, message: 'Email notifications require a subscription' },
    { name: 'batched email without a subscription', json: { email_frequency: 'batched' }, status: 403, message: 'Email notifications require a subscription' },
    { name: 'push on without a subscription', json: { web_push_enabled: true }, status: 403, message: 'Web push notifications require a subscription' },
    { name: 'email off is always allowed', json: { email_frequency: 'none' }, status: 200 },
    { name: 'push off is always allowed', json: { web_push_enabled: false }, status: 200 },
    { name: 'an unknown frequency', json: { email_frequency: 'hourly' }, status: 400 },
  ]
  for (const s of scenarios)
    test(`expired trial: ${s.name} → ${s.status}`, async () => {
      const u = await createUserWithSession(deps, { role: 'app_trial', accessExpiresAt: new Date(clock.now().getTime() - 1000) })
      const r = await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: s.json })
      expect(r.status).toBe(s.status)
      if (s.message) expect(r.body.error.message).toBe(s.message)
    })

  test('the gates are reported to the UI', async () => {
    const u = await createUserWithSession(deps, { role: 'trial_expired' })
    const r = await call(app, 'GET', '/api/notifications/preferences', { cookie: u.cookie })
    expect(r.body.gates).toEqual({
      email: { allowed: false, message: 'Email notifications require a subscription' },
      webPush: { allowed: false, message: 'Web push notifications require a subscription' },
    })
  })

  test('signed out → 401', async () => {
    expect((await call(app, 'GET', '/api/notifications/preferences')).status).toBe(401)
    expect((await call(app, 'PUT', '/api/notifications/preferences', { json: { email_frequency: 'none' } })).status).toBe(401)
  })
})

describe('push subscriptions', () => {
  const sub = {
    endpoint: 'https://push.example.com/send/abc',
    keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' },
  }

  test('the VAPID public key is public', async () => {
    const r = await call(app, 'GET', '/api/push/vapid-public-key')
    expect(r.body.publicKey).toBe(deps.config.secrets.vapid.publicKey)
  })

  test('a device subscribes once per endpoint and unsubscribes', async () => {
    const u = await createUserWithSession(deps)
    const a = await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: sub })
    expect(a.status).toBe(201)
    expect(a.body.count).toBe(1)
    expect((await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: sub })).body.count).toBe(1)
    const d = await call(app, 'DELETE', '/api/push/subscriptions', { cookie: u.cookie, json: { endpoint: sub.endpoint } })
    expect(d.body).toEqual({ removed: 1, count: 0 })
  })

  test('an endpoint used by another account on the same browser moves to the new user', async () => {
    const a = await createUserWithSession(deps)
    const b = await createUserWithSession(deps)
    await call(app, 'POST', '/api/push/subscriptions', { cookie: a.cookie, json: sub })
    await call(app, 'POST', '/api/push/subscriptions', { cookie: b.cookie, json: sub })
    const rows = await db().select().from(pushSubscriptions)
    expect(rows.map((r) => r.userId)).toEqual([b.userId])
  })

  test('a non-https endpoint or malformed keys are refused', async () => {
    const u = await createUserWithSession(deps)
    expect((await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: { ...sub, endpoint: 'http://push.example.com/x' } })).status).toBe(400)
    expect((await call(app, 'POST', '/api/push/subscriptions', { cookie: u.cookie, json: { ...sub, keys: { p256dh: 'a b', auth: '!' } } })).status).toBe(400)
  })

  test("one user cannot remove another user's device", async () => {
    const a = await createUserWithSession(deps)
    const b = await createUserWithSession(deps)
    await call(app, 'POST', '/api/push/subscriptions', { cookie: a.cookie, json: sub })
    expect((await call(app, 'DELETE', '/api/push/subscriptions', { cookie: b.cookie, json: { endpoint: sub.endpoint } })).body.removed).toBe(0)
    expect(await db().select().from(pushSubscriptions)).toHaveLength(1)
  })
})

describe('unsubscribe', () => {
  const prefsOf = async (userId: number) => (await db().select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).limit(1))[0]

  test('GET with a valid token (a link scanner, a mail preview) changes nothing: it redirects to the page that asks first', async () => {
    const u = await createUserWithSession(deps)
    const token = createUnsubscribeToken(deps.config.secrets.unsubscribeSecret, u.userId, clock.now())
    for (const method of ['GET', 'HEAD']) {
      const r = await call(app, method, `/api/unsubscribe?token=${token}`)
      expect(r.status).toBe(302)
      expect(r.headers.get('location')).toBe(`/unsubscribe?token=${token}`)
    }
    expect(await prefsOf(u.userId)).toBeUndefined()
    // The page's 'Unsubscribe' button POSTs the same URL from the app's own origin.
    const done = await call(app, 'POST', `/api/unsubscribe?token=${token}`)
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ status: 'success' })
    expect((await prefsOf(u.userId))?.emailFrequency).toBe('none')
  })

  const bad: { name: string; path: () => string; location: string }[] = [
    { name: 'no token', path: () => '/api/unsubscribe', location: '/unsubscribe?status=error&code=MISSING_TOKEN' },
    {
      name: 'a tampered token',
      path: () => `/api/unsubscribe?token=${createUnsubscribeToken(deps.config.secrets.unsubscribeSecret, 1, clock.now())}x`,
      location: '/unsubscribe?status=error&code=TOKEN_INVALID',
    },
    {
      name: 'a token signed with another secret',
      path: () => `/api/unsubscribe?token=${createUnsubscribeToken('other', 1, clock.now())}`,
      location: '/unsubscribe?status=error&code=TOKEN_INVALID',
    },
    {
      name: 'an expired token',
      path: () =>
        `/api/unsubscribe?token=${createUnsubscribeToken(deps.config.secrets.unsubscribeSecret, 1, new Date(clock.now().getTime() - UNSUBSCRIBE_TTL_MS - 1))}`,
      location: '/unsubscribe?status=error&code=TOKEN_INVALID',
    },
    { name: 'garbage', path: () => '/api/unsubscribe?token=not-a-token', location: '/unsubscribe?status=error&code=TOKEN_INVALID' },
  ]
  for (const s of bad)
    test(`GET with ${s.name} → ${s.location}`, async () => {
      await createUserWithSession(deps)
      const r = await call(app, 'GET', s.path())
      expect(r.status).toBe(302)
      expect(r.headers.get('location')).toBe(s.location)
    })

  test('a token for a deleted account is invalid', async () => {
    const token = createUnsubscribeToken(deps.config.secrets.unsubscribeSecret, 999, clock.now())
    expect((await call(app, 'GET', `/api/unsubscribe?token=${token}`)).headers.get('location')).toBe('/unsubscribe?status=error&code=TOKEN_INVALID')
  })

  test('RFC 8058 one-click POST from a mail provider (foreign origin, form body) works', async () => {
    const u = await createUserWithSession(deps)
    const token = createUnsubscribeToken(deps.config.secrets.unsubscribeSecret, u.userId, clock.now())
    const res = await app.handle(
      new Request(`http://localhost:3000/api/unsubscribe?token=${token}`, {
        method: 'POST',
        headers: { origin: 'https://mail.example.net', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    )
    expect(res.status).toBe(200)
    expect((await prefsOf(u.userId))?.emailFrequency).toBe('none')
    const badRes = await app.handle(
      new Request('http://localhost:3000/api/unsubscribe?token=nope', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    )
    expect(badRes.status).toBe(400)
    expect(await badRes.json()).toEqual({ status: 'error', code: 'TOKEN_INVALID' })
  })
})

describe('POST /api/contact', () => {
  test('subject and message are required after trimming', async () => {
    const u = await createUserWithSession(deps)
    for (const json of [{}, { subject: '  ', message: 'hi' }, { subject: 'Hi', message: '\n ' }]) {
      const r = await call(app, 'POST', '/api/contact', { cookie: u.cookie, json })
      expect(r.status).toBe(400)
      expect(r.body.error).toMatchObject({ code: 'MISSING_INFORMATION', title: 'Missing Information', message: 'Please enter a subject and your message.' })
    }
  })

  test('a message is stored and queued to every admin address', async () => {
    const u = await createUserWithSession(deps, { email: 'pat@example.com' })
    const r = await call(app, 'POST', '/api/contact', { cookie: u.cookie, json: { subject: ' Billing question ', message: 'Can I pay yearly?' } })
    expect(r.status).toBe(201)
    const stored = await db().select().from(contactMessages)
    expect(stored).toMatchObject([{ userId: u.userId, email: 'pat@example.com', subject: 'Billing question', message: 'Can I pay yearly?' }])
    const queued = await db().select().from(outbox).where(eq(outbox.kind, 'contact_form'))
    expect(queued.map((q) => (q.payload as { to: string }).to).sort()).toEqual(['boss@example.com', 'ops@example.com'])
    expect((queued[0]!.payload as { headers: Record<string, string> }).headers['Reply-To']).toBe('pat@example.com')
    expect((queued[0]!.payload as { text: string }).text).toContain('Can I pay yearly?')
  })

  test('signed-out visitors must give an email address', async () => {
    expect((await call(app, 'POST', '/api/contact', { json: { subject: 'Hi', message: 'Hello' } })).status).toBe(400)
    expect((await call(app, 'POST', '/api/contact', { json: { subject: 'Hi', message: 'Hello', email: 'guest@example.com' } })).status).toBe(201)
  })

  test('the sixth message within ten minutes is rate limited', async () => {
    const u = await createUserWithSession(deps)
    for (let i = 0; i < 5; i++)
      expect((await call(app, 'POST', '/api/contact', { cookie: u.cookie, json: { subject: `S${i}`, message: 'M' } })).status).toBe(201)
    const r = await call(app, 'POST', '/api/contact', { cookie: u.cookie, json: { subject: 'S6', message: 'M' } })
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toBeTruthy()
  })
})
