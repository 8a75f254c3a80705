// Per-term delivery and quiet hours through the routes and the dispatcher, on a test clock:
// PATCH /api/terms/:id/delivery (validated, own terms only, shown in GET /api/terms), the union
// of two terms' channels, a mute and its expiry, quiet hours (validation, held rows, one summary
// email + one push per device at the end, 'always notify' bypass, digest waiting), held rows
// surviving a restart of the outbox worker.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { matchTerms, outbox, pushSubscriptions, searchTerms } from '../../src/db/schema'
import { runDigests } from '../../src/notify/digest'
import { updateTermDelivery } from '../../src/terms/delivery'
import { runQuietSummaries, SUMMARY_NOTE } from '../../src/notify/quiet-summary'
import { recoverStuckSending } from '../../src/outbox/queue'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { makeMatch } from './notify-helpers'

let deps: TestDeps
let app: ReturnType<typeof makeApp>
// 2026-06-10 21:30 UTC = 23:30 in Berlin (summer, UTC+2)
const clock = testClock(Date.parse('2026-06-10T21:30:00Z'))
beforeEach(() => {
  clock.set(Date.parse('2026-06-10T21:30:00Z'))
  deps = makeDeps({}, clock)
  app = makeApp(deps)
})
afterEach(() => deps.close())

function term(userId: number, text: string) {
  return deps.db.insert(searchTerms).values({ userId, category: 'wts', term: text, createdAt: clock.now() }).returning().get()
}
async function fanOut(userId: number, termIds: number[]) {
  const m = makeMatch(deps, userId)
  for (const id of termIds) deps.db.insert(matchTerms).values({ matchId: m.id, termId: id }).run()
  deps.dispatcher.add({ userId, match: m, notify: true })
  await deps.dispatcher.flush()
  return m
}
const rowsOf = (matchId: number) =>
  deps.db
    .select()
    .from(outbox)
    .all()
    .filter((r) => r.dedupeKey?.startsWith(`match:${matchId}:`))
const keysOf = (matchId: number) =>
  rowsOf(matchId)
    .map((r) => r.dedupeKey!.replace(`match:${matchId}:`, ''))
    .sort()
function device(userId: number, n = 1) {
  return deps.db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: `https://push.example.com/${userId}/${n}`, p256dh: 'x', auth: 'y' })
    .returning()
    .get().id
}
const patch = (cookie: string, id: number, json: unknown) => call(app, 'PATCH', `/api/terms/${id}/delivery`, { cookie, json })

describe('PATCH /api/terms/:id/delivery', () => {
  test('changes are partial, shown with the term, and validated', async () => {
    const u = await createUserWithSession(deps)
    const t = term(u.userId, 'rmr')
    const list = await call(app, 'GET', '/api/terms?category=wts', { cookie: u.cookie })
    expect(list.body.terms[0]).toMatchObject({ delivery: { email: 'default', push: true, endpoints: {} }, mutedUntil: null, alwaysNotify: false })
    expect((await patch(u.cookie, t.id, { email: 'instant' })).body.term.delivery).toEqual({ email: 'instant', push: true, endpoints: {} })
    const r = await patch(u.cookie, t.id, { push: false, always_notify: true, mute: '1h' })
    expect(r.body.term).toMatchObject({
      delivery: { email: 'instant', push: false },
      alwaysNotify: true,
      mutedUntil: new Date(clock.now().getTime() + 3600_000).toISOString(),
    })
    expect((await patch(u.cookie, t.id, { mute: 'forever' })).body.term.mutedUntil).toBe('forever')
    expect((await patch(u.cookie, t.id, { mute: null })).body.term.mutedUntil).toBeNull()
    expect((await patch(u.cookie, t.id, { email: 'hourly' })).status).toBe(400)
    expect((await patch(u.cookie, t.id, { mute: '2h' })).status).toBe(400)
    expect((await patch(u.cookie, t.id, { endpoints: { '999': true } })).body.error.code).toBe('CHANNEL_NOT_FOUND')
    const other = await createUserWithSession(deps)
    expect((await patch(other.cookie, t.id, { email: 'off' })).status).toBe(404)
    expect((await call(app, 'PATCH', `/api/terms/${t.id}/delivery`, { json: { email: 'off' } })).status).toBe(401)
  })
})

describe('updateTermDelivery: two changes at once (docs/atomicity-audit.md C5)', () => {
  test('two toggles of one term started together both stay: the read, merge and write are one transaction', async () => {
    const u = await createUserWithSession(deps)
    const t = term(u.userId, 'rmr')
    // each change checks its channels (an await between the read and the write)
    await Promise.all([
      updateTermDelivery(deps, u.userId, t.id, { email: 'off', endpoints: {} }),
      updateTermDelivery(deps, u.userId, t.id, { push: false, endpoints: {} }),
    ])
    const stored = deps.db.select().from(searchTerms).where(eq(searchTerms.id, t.id)).get()!
    expect(stored.delivery).toMatchObject({ email: 'off', push: false })
  })
})

describe('dispatch with per-term settings', () => {
  test('union of two terms; a muted term alerts nowhere until the mute ends', async () => {
    const u = await createUserWithSession(deps, { emailFrequency: 'batched' })
    await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { web_push_enabled: true } })
    const sub = device(u.userId)
    const a = term(u.userId, 'rmr')
    const b = term(u.userId, 'trijicon')
    await patch(u.cookie, a.id, { email: 'instant', push: false })
    await patch(u.cookie, b.id, { email: 'off' })
    expect(keysOf((await fanOut(u.userId, [a.id])).id)).toEqual(['email'])
    expect(keysOf((await fanOut(u.userId, [b.id])).id)).toEqual([`push:${sub}`])
    expect(keysOf((await fanOut(u.userId, [a.id, b.id])).id)).toEqual(['email', `push:${sub}`])
    await patch(u.cookie, a.id, { mute: '1h' })
    expect(keysOf((await fanOut(u.userId, [a.id])).id)).toEqual([])
    expect(keysOf((await fanOut(u.userId, [a.id, b.id])).id)).toEqual([`push:${sub}`])
    clock.advance(3600_000)
    expect(keysOf((await fanOut(u.userId, [a.id])).id)).toEqual(['email'])
  })

  test('a term set to Digest brings an instant user into the digest; Off and muted terms stay out', async () => {
    clock.set(Date.parse('2026-06-10T12:00:00Z'))
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    const d = term(u.userId, 'rmr')
    const off = term(u.userId, 'holosun')
    await patch(u.cookie, d.id, { email: 'digest' })
    await patch(u.cookie, off.id, { email: 'off' })
    const m1 = await fanOut(u.userId, [d.id])
    await fanOut(u.userId, [off.id])
    expect(keysOf(m1.id)).toEqual([])
    await runDigests(deps) // opens the window for this user
    clock.advance(20 * 60_000)
    const m2 = await fanOut(u.userId, [d.id])
    await fanOut(u.userId, [off.id])
    clock.advance(16 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
    const digest = deps.db.select().from(outbox).where(eq(outbox.kind, 'digest')).get()!
    const html = (digest.payload as { html: string }).html
    expect(html).toContain(m2.title)
    expect(html).not.toContain('holosun')
  })
})

describe('quiet hours', () => {
  test('validated against HH:MM and Intl time zones; the answer has the summary sentence', async () => {
    const u = await createUserWithSession(deps)
    const put = (quiet_hours: unknown) => call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { quiet_hours } })
    expect((await put({ start: '22:00', end: '07:00', time_zone: 'Mars/Base' })).body.error.code).toBe('INVALID_TIME_ZONE')
    expect((await put({ start: '25:00', end: '07:00', time_zone: 'UTC' })).body.error.code).toBe('INVALID_QUIET_HOURS')
    expect((await put({ start: '07:00', end: '07:00', time_zone: 'UTC' })).body.error.code).toBe('INVALID_QUIET_HOURS')
    const ok = await put({ start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' })
    expect(ok.body).toMatchObject({
      quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' },
      quiet_summary: 'Quiet from 22:00 to 07:00 the next morning (Europe/Berlin): email and push wait and arrive as one summary at 07:00.',
    })
    expect((await put(null)).body.quiet_hours).toBeNull()
  })

  test('email and push inside are held and arrive as ONE summary at the end; always-notify terms bypass; held rows survive a restart', async () => {
    const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
    await call(app, 'PUT', '/api/notifications/preferences', {
      cookie: u.cookie,
      json: { web_push_enabled: true, quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' } },
    })
    const d1 = device(u.userId, 1)
    const d2 = device(u.userId, 2)
    const normal = term(u.userId, 'rmr')
    const mustHave = term(u.userId, 'acro p-2')
    await patch(u.cookie, mustHave.id, { always_notify: true })

    const held = [await fanOut(u.userId, [normal.id]), await fanOut(u.userId, [normal.id])]
    const end = new Date('2026-06-11T05:00:00Z') // 07:00 Berlin
    for (const m of held)
      for (const r of rowsOf(m.id)) {
        expect(r.status).toBe('held')
        expect(r.nextAttemptAt.toISOString()).toBe(end.toISOString())
      }
    const urgent = await fanOut(u.userId, [mustHave.id, normal.id])
    expect(rowsOf(urgent.id).map((r) => r.status)).toEqual(['pending', 'pending', 'pending'])

    // A restart in the night: recovery and the worker leave held rows alone.
    await recoverStuckSending(deps)
    await deps.outbox.tick()
    expect(rowsOf(held[0]!.id).every((r) => r.status === 'held')).toBe(true)

    clock.set(end.getTime() - 1000)
    expect(await runQuietSummaries(deps)).toMatchObject({ users: 0 })
    clock.set(end.getTime() + 5000)
    expect(await runQuietSummaries(deps)).toEqual({ users: 1, emails: 1, pushes: 2, channels: 0 })
    const summaries = deps.db
      .select()
      .from(outbox)
      .all()
      .filter((r) => r.dedupeKey?.startsWith('quiet:'))
    const email = summaries.find((r) => r.channel === 'email')!
    const p = email.payload as { subject: string; html: string; text: string }
    expect(p.subject).toBe('[Dibs] 2 new matches while you were away')
    for (const m of held) expect(p.text).toContain(m.title)
    expect(p.text).not.toContain(urgent.title)
    const pushes = summaries.filter((r) => r.channel === 'push')
    expect(pushes.map((r) => (r.payload as { subscriptionId: number }).subscriptionId).sort((a, b) => a - b)).toEqual([d1, d2].sort((a, b) => a - b))
    expect((pushes[0]!.payload as { message: { title: string } }).message.title).toBe('2 new matches while you were away')
    for (const m of held) for (const r of rowsOf(m.id)) expect(r).toMatchObject({ status: 'sent', lastError: SUMMARY_NOTE })
    expect(await runQuietSummaries(deps)).toMatchObject({ users: 0 }) // once
  })

  test('digests wait while quiet hours last', async () => {
    clock.set(Date.parse('2026-06-10T12:00:00Z'))
    const u = await createUserWithSession(deps, { emailFrequency: 'batched' })
    await call(app, 'PUT', '/api/notifications/preferences', { cookie: u.cookie, json: { quiet_hours: { start: '22:00', end: '07:00', time_zone: 'UTC' } } })
    clock.advance(16 * 60_000)
    await runDigests(deps) // the first digest run writes the window's start
    clock.set(Date.parse('2026-06-10T22:30:00Z'))
    await fanOut(u.userId, [term(u.userId, 'rmr').id])
    clock.advance(30 * 60_000)
    expect(await runDigests(deps)).toMatchObject({ sent: 0 })
    clock.set(Date.parse('2026-06-11T07:01:00Z'))
    expect(await runDigests(deps)).toMatchObject({ sent: 1 })
  })
})
