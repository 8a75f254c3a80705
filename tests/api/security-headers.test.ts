// Issue 11 items 5, 6 and 8: security headers on every response (pages, assets, API, errors),
// no-store on API answers, Stripe's origins only with billing on, and only http(s) link URLs.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { posts } from '../../src/db/schema'
import { toForumPost } from '../../src/forums/listing'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, makeApp, makeDeps, startTestServer, type TestDeps } from '../helpers'
import { BILLING_ON } from './auth-helpers'

function expectBaseHeaders(h: Headers) {
  const csp = h.get('content-security-policy') ?? ''
  for (const d of [
    "default-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
  ])
    expect(csp).toContain(d)
  expect(csp).toMatch(/script-src 'self'/)
  expect(csp).not.toContain('unsafe-inline')
  expect(csp).not.toContain('unsafe-eval')
  expect(h.get('x-content-type-options')).toBe('nosniff')
  expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  expect(h.get('permissions-policy')).toContain('camera=()')
  expect(h.get('permissions-policy')).toContain('microphone=()')
  expect(h.get('permissions-policy')).toContain('geolocation=()')
}

describe('API responses (in-process)', () => {
  let deps: TestDeps
  afterEach(() => deps.close())

  test('authenticated API answers carry no-store and the security headers; so do errors and unknown routes', async () => {
    deps = await makeDeps()
    const app = makeApp(deps)
    const u = await createUserWithSession(deps)
    for (const path of ['/api/matches?category=wts', '/api/me', '/api/terms', '/api/unread', '/api/auth/sessions', '/api/notifications/preferences']) {
      const r = await call(app, 'GET', path, { cookie: u.cookie })
      expect(r.status, path).toBeLessThan(500)
      expect(r.headers.get('cache-control'), path).toBe('no-store')
      expectBaseHeaders(r.headers)
    }
    for (const path of ['/api/me', '/api/nope']) {
      const r = await call(app, 'GET', path)
      expect(r.status).toBeGreaterThanOrEqual(400)
      expect(r.headers.get('cache-control')).toBe('no-store')
      expectBaseHeaders(r.headers)
    }
    expect((await call(app, 'GET', '/api/me')).headers.get('strict-transport-security')).toBeNull()
  })

  test('HSTS only with an https APP_URL; the socket origin follows APP_URL', async () => {
    deps = await makeDeps({ APP_URL: 'https://dibs.example.com' })
    const app = makeApp(deps)
    const r = await call(app, 'GET', '/api/config', { headers: { origin: 'https://dibs.example.com' } })
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
    expect(r.headers.get('content-security-policy')).toContain('wss://dibs.example.com')
  })

  test("Stripe's origins appear only while billing is on", async () => {
    deps = await makeDeps()
    const off = (await call(makeApp(deps), 'GET', '/api/config')).headers.get('content-security-policy')!
    expect(off).not.toContain('stripe.com')
    expect(off).toContain("frame-src 'none'")
    deps.close()
    deps = await makeDeps(BILLING_ON)
    const on = (await call(makeApp(deps), 'GET', '/api/config')).headers.get('content-security-policy')!
    expect(on).toContain('script-src')
    expect(on).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/)
    expect(on).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/)
    expect(on).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/)
  })
})

describe('link URLs (item 8)', () => {
  let deps: TestDeps | null = null
  afterEach(() => deps?.close())

  test('a listing whose url is javascript: keeps the permalink only', () => {
    const post = toForumPost({ id: 'abc12', title: '[WTS] RMR', subreddit: 'GunAccessoriesForSale', created_utc: 1_763_640_000, url: 'javascript:alert(1)' })!
    expect(post.linkUrl).toBe(post.url)
    const data = toForumPost({ id: 'abc13', title: '[WTS] RMR', subreddit: 'GunAccessoriesForSale', created_utc: 1_763_640_000, url: 'data:text/html,x' })!
    expect(data.linkUrl).toBe(data.url)
    const ok = toForumPost({ id: 'abc14', title: '[Optic] T2', subreddit: 'gundeals', created_utc: 1_763_640_000, url: 'https://shop.example/t2' })!
    expect(ok.linkUrl).toBe('https://shop.example/t2')
  })

  test('a stored unsafe link is never returned by /api/matches or the public /api/posts', async () => {
    const d = (deps = await makeDeps())
    const app = makeApp(d)
    const user = await createUserWithSession(d)
    await addTerm(d, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null } as never, 'gd', 'aimpoint')
    const stored = await storePosts(d, [forumPost('[Optic] Aimpoint T2 $700', { subreddit: 'gundeals', linkUrl: 'https://shop.example/t2', ageMs: 1000 })])
    // an older row written before the filter existed
    await asAsync(d.db).update(posts).set({ linkUrl: 'javascript:alert(document.cookie)' }).where(eq(posts.id, stored[0]!.id))
    stored[0]!.linkUrl = 'javascript:alert(document.cookie)'
    await matchPosts(d, stored, 'live')
    const m = await call(app, 'GET', '/api/matches?category=gd', { cookie: user.cookie })
    expect(m.body.matches).toHaveLength(1)
    expect(m.body.matches[0].linkUrl).toBeNull()
    const p = await call(app, 'GET', '/api/posts?category=gd')
    expect(p.body.posts[0].linkUrl).toBeNull()
    expect(JSON.stringify([m.body, p.body])).not.toContain('javascript:')
  })
})

describe('pages and assets (real server)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.stop()
  })

  test('every page, asset, the service worker and the 404 page carry the headers; the shell script is allowed by hash', async () => {
    const home = await fetch(server.url + '/')
    const html = await home.text()
    expectBaseHeaders(home.headers)
    expect(home.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/)
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBeGreaterThanOrEqual(3)
    for (const path of ['/login', '/dashboard/gafs/wts', '/admin/users', '/admin/anything', '/sw.js', ...assets]) {
      const r = await fetch(server.url + path)
      expect(r.status, path).toBe(200)
      expectBaseHeaders(r.headers)
    }
    const missing = await fetch(server.url + '/no-such-page', { headers: { accept: 'text/html' } })
    expect(missing.status).toBe(404)
    expectBaseHeaders(missing.headers)
  })

  test('the API reference is served without any outside script', async () => {
    const r = await fetch(server.url + '/api/docs')
    const html = await r.text()
    expect(r.status).toBe(200)
    expect(html).toContain('/api/auth/login')
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toContain('cdn.')
    expect(r.headers.get('content-security-policy')).toMatch(/style-src 'self' 'sha256-/)
  })
})
