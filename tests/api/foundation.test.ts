import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { openDb } from '../../src/db/client'
import { migrations } from '../../src/db/migrations'
import { maintenanceLogs } from '../../src/db/schema'
import journal from '../../drizzle/meta/_journal.json'
import { backupDatabase } from '../../src/db/backup'
import { call, makeApp, makeDeps, startTestServer, tempDir, type TestDeps } from '../helpers'
import { clientRoutes } from '../../ui/routes'

describe('migrations', () => {
  test('every drizzle-kit migration in the journal is embedded in the program', () => {
    expect(migrations.map((m) => m.tag)).toEqual(journal.entries.map((e) => e.tag))
  })

  test('a fresh database gets every table, and a second open applies nothing', () => {
    const path = join(tempDir(), 'fresh.db')
    const first = openDb(path)
    expect(first.migrations.applied.length).toBe(migrations.length)
    const tables = first.sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
      .all()
      .map((r) => r.name)
    for (const t of [
      'users',
      'user_access',
      'sessions',
      'one_time_tokens',
      'auth_identities',
      'search_terms',
      'posts',
      'matches',
      'match_terms',
      'notification_prefs',
      'push_subscriptions',
      'outbox',
      'system_settings',
      'maintenance_logs',
      'scan_metrics',
      'metrics',
      'contact_messages',
      'stripe_events',
    ])
      expect(tables).toContain(t)
    first.close()
    const second = openDb(path)
    expect(second.migrations.applied).toEqual([])
    second.close()
  })

  test('an already-migrated database keeps its rows when opened again', () => {
    const path = join(tempDir(), 'existing.db')
    const a = openDb(path)
    a.sqlite.run("INSERT INTO users (email, name) VALUES ('keep@example.com', 'Keep')")
    a.close()
    const b = openDb(path)
    expect(b.sqlite.query('SELECT email FROM users').all()).toEqual([{ email: 'keep@example.com' }])
    b.close()
  })

  test('the database runs with WAL, foreign keys and a busy timeout', () => {
    const o = openDb(join(tempDir(), 'pragmas.db'))
    expect(o.sqlite.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(o.sqlite.query('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    expect(o.sqlite.query('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 })
    o.close()
  })

  test('deleting a user cascades to their rows', () => {
    const o = openDb(join(tempDir(), 'cascade.db'))
    o.sqlite.run("INSERT INTO users (id, email) VALUES (1, 'a@example.com')")
    o.sqlite.run("INSERT INTO search_terms (user_id, category, term) VALUES (1, 'wts', 'rmr')")
    o.sqlite.run('DELETE FROM users WHERE id = 1')
    expect(o.sqlite.query('SELECT count(*) AS n FROM search_terms').get()).toEqual({ n: 0 })
    o.close()
  })
})

describe('backup', () => {
  test('dibs backup makes a consistent copy of a live database that passes the integrity check', () => {
    const dir = tempDir()
    const live = openDb(join(dir, 'live.db'))
    live.sqlite.run("INSERT INTO users (email) VALUES ('live@example.com')")
    const r = backupDatabase(join(dir, 'live.db'), join(dir, 'out.db'))
    expect(r.integrity).toBe('ok')
    const copy = new Database(join(dir, 'out.db'), { readonly: true })
    expect(copy.query('SELECT email FROM users').all()).toEqual([{ email: 'live@example.com' }])
    copy.close()
    live.close()
    expect(() => backupDatabase(join(dir, 'live.db'), join(dir, 'out.db'))).toThrow(/already exists/)
  })
})

describe('health and errors (in-process)', () => {
  let deps: TestDeps
  let app: ReturnType<typeof makeApp>
  beforeAll(async () => {
    deps = await makeDeps()
    app = makeApp(deps)
  })
  afterAll(() => deps.close())

  test('GET /healthz reports status, db and no scan yet', async () => {
    const r = await call(app, 'GET', '/healthz')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ status: 'ok', db: 'ok', lastScanAt: null, lastScanAgeSeconds: null })
  })

  test('GET /healthz reports the age of the last successful scan', async () => {
    deps.db
      .insert(maintenanceLogs)
      .values({ jobName: 'fetch-reddit-posts', status: 'success', executedAt: new Date(deps.now().getTime() - 90_000) })
      .run()
    deps.db.insert(maintenanceLogs).values({ jobName: 'fetch-reddit-posts', status: 'failed', executedAt: deps.now() }).run()
    const r = await call(app, 'GET', '/healthz')
    expect(r.body.lastScanAgeSeconds).toBeGreaterThanOrEqual(89)
    expect(r.body.lastScanAgeSeconds).toBeLessThan(100)
  })

  const cases: { name: string; method: string; path: string; init?: Record<string, unknown>; status: number; code: string }[] = [
    { name: 'unknown API route', method: 'GET', path: '/api/nope', status: 404, code: 'NOT_FOUND' },
    { name: 'unknown API route with POST', method: 'POST', path: '/api/nope/deeper', status: 404, code: 'NOT_FOUND' },
    { name: 'cross-site POST', method: 'POST', path: '/api/nope', init: { headers: { origin: 'https://evil.example' } }, status: 403, code: 'BAD_ORIGIN' },
  ]
  for (const c of cases)
    test(`${c.name} → ${c.status} ${c.code} as {error:{code,message}}`, async () => {
      const r = await call(app, c.method, c.path, c.init as never)
      expect(r.status).toBe(c.status)
      expect(r.body.error.code).toBe(c.code)
      expect(typeof r.body.error.message).toBe('string')
    })

  test('an oversize body is refused with 413', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(deps.config.maxBodyBytes + 10) })
    const res = await app.handle(
      new Request('http://localhost:3000/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(big.length), origin: 'http://localhost:3000' },
        body: big,
      }),
    )
    expect([404, 413]).toContain(res.status) // 413 when a route takes a body; never a 500
    expect(res.status).not.toBe(500)
  })

  test('the API reference is served at /api/docs', async () => {
    const page = await app.handle(new Request('http://localhost:3000/api/docs'))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<html')
    const spec = await call(app, 'GET', '/api/docs/json')
    expect(spec.body.paths['/healthz']).toBeDefined()
  })
})

describe('UI routes on a real server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.stop())

  test('every client route of spec §2 returns the app', async () => {
    for (const path of clientRoutes(server.config.productSlug)) {
      const res = await fetch(server.url + path)
      expect(res.status, path).toBe(200)
      const html = await res.text()
      expect(html, path).toContain('<div id="root">')
    }
  })

  test('an unknown page answers 404 with the app (its not-found page)', async () => {
    const res = await fetch(server.url + '/no/such/page', { headers: { accept: 'text/html' } })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('<div id="root">')
  })

  test('an unknown API path is JSON, never the app', async () => {
    const res = await fetch(server.url + '/api/no-such-thing')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  test('/healthz over HTTP', async () => {
    const res = await fetch(server.url + '/healthz')
    expect(await res.json()).toMatchObject({ status: 'ok', db: 'ok' })
  })
})
