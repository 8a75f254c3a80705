// Issue 28 §1: personal access tokens. Created, listed and revoked from a session; stored hashed;
// `Authorization: Bearer` on the user's /api routes within the token's scopes; expiry on the test
// clock; revocation at once; a rate limit per token; admin routes and credential routes never.
import { describe, expect, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { accessTokens, matches, searchTerms } from '../../src/db/schema'
import { banUser } from '../../src/auth/service'
import { TOKEN_REQUESTS_PER_MINUTE } from '../../src/auth/token-gate'
import { storePosts } from '../../src/forums/store'
import { setSetting } from '../../src/settings/service'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, eachTestApp } from '../helpers'

const t = eachTestApp()
const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }

async function newToken(cookie: string, body: Record<string, unknown> = { name: 'script', scopes: ['read'] }) {
  const r = await call(t.app, 'POST', '/api/tokens', { cookie, json: body })
  expect(r.status).toBe(201)
  return r.body as { id: number; token: string }
}

const bearer = (token: string, extra: Record<string, string> = {}) => ({ headers: { authorization: `Bearer ${token}`, ...extra } })

/** A user with a 'widget' term and one live match of it. */
async function userWithMatch(opts: { role?: string; email?: string } = {}) {
  const user = await createUserWithSession(t.deps, opts)
  await addTerm(t.deps, user.userId, FULL, 'wts', 'widget')
  const stored = await storePosts(t.deps, [forumPost('[WTS] Widget - $100', { now: t.clock.now().getTime(), ageMs: 1000 })])
  await matchPosts(t.deps, stored, 'live')
  const [{ id: matchId }] = await asAsync(t.deps.db).select({ id: matches.id }).from(matches).where(eq(matches.userId, user.userId)).limit(1)
  return { ...user, matchId }
}

describe('creating, listing and revoking tokens', () => {
  test('a token is shown once with its prefix, listed without it, and stored only as a hash', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const made = await call(t.app, 'POST', '/api/tokens', { cookie, json: { name: 'my bot', scopes: ['read', 'write'], expiresInDays: 30 } })
    expect(made.status).toBe(201)
    expect(made.body.token).toMatch(/^dibs_pat_[A-Za-z0-9_-]{43}$/)
    expect(made.body).toMatchObject({ id: expect.any(Number), name: 'my bot', scopes: ['read', 'write'], lastUsedAt: null, expired: false })
    expect(new Date(made.body.expiresAt).getTime()).toBe(t.clock.now().getTime() + 30 * 86_400_000)

    const list = await call(t.app, 'GET', '/api/tokens', { cookie })
    expect(list.body.tokens).toHaveLength(1)
    expect(list.body.tokens[0]).toMatchObject({ id: made.body.id, name: 'my bot', hint: `${made.body.token.slice(0, 13)}…`, lastUsedAt: null })
    expect(list.text).not.toContain(made.body.token)
    const stored = JSON.stringify(await asAsync(t.deps.db).select().from(accessTokens))
    expect(stored).not.toContain(made.body.token)
    expect(stored).toContain(new Bun.CryptoHasher('sha256').update(made.body.token).digest('hex'))
  })

  test('the last use is shown after a call with the token', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie)
    t.clock.advance(5000)
    expect((await call(t.app, 'GET', '/api/terms?category=wts', bearer(token))).status).toBe(200)
    const list = await call(t.app, 'GET', '/api/tokens', { cookie })
    expect(list.body.tokens[0].lastUsedAt).toBe(t.clock.now().toISOString())
  })

  test.each([
    [{ scopes: ['read'] }, 'name'],
    [{ name: 'x', scopes: [] }, 'Scopes'],
    [{ name: 'x', scopes: ['admin'] }, 'Scopes'],
    [{ name: 'x', scopes: ['read'], expiresInDays: 0 }, 'expiresInDays'],
    [{ name: 'x', scopes: ['read'], expiresInDays: 1.5 }, 'expiresInDays'],
    [{ name: 'x', scopes: ['read'], expiresInDays: 366 }, 'expiresInDays'],
  ])('%o is refused with words (400)', async (body, word) => {
    const { cookie } = await createUserWithSession(t.deps)
    const r = await call(t.app, 'POST', '/api/tokens', { cookie, json: body })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toContain(word)
  })

  test('signed out, the token routes answer 401', async () => {
    expect((await call(t.app, 'GET', '/api/tokens')).status).toBe(401)
    expect((await call(t.app, 'POST', '/api/tokens', { json: { name: 'x', scopes: ['read'] } })).status).toBe(401)
  })

  test("revoking makes the token answer 401 at once; another user's token cannot be revoked", async () => {
    const a = await createUserWithSession(t.deps)
    const b = await createUserWithSession(t.deps)
    const { id, token } = await newToken(a.cookie)
    expect((await call(t.app, 'GET', '/api/unread', bearer(token))).status).toBe(200)
    expect((await call(t.app, 'DELETE', `/api/tokens/${id}`, { cookie: b.cookie })).status).toBe(404)
    expect((await call(t.app, 'GET', '/api/unread', bearer(token))).status).toBe(200)
    expect((await call(t.app, 'DELETE', `/api/tokens/${id}`, { cookie: a.cookie })).status).toBe(200)
    const after = await call(t.app, 'GET', '/api/unread', bearer(token))
    expect(after.status).toBe(401)
    expect(after.body.error).toMatchObject({ code: 'TOKEN_INVALID', message: 'This token is invalid, expired or revoked.' })
    expect((await call(t.app, 'GET', '/api/tokens', { cookie: a.cookie })).body.tokens).toEqual([])
  })

  test('a token expires on its day (test clock): 401, and the list says expired', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie, { name: 'short', scopes: ['read'], expiresInDays: 1 })
    t.clock.advance(86_400_000 - 1)
    expect((await call(t.app, 'GET', '/api/unread', bearer(token))).status).toBe(200)
    t.clock.advance(1)
    expect((await call(t.app, 'GET', '/api/unread', bearer(token))).status).toBe(401)
    expect((await call(t.app, 'GET', '/api/tokens', { cookie })).body.tokens[0].expired).toBe(true)
  })

  test("a banned user's token answers 401", async () => {
    const { cookie, userId } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie)
    await banUser(t.deps, userId)
    expect((await call(t.app, 'GET', '/api/unread', bearer(token))).status).toBe(401)
  })

  test('unknown tokens answer 401, whatever their shape', async () => {
    for (const token of ['dibs_pat_nope', 'not-a-dibs-token', `dibs_pat_${'A'.repeat(43)}`])
      expect((await call(t.app, 'GET', '/api/terms?category=wts', bearer(token))).status).toBe(401)
  })
})

describe('scopes', () => {
  // [method, path, body, read token, write token]: the status each token gets (the user's own match is :match).
  const scenarios: [string, string, unknown, number, number][] = [
    ['GET', '/api/terms?category=wts', undefined, 200, 200],
    ['GET', '/api/matches?category=wts', undefined, 200, 200],
    ['GET', '/api/matches?category=wts&archived=1', undefined, 200, 200],
    ['GET', '/api/unread', undefined, 200, 200],
    ['GET', '/api/me', undefined, 200, 200],
    ['POST', '/api/terms', { category: 'wts', term: 'gadget' }, 403, 201],
    ['PATCH', '/api/terms/:term', { paused: true }, 403, 200],
    ['POST', '/api/matches/:match/read', undefined, 403, 200],
    ['POST', '/api/matches/:match/archive', undefined, 403, 200],
    ['POST', '/api/matches/read-all', { category: 'wts' }, 403, 200],
    ['DELETE', '/api/terms/:term', undefined, 403, 200],
    // never with a token: credentials, account, preferences, billing
    ['GET', '/api/tokens', undefined, 403, 403],
    ['POST', '/api/tokens', { name: 'x', scopes: ['read'] }, 403, 403],
    ['GET', '/api/auth/sessions', undefined, 403, 403],
    ['POST', '/api/me/password', { currentPassword: 'a', newPassword: 'b' }, 403, 403],
    ['PATCH', '/api/me', { name: 'Mallory' }, 403, 403],
    ['DELETE', '/api/me', {}, 403, 403],
    ['PUT', '/api/notifications/preferences', { emailFrequency: 'none' }, 403, 403],
    ['PUT', '/api/match-defaults', { skipSold: false }, 403, 403],
    ['POST', '/api/billing/checkout', { planType: 'product', returnUrl: 'http://localhost:3000/' }, 403, 403],
  ]
  test.each(scenarios)('%s %s with a read token, then a write token', async (method, path, json, readStatus, writeStatus) => {
    for (const [scopes, expected] of [
      [['read'], readStatus],
      [['read', 'write'], writeStatus],
    ] as const) {
      const user = await userWithMatch()
      const [{ id: termId }] = await asAsync(t.deps.db).select({ id: searchTerms.id }).from(searchTerms).where(eq(searchTerms.userId, user.userId)).limit(1)
      const { token } = await newToken(user.cookie, { name: 'x', scopes })
      const r = await call(t.app, method, path.replace(':match', String(user.matchId)).replace(':term', String(termId)), { json, ...bearer(token) })
      expect({ scopes, status: r.status }).toEqual({ scopes, status: expected })
      if (r.status === 403) {
        expect(r.body.error.code).toMatch(/^TOKEN_(SCOPE|NOT_ALLOWED)$/)
        expect(r.body.error.message.length).toBeGreaterThan(20)
      }
    }
  })

  test('a write-only token also reads', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie, { name: 'w', scopes: ['write'] })
    expect((await call(t.app, 'GET', '/api/terms?category=wts', bearer(token))).status).toBe(200)
  })

  test('a read token is told which scope it lacks', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie)
    const r = await call(t.app, 'POST', '/api/terms', { json: { category: 'wts', term: 'gadget' }, ...bearer(token) })
    expect(r.body.error).toMatchObject({ code: 'TOKEN_SCOPE' })
    expect(r.body.error.message).toContain("'write' scope")
  })

  test("the token's user is the principal: its own terms, never the cookie's user", async () => {
    const a = await createUserWithSession(t.deps)
    const b = await createUserWithSession(t.deps)
    await addTerm(t.deps, a.userId, FULL, 'wts', 'alpha')
    await addTerm(t.deps, b.userId, FULL, 'wts', 'bravo')
    const { token } = await newToken(b.cookie)
    const r = await call(t.app, 'GET', '/api/terms?category=wts', { cookie: a.cookie, ...bearer(token) })
    expect(r.body.terms.map((x: { term: string }) => x.term)).toEqual(['bravo'])
  })
})

describe('maintenance mode', () => {
  test("a non-admin's token gets 503 MAINTENANCE like their session does", async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie)
    await setSetting(t.deps, 'is_maintenance_mode_active', true)
    const r = await call(t.app, 'GET', '/api/terms?category=wts', bearer(token))
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe('MAINTENANCE')
  })
})

describe('the Origin check', () => {
  test('a Bearer request skips it (no cookie); a cookie request from another site does not', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const { token } = await newToken(cookie, { name: 'w', scopes: ['read', 'write'] })
    const evil = { origin: 'https://evil.example' }
    const viaToken = await call(t.app, 'POST', '/api/terms', { json: { category: 'wts', term: 'gadget' }, ...bearer(token, evil) })
    expect(viaToken.status).toBe(201)
    const viaCookie = await call(t.app, 'POST', '/api/terms', { cookie, json: { category: 'wts', term: 'gizmo' }, headers: evil })
    expect(viaCookie.status).toBe(403)
    expect(viaCookie.body.error.code).toBe('BAD_ORIGIN')
  })

  test('a bad Bearer beside a good cookie is refused, never served as the cookie', async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const r = await call(t.app, 'POST', '/api/terms', {
      cookie,
      json: { category: 'wts', term: 'gadget' },
      ...bearer('dibs_pat_forged', { origin: 'https://evil.example' }),
    })
    expect(r.status).toBe(401)
    expect(await asAsync(t.deps.db).select({ n: count() }).from(searchTerms)).toEqual([{ n: 0 }])
  })
})

describe('admin routes never accept a token', () => {
  test("an admin's own token gets 403 on admin routes, with or without the admin's cookie", async () => {
    const admin = await createUserWithSession(t.deps, { role: 'admin' })
    const { token } = await newToken(admin.cookie, { name: 'a', scopes: ['read', 'write'] })
    expect((await call(t.app, 'GET', '/api/admin/users', { cookie: admin.cookie })).status).toBe(200)
    for (const cookie of [undefined, admin.cookie]) {
      const r = await call(t.app, 'GET', '/api/admin/users', { cookie, ...bearer(token) })
      expect(r.status).toBe(403)
      expect(r.body.error).toMatchObject({ code: 'TOKEN_NOT_ALLOWED' })
      expect(r.body.error.message).toContain('Admin routes do not accept personal access tokens')
    }
    const post = await call(t.app, 'POST', '/api/admin/archive-posts', { ...bearer(token) })
    expect(post.status).toBe(403)
  })
})

describe('rate limit per token', () => {
  test(`over ${TOKEN_REQUESTS_PER_MINUTE} requests a minute a token gets 429 with Retry-After; other tokens do not; the next minute it works`, async () => {
    const { cookie } = await createUserWithSession(t.deps)
    const busy = await newToken(cookie)
    const other = await newToken(cookie)
    for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i++) expect((await call(t.app, 'GET', '/api/unread', bearer(busy.token))).status).toBe(200)
    const over = await call(t.app, 'GET', '/api/unread', bearer(busy.token))
    expect(over.status).toBe(429)
    expect(over.body.error.code).toBe('RATE_LIMITED')
    expect(over.body.error.message).toContain('Too many requests with this token')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await call(t.app, 'GET', '/api/unread', bearer(other.token))).status).toBe(200)
    expect((await call(t.app, 'GET', '/api/unread', { cookie })).status).toBe(200)
    t.clock.advance(60_000)
    expect((await call(t.app, 'GET', '/api/unread', bearer(busy.token))).status).toBe(200)
  })
})
