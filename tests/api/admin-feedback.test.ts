// /api/admin/feedback (issue 14 item 13): the contact-form inbox — admin only; unread / read /
// resolved filters with counts; state changes; a reply is queued as an email to the sender,
// kept on the message, and audited.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { auditLog, contactMessages } from '../../src/db/schema'
import { ADMIN_ONLY } from '../../src/auth/plugin'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { lastEmail } from './auth-helpers'

let clock: ReturnType<typeof testClock>
let deps: TestDeps
let app: ReturnType<typeof makeApp>
let admin: Awaited<ReturnType<typeof createUserWithSession>>
let member: Awaited<ReturnType<typeof createUserWithSession>>
let first: number
let second: number

beforeEach(async () => {
  clock = testClock(Date.parse('2026-03-02T12:00:00Z'))
  deps = await makeDeps({}, clock)
  app = makeApp(deps)
  admin = await createUserWithSession(deps, { email: 'admin@example.com', role: 'admin' })
  member = await createUserWithSession(deps, { email: 'member@example.com' })
  const r1 = await call(app, 'POST', '/api/contact', { cookie: member.cookie, json: { subject: 'Missing alert', message: 'My p365 term\ndid not alert.' } })
  first = r1.body.id
  clock.advance(60_000)
  second = (await call(app, 'POST', '/api/contact', { cookie: member.cookie, json: { subject: 'Thanks', message: 'Great app' } })).body.id
})
afterEach(() => deps.close())

const audits = () => deps.db.select().from(auditLog).all()
const row = (id: number) => deps.db.select().from(contactMessages).where(eq(contactMessages.id, id)).get()!

describe('every route: signed out 401, non-admin 403, admin allowed', () => {
  const routes: { method: string; path: () => string; json?: unknown }[] = [
    { method: 'GET', path: () => '/api/admin/feedback' },
    { method: 'POST', path: () => `/api/admin/feedback/${first}/state`, json: { state: 'read' } },
    { method: 'POST', path: () => `/api/admin/feedback/${first}/reply`, json: { reply: 'Fixed.' } },
  ]
  for (const r of routes)
    test(`${r.method} ${r.path()}`, async () => {
      expect((await call(app, r.method, r.path(), { json: r.json })).status).toBe(401)
      const denied = await call(app, r.method, r.path(), { json: r.json, cookie: member.cookie })
      expect(denied.status).toBe(403)
      expect(denied.body.error.message).toBe(ADMIN_ONLY)
      expect(audits()).toEqual([])
      expect((await call(app, r.method, r.path(), { json: r.json, cookie: admin.cookie })).status).toBe(200)
    })
})

test('the inbox: newest first, filters and counts follow read → resolved → unresolved → unread', async () => {
  const list = async (filter = '') => (await call(app, 'GET', `/api/admin/feedback${filter}`, { cookie: admin.cookie })).body
  const all = await list()
  expect(all.messages.map((m: { id: number; state: string }) => [m.id, m.state])).toEqual([
    [second, 'unread'],
    [first, 'unread'],
  ])
  expect(all.messages[1]).toMatchObject({
    email: 'member@example.com',
    subject: 'Missing alert',
    message: 'My p365 term\ndid not alert.',
    userId: member.userId,
  })
  const steps: { state: string; counts: Record<string, number>; filter: string; ids: number[] }[] = [
    { state: 'read', counts: { all: 2, unread: 1, read: 1, resolved: 0 }, filter: 'read', ids: [first] },
    { state: 'resolved', counts: { all: 2, unread: 1, read: 0, resolved: 1 }, filter: 'resolved', ids: [first] },
    { state: 'unresolved', counts: { all: 2, unread: 1, read: 1, resolved: 0 }, filter: 'read', ids: [first] },
    { state: 'unread', counts: { all: 2, unread: 2, read: 0, resolved: 0 }, filter: 'unread', ids: [second, first] },
  ]
  for (const s of steps) {
    const r = await call(app, 'POST', `/api/admin/feedback/${first}/state`, { cookie: admin.cookie, json: { state: s.state } })
    expect(r.status).toBe(200)
    const l = await list(`?filter=${s.filter}`)
    expect(l.counts).toEqual(s.counts)
    expect(l.messages.map((m: { id: number }) => m.id)).toEqual(s.ids)
  }
  expect(audits().map((a) => [a.action, a.target, (a.details as { state: string }).state])).toEqual(
    ['read', 'resolved', 'unresolved', 'unread'].map((s) => ['feedback.state', `contact:${first}`, s]),
  )
})

test('a reply is emailed to the sender through the outbox, kept on the message and marks it read', async () => {
  const r = await call(app, 'POST', `/api/admin/feedback/${first}/reply`, {
    cookie: admin.cookie,
    json: { reply: '  Thanks — fixed in the last release.\nTry again?  ' },
  })
  expect(r.status).toBe(200)
  expect(r.body).toMatchObject({ state: 'read', reply: 'Thanks — fixed in the last release.\nTry again?', repliedAt: '2026-03-02T12:01:00.000Z' })
  const mail = (await lastEmail(deps, 'member@example.com', 'contact_reply'))!
  expect(mail.subject).toBe('Re: Missing alert')
  expect(mail.text).toContain('Thanks — fixed in the last release.\nTry again?')
  expect(mail.text).toContain('My p365 term\ndid not alert.')
  expect(row(first)).toMatchObject({ reply: 'Thanks — fixed in the last release.\nTry again?' })
  expect(audits()).toEqual([
    expect.objectContaining({
      action: 'feedback.reply',
      target: `contact:${first}`,
      actor: 'admin@example.com',
      result: 'ok',
      details: { to: 'member@example.com' },
    }),
  ])
})

describe('refusals', () => {
  const cases: { name: string; path: () => string; json?: unknown; status: number; message: string }[] = [
    { name: 'empty reply', path: () => `/api/admin/feedback/${first}/reply`, json: { reply: '   ' }, status: 400, message: 'Please write a reply.' },
    {
      name: 'long reply',
      path: () => `/api/admin/feedback/${first}/reply`,
      json: { reply: 'x'.repeat(5001) },
      status: 400,
      message: 'Please keep the reply under 5000 characters.',
    },
    { name: 'unknown message', path: () => '/api/admin/feedback/999/reply', json: { reply: 'hi' }, status: 404, message: 'No message with that id.' },
    {
      name: 'unknown state',
      path: () => `/api/admin/feedback/${first}/state`,
      json: { state: 'spam' },
      status: 400,
      message: 'State must be one of unread, read, resolved, unresolved.',
    },
    { name: 'bad id', path: () => '/api/admin/feedback/x/state', json: { state: 'read' }, status: 400, message: 'Message id must be a positive whole number.' },
  ]
  for (const c of cases)
    test(c.name, async () => {
      const r = await call(app, 'POST', c.path(), { cookie: admin.cookie, json: c.json })
      expect(r.status).toBe(c.status)
      expect(r.body.error.message).toBe(c.message)
      expect(await lastEmail(deps, 'member@example.com', 'contact_reply')).toBeUndefined()
    })

  test('unknown filter', async () => {
    const r = await call(app, 'GET', '/api/admin/feedback?filter=spam', { cookie: admin.cookie })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toBe('Filter must be one of all, unread, read, resolved.')
  })
})
