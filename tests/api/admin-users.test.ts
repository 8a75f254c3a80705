// /api/admin/users (issue 14 items 1, 6, 15): every route refuses the signed-out (401) and
// non-admins (403, the admin-only text); the list searches, filters and pages; each action does
// what it says, is refused with a clear message where it must be, and leaves an audit row.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { accessHistory, auditLog, authFactors, matches, searchTerms, sessions, userAccess, users } from '../../src/db/schema'
import { ADMIN_ONLY } from '../../src/auth/plugin'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { lastEmail, linkIn } from './auth-helpers'

const DAY = 24 * 3600_000
let clock: ReturnType<typeof testClock>
let deps: TestDeps
let app: ReturnType<typeof makeApp>
let admin: Awaited<ReturnType<typeof createUserWithSession>>
let member: Awaited<ReturnType<typeof createUserWithSession>>
let trial: Awaited<ReturnType<typeof createUserWithSession>>

beforeEach(async () => {
  clock = testClock(Date.parse('2026-03-02T12:00:00Z'))
  deps = await makeDeps({ ADMIN_EMAILS: 'root@example.com' }, clock)
  app = makeApp(deps)
  admin = await createUserWithSession(deps, { email: 'admin@example.com', role: 'admin', name: 'Ada Admin' })
  member = await createUserWithSession(deps, { email: 'member@example.com', role: 'product', name: 'Mel Member', password: 'member-password' })
  trial = await createUserWithSession(deps, {
    email: 'trial@example.com',
    role: 'app_trial',
    subscriptionStatus: 'trialing',
    name: 'Tess Trial',
    accessExpiresAt: new Date(clock.now().getTime() + 1.5 * DAY),
  })
})
afterEach(() => deps.close())

const audits = (action?: string) =>
  deps.db
    .select()
    .from(auditLog)
    .all()
    .filter((a) => action === undefined || a.action === action)
const accessOf = (userId: number) => deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get()!

describe('every route: signed out 401, non-admin 403, admin allowed', () => {
  const routes: { method: string; path: (id: number) => string; json?: unknown; adminStatus: number }[] = [
    { method: 'GET', path: () => '/api/admin/users', adminStatus: 200 },
    { method: 'GET', path: (id) => `/api/admin/users/${id}`, adminStatus: 200 },
    { method: 'POST', path: () => '/api/admin/users', json: { email: 'new@example.com', mode: 'confirmed', password: 'new-password' }, adminStatus: 200 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/role`, json: { role: 'gd' }, adminStatus: 200 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/grant`, json: { plan: 'gd', until: '2026-06-30' }, adminStatus: 200 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/trial`, json: { action: 'extend', days: 3 }, adminStatus: 409 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/ban`, adminStatus: 200 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/unban`, adminStatus: 409 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/password-reset`, adminStatus: 200 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/sign-out`, adminStatus: 200 },
    { method: 'POST', path: (id) => `/api/admin/users/${id}/reset-2fa`, adminStatus: 409 },
    { method: 'DELETE', path: (id) => `/api/admin/users/${id}`, json: { confirm: 'member@example.com' }, adminStatus: 200 },
  ]
  for (const r of routes) {
    test(`${r.method} ${r.path(0).replace('/0', '/:id')}`, async () => {
      const path = r.path(member.userId)
      const out = await call(app, r.method, path, { json: r.json })
      expect(out.status).toBe(401)
      const denied = await call(app, r.method, path, { json: r.json, cookie: trial.cookie })
      expect(denied.status).toBe(403)
      expect(denied.body.error.message).toBe(ADMIN_ONLY)
      expect(audits()).toEqual([])
      const ok = await call(app, r.method, path, { json: r.json, cookie: admin.cookie })
      expect(ok.status).toBe(r.adminStatus)
    })
  }
})

describe('GET /api/admin/users', () => {
  const cases: { query: string; emails: string[] }[] = [
    { query: '', emails: ['trial@example.com', 'member@example.com', 'admin@example.com'] },
    { query: '?q=MEL', emails: ['member@example.com'] },
    { query: '?q=trial@', emails: ['trial@example.com'] },
    { query: '?q=%25', emails: [] },
    { query: '?role=admin', emails: ['admin@example.com'] },
    { query: '?role=app_trial', emails: ['trial@example.com'] },
    { query: '?trialEnding=1', emails: ['trial@example.com'] },
    { query: '?status=active', emails: ['trial@example.com', 'member@example.com', 'admin@example.com'] },
    { query: '?status=banned', emails: [] },
    { query: '?pageSize=10&page=1', emails: ['trial@example.com', 'member@example.com', 'admin@example.com'] },
  ]
  for (const c of cases)
    test(`list ${c.query || '(all)'}`, async () => {
      const r = await call(app, 'GET', `/api/admin/users${c.query}`, { cookie: admin.cookie })
      expect(r.status).toBe(200)
      expect(r.body.users.map((u: { email: string }) => u.email)).toEqual(c.emails)
      expect(r.body.total).toBe(c.emails.length)
    })

  test('the trial filter follows the clock: three days out is not ending, an expired trial is trial_expired', async () => {
    deps.db
      .update(userAccess)
      .set({ accessExpiresAt: new Date(clock.now().getTime() + 3 * DAY) })
      .where(eq(userAccess.userId, trial.userId))
      .run()
    expect((await call(app, 'GET', '/api/admin/users?trialEnding=1', { cookie: admin.cookie })).body.total).toBe(0)
    clock.advance(4 * DAY)
    const r = await call(app, 'GET', '/api/admin/users?status=inactive', { cookie: admin.cookie })
    expect(r.body.users.map((u: { email: string; role: string; statusText: string }) => [u.email, u.role, u.statusText])).toEqual([
      ['trial@example.com', 'trial_expired', 'Trial Expired'],
    ])
  })

  test('pages of 10: page 2 holds the rest, a page past the end shows the last', async () => {
    for (let i = 0; i < 12; i++) await createUserWithSession(deps, { email: `bulk${String(i).padStart(2, '0')}@example.com` })
    const p2 = await call(app, 'GET', '/api/admin/users?pageSize=10&page=2', { cookie: admin.cookie })
    expect(p2.body).toMatchObject({ total: 15, page: 2, pages: 2 })
    expect(p2.body.users).toHaveLength(5)
    const p9 = await call(app, 'GET', '/api/admin/users?pageSize=10&page=9', { cookie: admin.cookie })
    expect(p9.body.page).toBe(2)
  })

  const bad: { query: string; message: string }[] = [
    { query: '?role=owner', message: 'Please choose a role: admin, product, gd, product+gd, app_trial, trial_expired, none.' },
    { query: '?status=gone', message: 'Status must be one of active, inactive, banned, unconfirmed.' },
    { query: '?page=0', message: 'Page must be a whole number from 1.' },
    { query: '?pageSize=7', message: 'Page size must be one of 10, 25, 50, 100.' },
  ]
  for (const b of bad)
    test(`refuses ${b.query}`, async () => {
      const r = await call(app, 'GET', `/api/admin/users${b.query}`, { cookie: admin.cookie })
      expect(r.status).toBe(400)
      expect(r.body.error.message).toBe(b.message)
    })
})

describe('GET /api/admin/users/:id', () => {
  test('terms per category, match counts, notification settings, last sign-in, billing state and audit rows', async () => {
    deps.db
      .insert(searchTerms)
      .values([
        { userId: member.userId, category: 'wts', term: 'p365' },
        { userId: member.userId, category: 'wtb', term: 'holster' },
      ])
      .run()
    deps.db
      .insert(matches)
      .values([
        { userId: member.userId, category: 'wts', matchedTerms: ['p365'], postTitle: 'a', postUrl: 'u1' },
        { userId: member.userId, category: 'wts', matchedTerms: ['p365'], postTitle: 'b', postUrl: 'u2', isNew: false },
      ])
      .run()
    await call(app, 'POST', `/api/admin/users/${member.userId}/grant`, { cookie: admin.cookie, json: { plan: 'bundle', until: '2026-04-01' } })
    const r = await call(app, 'GET', `/api/admin/users/${member.userId}`, { cookie: admin.cookie })
    expect(r.status).toBe(200)
    expect(r.body.terms).toEqual({
      wts: [{ id: expect.any(Number), term: 'p365', paused: false }],
      wtb: [expect.objectContaining({ term: 'holster' })],
      gd: [],
    })
    expect(r.body.matchCounts.wts).toEqual({ total: 2, unread: 1, archived: 0 })
    expect(r.body.notifications).toMatchObject({ emailFrequency: 'batched', webPushEnabled: false })
    expect(r.body.user.lastSignInAt).toBe('2026-03-02T12:00:00.000Z')
    expect(r.body.billing).toMatchObject({ role: 'product+gd', subscriptionStatus: 'gifted', grantedBy: 'admin@example.com' })
    expect(r.body.access.statusText).toBe('Active')
    expect(r.body.audit.map((a: { action: string; actor: string }) => [a.action, a.actor])).toEqual([['user.grant', 'admin@example.com']])
  })

  test('an unknown id is 404, a malformed one 400', async () => {
    expect((await call(app, 'GET', '/api/admin/users/999', { cookie: admin.cookie })).status).toBe(404)
    expect((await call(app, 'GET', '/api/admin/users/abc', { cookie: admin.cookie })).status).toBe(400)
  })
})

describe('actions', () => {
  const post = (path: string, json?: unknown) => call(app, 'POST', path, { cookie: admin.cookie, json })

  test('role change: stored with grantedBy = admin and access_history source admin; audited', async () => {
    const r = await post(`/api/admin/users/${member.userId}/role`, { role: 'gd' })
    expect(r.status).toBe(200)
    expect(accessOf(member.userId)).toMatchObject({ role: 'gd', subscriptionStatus: 'active', grantedBy: 'admin@example.com' })
    const h = deps.db.select().from(accessHistory).where(eq(accessHistory.userId, member.userId)).all()
    expect(h.at(-1)).toMatchObject({ role: 'gd', source: 'admin' })
    expect(audits('user.role')).toEqual([
      expect.objectContaining({
        actorId: admin.userId,
        actor: 'admin@example.com',
        target: `user:${member.userId}`,
        result: 'ok',
        details: expect.objectContaining({ role: 'gd', from: 'product', to: 'gd' }),
      }),
    ])
  })

  const refusals: { name: string; run: () => Promise<{ status: number; body: any }>; status: number; message: string; audited?: string }[] = [
    {
      name: 'an admin cannot demote themselves',
      run: () => post(`/api/admin/users/${admin.userId}/role`, { role: 'product' }),
      status: 403,
      message: 'You cannot do this to your own account. Ask another admin.',
      audited: 'user.role',
    },
    {
      name: 'an admin cannot ban themselves',
      run: () => post(`/api/admin/users/${admin.userId}/ban`),
      status: 403,
      message: 'You cannot do this to your own account. Ask another admin.',
      audited: 'user.ban',
    },
    {
      name: 'an admin cannot delete themselves',
      run: () => call(app, 'DELETE', `/api/admin/users/${admin.userId}`, { cookie: admin.cookie, json: { confirm: 'admin@example.com' } }),
      status: 403,
      message: 'You cannot do this to your own account. Ask another admin.',
      audited: 'user.delete',
    },
    {
      name: 'deletion needs the email typed',
      run: () => call(app, 'DELETE', `/api/admin/users/${member.userId}`, { cookie: admin.cookie, json: { confirm: 'member@example' } }),
      status: 400,
      message: "Type the account's email address to confirm the deletion.",
      audited: 'user.delete',
    },
    {
      name: 'unknown role',
      run: () => post(`/api/admin/users/${member.userId}/role`, { role: 'owner' }),
      status: 400,
      message: expect.stringContaining('Please choose a role'),
    },
    {
      name: 'unknown plan',
      run: () => post(`/api/admin/users/${member.userId}/grant`, { plan: 'gold', until: '2026-06-01' }),
      status: 400,
      message: 'Please choose a plan: GAFS, GunDeals (GD) or GAFS + GD.',
    },
    {
      name: 'past end date',
      run: () => post(`/api/admin/users/${member.userId}/grant`, { plan: 'gd', until: '2026-03-01' }),
      status: 400,
      message: 'The end date must be in the future.',
    },
    {
      name: 'not a date',
      run: () => post(`/api/admin/users/${member.userId}/grant`, { plan: 'gd', until: 'soon' }),
      status: 400,
      message: '"soon" is not a date. Use a date like 2026-12-31.',
    },
    { name: 'no end date', run: () => post(`/api/admin/users/${member.userId}/grant`, { plan: 'gd' }), status: 400, message: 'Please choose an end date.' },
    {
      name: 'trial days out of range',
      run: () => post(`/api/admin/users/${trial.userId}/trial`, { action: 'extend', days: 0 }),
      status: 400,
      message: 'Please enter a whole number of days from 1 to 90.',
    },
    {
      name: 'trial action unknown',
      run: () => post(`/api/admin/users/${trial.userId}/trial`, { action: 'pause' }),
      status: 400,
      message: "Action must be 'extend' or 'end'.",
    },
    {
      name: 'ending a trial on a paid account',
      run: () => post(`/api/admin/users/${member.userId}/trial`, { action: 'end' }),
      status: 409,
      message: 'This account is not on a trial.',
      audited: 'user.trial_end',
    },
    {
      name: 'unban a user who is not banned',
      run: () => post(`/api/admin/users/${member.userId}/unban`),
      status: 409,
      message: 'This account is not banned.',
      audited: 'user.unban',
    },
    {
      name: 'reset 2FA without 2FA',
      run: () => post(`/api/admin/users/${member.userId}/reset-2fa`),
      status: 409,
      message: 'This account has no two-factor sign-in.',
      audited: 'user.reset_2fa',
    },
  ]
  for (const r of refusals)
    test(`refused: ${r.name}`, async () => {
      const res = await r.run()
      expect(res.status).toBe(r.status)
      expect(res.body.error.message).toEqual(r.message)
      if (r.audited) expect(audits(r.audited).map((a) => a.result)).toEqual(['failed'])
      else expect(audits()).toEqual([])
    })

  test('an ADMIN_EMAILS admin cannot be demoted through the page', async () => {
    const root = await createUserWithSession(deps, { email: 'root@example.com', role: 'none' })
    const r = await post(`/api/admin/users/${root.userId}/role`, { role: 'gd' })
    expect(r.status).toBe(409)
    expect(r.body.error.message).toBe('This account is an admin through ADMIN_EMAILS. Remove it from that setting to change its role.')
  })

  test('gifted access until the end of the chosen day', async () => {
    const r = await post(`/api/admin/users/${trial.userId}/grant`, { plan: 'gd', until: '2026-05-31' })
    expect(r.status).toBe(200)
    expect(accessOf(trial.userId)).toMatchObject({
      role: 'gd',
      subscriptionStatus: 'gifted',
      grantedBy: 'admin@example.com',
      accessExpiresAt: new Date('2026-05-31T23:59:59.999Z'),
    })
  })

  test('extend a trial from its end; end it now; extend an ended one from now', async () => {
    const before = accessOf(trial.userId).accessExpiresAt!.getTime()
    expect((await post(`/api/admin/users/${trial.userId}/trial`, { action: 'extend', days: 5 })).status).toBe(200)
    expect(accessOf(trial.userId).accessExpiresAt!.getTime()).toBe(before + 5 * DAY)
    expect((await post(`/api/admin/users/${trial.userId}/trial`, { action: 'end' })).status).toBe(200)
    const me = await call(app, 'GET', '/api/me', { cookie: trial.cookie })
    expect(me.body.access).toMatchObject({ userRole: 'trial_expired', hasAccess: false, statusText: 'Trial Expired' })
    expect((await post(`/api/admin/users/${trial.userId}/trial`, { action: 'extend', days: '2' })).status).toBe(200)
    expect(accessOf(trial.userId).accessExpiresAt!.getTime()).toBe(clock.now().getTime() + 2 * DAY)
    expect(audits().map((a) => a.action)).toEqual(['user.trial_extend', 'user.trial_end', 'user.trial_extend'])
  })

  test('ban ends the sessions and refuses sign-in; unban lets them in again', async () => {
    expect((await post(`/api/admin/users/${member.userId}/ban`)).status).toBe(200)
    expect((await call(app, 'GET', '/api/me', { cookie: member.cookie })).status).toBe(401)
    const login = await call(app, 'POST', '/api/auth/login', { json: { email: 'member@example.com', password: 'member-password' } })
    expect(login.status).toBe(403)
    const list = await call(app, 'GET', '/api/admin/users?status=banned', { cookie: admin.cookie })
    expect(list.body.users.map((u: { email: string; statusText: string }) => [u.email, u.statusText])).toEqual([['member@example.com', 'Banned']])
    expect((await post(`/api/admin/users/${member.userId}/unban`)).status).toBe(200)
    expect((await call(app, 'POST', '/api/auth/login', { json: { email: 'member@example.com', password: 'member-password' } })).status).toBe(200)
    expect(audits().map((a) => [a.action, a.result])).toEqual([
      ['user.ban', 'ok'],
      ['user.unban', 'ok'],
    ])
  })

  test('password reset email: the account gets a working link; a banned account is refused', async () => {
    expect((await post(`/api/admin/users/${member.userId}/password-reset`)).status).toBe(200)
    const mail = (await lastEmail(deps, 'member@example.com', 'reset'))!
    const token = new URLSearchParams(linkIn(mail.text).split('?')[1]).get('token')
    expect((await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'brand-new-pass' } })).status).toBe(200)
    await post(`/api/admin/users/${member.userId}/ban`)
    const r = await post(`/api/admin/users/${member.userId}/password-reset`)
    expect(r.status).toBe(409)
    expect(r.body.error.message).toBe('This account is banned. Unban it first.')
  })

  test('sign out everywhere ends every session', async () => {
    expect((await post(`/api/admin/users/${member.userId}/sign-out`)).status).toBe(200)
    expect(deps.db.select().from(sessions).where(eq(sessions.userId, member.userId)).all()).toEqual([])
    expect((await call(app, 'GET', '/api/me', { cookie: admin.cookie })).status).toBe(200)
  })

  test('two-factor reset turns it off', async () => {
    deps.db.insert(authFactors).values({ userId: member.userId, factorType: 'totp', secret: 'JBSWY3DPEHPK3PXP', verifiedAt: clock.now() }).run()
    expect((await post(`/api/admin/users/${member.userId}/reset-2fa`)).status).toBe(200)
    expect(deps.db.select().from(authFactors).where(eq(authFactors.userId, member.userId)).all()).toEqual([])
  })

  test('delete with the email typed (any case) removes the account and its rows; the audit row keeps the email', async () => {
    deps.db.insert(searchTerms).values({ userId: member.userId, category: 'wts', term: 'p365' }).run()
    const r = await call(app, 'DELETE', `/api/admin/users/${member.userId}`, { cookie: admin.cookie, json: { confirm: ' Member@Example.com ' } })
    expect(r.status).toBe(200)
    expect(deps.db.select().from(users).where(eq(users.id, member.userId)).get()).toBeUndefined()
    expect(deps.db.select().from(searchTerms).all()).toEqual([])
    expect(audits('user.delete')).toEqual([expect.objectContaining({ result: 'ok', details: expect.objectContaining({ email: 'member@example.com' }) })])
  })
})

describe('Add user', () => {
  const add = (json: unknown) => call(app, 'POST', '/api/admin/users', { cookie: admin.cookie, json })

  test('confirmed with a password signs in at once and starts like a confirmed sign-up', async () => {
    const r = await add({ email: 'New@Example.com', name: 'Nia', mode: 'confirmed', password: 'new-password' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ email: 'new@example.com', mode: 'confirmed', message: 'Account new@example.com created.' })
    const login = await call(app, 'POST', '/api/auth/login', { json: { email: 'new@example.com', password: 'new-password' } })
    expect(login.status).toBe(200)
    expect(accessOf(r.body.id)).toMatchObject({ role: 'product+gd' }) // billing off: DEFAULT_PLAN
    expect(audits('user.create')).toEqual([
      expect.objectContaining({ result: 'ok', target: null, details: expect.objectContaining({ email: 'new@example.com', mode: 'confirmed' }) }),
    ])
  })

  test('with a role: that role, granted by the admin', async () => {
    const r = await add({ email: 'gd@example.com', mode: 'confirmed', password: 'new-password', role: 'gd' })
    expect(accessOf(r.body.id)).toMatchObject({ role: 'gd', grantedBy: 'admin@example.com' })
  })

  test('invited: an email with a 7-day link that sets the password and confirms the account', async () => {
    const r = await add({ email: 'invitee@example.com', name: 'Ivy', mode: 'invited' })
    expect(r.status).toBe(200)
    expect(r.body.message).toBe('Invitation sent to invitee@example.com.')
    const mail = (await lastEmail(deps, 'invitee@example.com', 'invite'))!
    expect(mail.subject).toBe('You are invited to Dibs')
    expect(mail.text).toContain('Set Your Password')
    clock.advance(6 * DAY)
    const token = new URLSearchParams(linkIn(mail.text).split('?')[1]).get('token')
    expect((await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'invited-pass' } })).status).toBe(200)
    const login = await call(app, 'POST', '/api/auth/login', { json: { email: 'invitee@example.com', password: 'invited-pass' } })
    expect(login.status).toBe(200)
    const u = deps.db
      .select()
      .from(users)
      .where(and(eq(users.email, 'invitee@example.com')))
      .get()!
    expect(u.emailConfirmedAt).not.toBeNull()
  })

  const bad: { json: Record<string, unknown>; status: number; message: string }[] = [
    { json: { email: 'x@example.com' }, status: 400, message: "Please choose 'Confirmed, with a password' or 'Invite by email'." },
    { json: { email: '', mode: 'invited' }, status: 400, message: 'Email is required' },
    { json: { email: 'not-an-email', mode: 'invited' }, status: 400, message: 'Please enter a valid email address.' },
    { json: { email: 'x@example.com', mode: 'confirmed', password: 'short' }, status: 400, message: 'Password must be at least 8 characters long' },
    { json: { email: 'member@example.com', mode: 'invited' }, status: 409, message: 'An account for member@example.com already exists.' },
    { json: { email: 'x@example.com', mode: 'invited', name: 'n'.repeat(101) }, status: 400, message: 'Name must be at most 100 characters long' },
    { json: { email: 'x@example.com', mode: 'invited', role: 'owner' }, status: 400, message: expect.stringContaining('Please choose a role') },
  ]
  for (const b of bad)
    test(`refused: ${JSON.stringify(b.json).slice(0, 70)}`, async () => {
      const r = await add(b.json)
      expect(r.status).toBe(b.status)
      expect(r.body.error.message).toEqual(b.message)
    })
})

describe('a ban reaches open tabs at once', () => {
  test("banning through the page closes the user's WebSocket with 4401; the admin's stays open", async () => {
    const { startTestServer } = await import('../helpers')
    const { SESSION_REVOKED_CLOSE } = await import('../../src/contract/events')
    const server = await startTestServer()
    try {
      const boss = await createUserWithSession(server.deps, { email: 'boss@example.com', role: 'admin' })
      const victim = await createUserWithSession(server.deps, { email: 'victim@example.com' })
      const open = (cookie: string) => {
        const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin: server.url, cookie } } as never)
        const closed = new Promise<{ code: number; reason: string }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, reason: e.reason })))
        const hello = new Promise<void>((resolve) => (ws.onmessage = (e) => JSON.parse(String(e.data)).type === 'hello' && resolve()))
        return { ws, closed, hello }
      }
      const v = open(victim.cookie)
      const b = open(boss.cookie)
      await Promise.all([v.hello, b.hello])
      const r = await fetch(`${server.url}/api/admin/users/${victim.userId}/ban`, { method: 'POST', headers: { origin: server.url, cookie: boss.cookie } })
      expect(r.status).toBe(200)
      const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, Bun.sleep(ms).then(() => 'timeout' as const)])
      expect(await within(v.closed, 2000)).toEqual({ code: SESSION_REVOKED_CLOSE.code, reason: SESSION_REVOKED_CLOSE.reason })
      expect(await within(b.closed, 300)).toBe('timeout')
      b.ws.close()
    } finally {
      await server.stop()
    }
  })
})
