// POST /api/ingest/<source id> (issue 25 §3): posts pushed to a push source, signed with its secret
// (X-Dibs-Signature, Stripe's scheme). A good batch is stored and matched at once; every bad request gets a clear
// error and stores nothing: a bad, missing, malformed, stale or future signature and a replay (401), an oversize
// batch (413), a bad field (400 naming it), an unknown or disabled source (404 / 403), too many pushes (429).
// The in-process app runs on a test clock (replays, rate windows); the real server carries the 1 MB body path.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { MatchItem } from '../../src/contract/events'
import { addSource, editSource, rotateSourceSecret } from '../../src/scanner/source-admin'
import { PUSH_REQUESTS_PER_MINUTE } from '../../src/scanner/ingest-route'
import { signPush } from '../../src/sources/push'
import { addTerm } from '../../src/terms/service'
import { createUserWithSession, eachTestApp, startTestServer } from '../helpers'

type Handle = { handle(r: Request): Promise<Response> }
type Answer = { status: number; body: any }

const unix = (d: Date) => Math.floor(d.getTime() / 1000)

async function send(app: Handle, path: string, raw: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await app.handle(
    new Request(`http://localhost:3000${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw }),
  )
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

function post(id: string, over: Record<string, unknown> = {}, at = Date.now()) {
  return {
    id,
    title: `[WTS] Trijicon RMR Type 2 ${id} - $400`,
    url: `https://forum.example/t/${id}`,
    author: 'seller',
    created_utc: Math.floor(at / 1000) - 60,
    ...over,
  }
}

const storedCount = (t: { deps: { sqlite: import('bun:sqlite').Database } }, sourceId: number) =>
  t.deps.sqlite.query<{ n: number }, [number]>('SELECT count(*) AS n FROM posts WHERE source_id = ?').get(sourceId)!.n

describe('in process, on a test clock', () => {
  const t = eachTestApp()
  let source: { id: number; secret: string }
  const path = () => `/api/ingest/${source.id}`
  const signed = (raw: string, at = unix(t.clock.now()), secret = source.secret) => ({ 'x-dibs-signature': signPush(secret, raw, at) })
  const batch = (...posts: unknown[]) => JSON.stringify({ posts })
  const stored = () => storedCount(t, source.id)

  beforeEach(async () => {
    const added = await addSource(t.deps, { forum: 'accessories', kind: 'push', name: 'My script' })
    source = { id: added.source.id, secret: added.secret! }
  })

  test('a good signed batch is stored with its source and matched at once', async () => {
    const user = await createUserWithSession(t.deps, { role: 'product+gd' })
    await addTerm(t.deps, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
    const events: MatchItem[] = []
    t.deps.bus.on('match.new', (e) => void events.push(e.match))
    const raw = batch(post('a1', {}, t.clock.now().getTime()), post('a2', { title: '[WTB] Aimpoint T2' }, t.clock.now().getTime()))
    const r = await send(t.app, path(), raw, signed(raw))
    expect(r).toEqual({
      status: 200,
      body: {
        received: 2,
        stored: 2,
        duplicates: 0,
        matches: 1,
        posts: [
          { id: 'a1', stored: true },
          { id: 'a2', stored: true },
        ],
      },
    })
    const rows = t.deps.sqlite
      .query<{ reddit_id: string; forum: string; post_type: string; source_id: number; source_name: string }, []>(
        'SELECT reddit_id, forum, post_type, source_id, source_name FROM posts ORDER BY reddit_id',
      )
      .all()
    expect(rows).toEqual([
      { reddit_id: `p${source.id}_a1`, forum: 'product', post_type: 'wts', source_id: source.id, source_name: 'My script' },
      { reddit_id: `p${source.id}_a2`, forum: 'product', post_type: 'wtb', source_id: source.id, source_name: 'My script' },
    ])
    expect(events.map((m) => [m.title, m.sourceName])).toEqual([['[WTS] Trijicon RMR Type 2 a1 - $400', 'My script']])
    expect(t.deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM matches').get()!.n).toBe(1)
  })

  describe('401: the signature', () => {
    const raw = () => batch(post('s1', {}, t.clock.now().getTime()))
    const cases: [string, () => Record<string, string>, RegExp][] = [
      ['no header', () => ({}), /Missing X-Dibs-Signature/],
      ['an empty header', () => ({ 'x-dibs-signature': '' }), /Missing X-Dibs-Signature/],
      ['a malformed header', () => ({ 'x-dibs-signature': 'sha256=abc' }), /must read t=<unix seconds>,v1=/],
      ['another secret', () => signed(raw(), undefined, 'dps_not-the-secret'), /does not match/],
      ['a tampered body (signature of another)', () => signed(batch(post('s2', {}, t.clock.now().getTime()))), /does not match/],
      ['stale: 5 min 1 s old', () => signed(raw(), unix(t.clock.now()) - 301), /more than 5 minutes old/],
      ['future: 5 min 1 s ahead', () => signed(raw(), unix(t.clock.now()) + 301), /more than 5 minutes in the future/],
    ]
    for (const [name, headers, message] of cases)
      test(name, async () => {
        const r = await send(t.app, path(), raw(), headers())
        expect([r.status, r.body.error.code]).toEqual([401, 'BAD_SIGNATURE'])
        expect(r.body.error.message).toMatch(message)
        expect(stored()).toBe(0)
      })

    test('a replay: the same signed request again is a duplicate at once and refused once 5 minutes have passed', async () => {
      const body = raw()
      const headers = signed(body)
      expect((await send(t.app, path(), body, headers)).body).toMatchObject({ stored: 1 })
      expect((await send(t.app, path(), body, headers)).body).toMatchObject({ stored: 0, duplicates: 1 })
      t.clock.advance(5 * 60_000 + 1000)
      const replay = await send(t.app, path(), body, headers)
      expect([replay.status, replay.body.error.code]).toEqual([401, 'BAD_SIGNATURE'])
      expect(replay.body.error.message).toMatch(/more than 5 minutes old/)
      expect(stored()).toBe(1)
    })
  })

  describe('413: oversize', () => {
    test('101 posts', async () => {
      const now = t.clock.now().getTime()
      const raw = batch(...Array.from({ length: 101 }, (_, i) => post(`o${i}`, {}, now)))
      const r = await send(t.app, path(), raw, signed(raw))
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([413, 'PAYLOAD_TOO_LARGE', 'posts holds 101 posts; at most 100 per request.'])
      expect(stored()).toBe(0)
    })
    test('over 1 MB', async () => {
      const now = t.clock.now().getTime()
      const raw = batch(...Array.from({ length: 30 }, (_, i) => post(`b${i}`, { body: 'x'.repeat(36_000) }, now)))
      expect(Buffer.byteLength(raw)).toBeGreaterThan(1024 * 1024)
      const r = await send(t.app, path(), raw, signed(raw))
      expect([r.status, r.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
      expect(stored()).toBe(0)
    })
  })

  describe('400: a bad field is named, and one bad post in a batch of good ones stores none', () => {
    const now = () => t.clock.now().getTime()
    const cases: [string, () => Record<string, unknown>, string][] = [
      ['no id', () => ({ id: undefined }), 'posts[1].id'],
      ['an id with a space', () => ({ id: 'a b' }), 'posts[1].id'],
      ['an id of 65 characters', () => ({ id: 'x'.repeat(65) }), 'posts[1].id'],
      ['no title', () => ({ title: undefined }), 'posts[1].title'],
      ['a blank title', () => ({ title: '   ' }), 'posts[1].title'],
      ['a title of 301 characters', () => ({ title: 'W'.repeat(301) }), 'posts[1].title'],
      ['a javascript: url', () => ({ url: 'javascript:alert(1)' }), 'posts[1].url'],
      ['an ftp url', () => ({ url: 'ftp://forum.example/t/1' }), 'posts[1].url'],
      ['a relative url', () => ({ url: '/t/1' }), 'posts[1].url'],
      ['no author', () => ({ author: undefined }), 'posts[1].author'],
      ['an author of 65 characters', () => ({ author: 'a'.repeat(65) }), 'posts[1].author'],
      ['created_utc as text', () => ({ created_utc: '2026-01-01' }), 'posts[1].created_utc'],
      ['created_utc in milliseconds', () => ({ created_utc: now() }), 'posts[1].created_utc'],
      ['a body of 40 001 characters', () => ({ body: 'b'.repeat(40_001) }), 'posts[1].body'],
      ['a flair that is a number', () => ({ flair: 7 }), 'posts[1].flair'],
    ]
    for (const [name, change, field] of cases)
      test(name, async () => {
        const raw = batch(post('g0', {}, now()), post('g1', change(), now()), post('g2', {}, now()))
        const r = await send(t.app, path(), raw, signed(raw))
        expect([r.status, r.body.error.code, r.body.error.field]).toEqual([400, 'INVALID_POST', field])
        expect(r.body.error.message).toStartWith(field)
        expect(stored()).toBe(0)
      })
    test('not JSON, no posts, an empty list', async () => {
      for (const [raw, field] of [
        ['{"posts": [', 'request'],
        ['{"items": []}', 'posts'],
        ['{"posts": []}', 'posts'],
      ]) {
        const r = await send(t.app, path(), raw!, signed(raw!))
        expect([raw, r.status, r.body.error.field]).toEqual([raw, 400, field])
      }
      expect(stored()).toBe(0)
    })
  })

  describe('duplicates', () => {
    test('the same id pushed twice is stored once; the second answer says duplicate', async () => {
      const raw = batch(post('d1', {}, t.clock.now().getTime()))
      await send(t.app, path(), raw, signed(raw))
      const again = batch(post('d1', { title: '[WTS] edited title' }, t.clock.now().getTime()), post('d2', {}, t.clock.now().getTime()))
      const r = await send(t.app, path(), again, signed(again))
      expect(r.body).toEqual({
        received: 2,
        stored: 1,
        duplicates: 1,
        matches: 0,
        posts: [
          { id: 'd1', stored: false },
          { id: 'd2', stored: true },
        ],
      })
      expect(stored()).toBe(2)
    })
    test('an id twice in one batch is stored once (the first), and the answer counts the duplicate', async () => {
      const now = t.clock.now().getTime()
      const raw = batch(post('e1', {}, now), post('e1', { title: '[WTS] second copy' }, now), post('e2', {}, now))
      const r = await send(t.app, path(), raw, signed(raw))
      expect(r.body).toMatchObject({ received: 3, stored: 2, duplicates: 1 })
      expect(stored()).toBe(2)
      expect(t.deps.sqlite.query<{ title: string }, []>(`SELECT title FROM posts WHERE reddit_id = 'p${source.id}_e1'`).get()!.title).toBe(
        '[WTS] Trijicon RMR Type 2 e1 - $400',
      )
    })
    test('the same post id on two push sources is two posts', async () => {
      const other = await addSource(t.deps, { forum: 'accessories', kind: 'push', name: 'Other script' })
      const raw = batch(post('same', {}, t.clock.now().getTime()))
      await send(t.app, path(), raw, signed(raw))
      const r = await send(t.app, `/api/ingest/${other.source.id}`, raw, signed(raw, undefined, other.secret!))
      expect(r.body).toMatchObject({ stored: 1, duplicates: 0 })
    })
  })

  describe('which source', () => {
    test('unknown id, a non-number, a feed or reddit source: 404 NO_SUCH_SOURCE', async () => {
      const reddit = await addSource(t.deps, { forum: 'accessories', kind: 'reddit', subreddits: 'mechmarket' })
      const raw = batch(post('w1', {}, t.clock.now().getTime()))
      for (const id of ['999', 'abc', '0', String(reddit.source.id)]) {
        const r = await send(t.app, `/api/ingest/${id}`, raw, signed(raw))
        expect([id, r.status, r.body.error.code]).toEqual([id, 404, 'NO_SUCH_SOURCE'])
      }
      expect(t.deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM posts').get()!.n).toBe(0)
    })
    test('a disabled push source: 403 SOURCE_DISABLED, nothing stored; enabled again it takes posts', async () => {
      await editSource(t.deps, source.id, { enabled: false })
      const raw = batch(post('x1', {}, t.clock.now().getTime()))
      const r = await send(t.app, path(), raw, signed(raw))
      expect([r.status, r.body.error.code]).toEqual([403, 'SOURCE_DISABLED'])
      expect(r.body.error.message).toContain('disabled')
      expect(stored()).toBe(0)
      await editSource(t.deps, source.id, { enabled: true })
      expect((await send(t.app, path(), raw, signed(raw))).status).toBe(200)
    })
  })

  test(`rate limit: the ${PUSH_REQUESTS_PER_MINUTE + 1}th signed request in a minute is 429 with Retry-After, another source is not slowed; a minute later it passes`, async () => {
    const raw = batch(post('r1', {}, t.clock.now().getTime()))
    for (let i = 0; i < PUSH_REQUESTS_PER_MINUTE; i++) expect((await send(t.app, path(), raw, signed(raw))).status).toBe(200)
    const res = await t.app.handle(
      new Request(`http://localhost:3000${path()}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed(raw) }, body: raw }),
    )
    const body = await res.json()
    expect([res.status, body.error.code]).toEqual([429, 'RATE_LIMITED'])
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(stored()).toBe(1)
    const other = await addSource(t.deps, { forum: 'accessories', kind: 'push' })
    expect((await send(t.app, `/api/ingest/${other.source.id}`, raw, signed(raw, undefined, other.secret!))).status).toBe(200)
    t.clock.advance(61_000)
    const later = batch(post('r2', {}, t.clock.now().getTime()))
    expect((await send(t.app, path(), later, signed(later))).status).toBe(200)
  })

  test('unsigned requests do not use up the sender’s allowance: after many 401s a signed push still passes', async () => {
    const raw = batch(post('u1', {}, t.clock.now().getTime()))
    for (let i = 0; i < PUSH_REQUESTS_PER_MINUTE + 20; i++) expect((await send(t.app, path(), raw, {})).status).toBe(401)
    expect(stored()).toBe(0)
    expect((await send(t.app, path(), raw, signed(raw))).body).toMatchObject({ stored: 1 })
  })

  test('a rotated secret: the old one is refused at once, the new one works', async () => {
    const { secret } = await rotateSourceSecret(t.deps, source.id)
    expect(secret).not.toBe(source.secret)
    const raw = batch(post('k1', {}, t.clock.now().getTime()))
    const old = await send(t.app, path(), raw, signed(raw))
    expect([old.status, old.body.error.code]).toEqual([401, 'BAD_SIGNATURE'])
    expect(stored()).toBe(0)
    expect((await send(t.app, path(), raw, signed(raw, undefined, secret))).body).toMatchObject({ stored: 1 })
  })

  test('health: a push source shows its last push', async () => {
    const raw = batch(post('h1', {}, t.clock.now().getTime()))
    await send(t.app, path(), raw, signed(raw))
    const { getSource } = await import('../../src/sources/store')
    const { sourceView } = await import('../../src/sources/view')
    expect(sourceView(t.deps, (await getSource(t.deps, source.id))!).health).toMatchObject({ state: 'push', lastPosts: 1, failures: 0 })
  })
})

describe('through the real server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.stop())

  const sendTo = async (id: number, raw: string, headers: Record<string, string>) => {
    const res = await fetch(`${server.url}/api/ingest/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }

  test('a batch of 100 posts just under 1 MB (above the app-wide body limit) is stored and matched', async () => {
    const user = await createUserWithSession(server.deps, { role: 'product+gd' })
    await addTerm(server.deps, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'rmr')
    const { source, secret } = await addSource(server.deps, { forum: 'accessories', kind: 'push' })
    const posts = Array.from({ length: 100 }, (_, i) => post(`big${i}`, { body: 'y'.repeat(10_000) }))
    const raw = JSON.stringify({ posts })
    expect(Buffer.byteLength(raw)).toBeGreaterThan(server.deps.config.maxBodyBytes)
    expect(Buffer.byteLength(raw)).toBeLessThan(1024 * 1024)
    const r = await sendTo(source.id, raw, { 'x-dibs-signature': signPush(secret!, raw, unix(new Date())) })
    expect(r.body).toMatchObject({ received: 100, stored: 100, duplicates: 0, matches: 100 })
    expect(storedCount({ deps: server.deps }, source.id)).toBe(100)
  })

  test('a body over 1 MB is 413 and stores nothing', async () => {
    const { source, secret } = await addSource(server.deps, { forum: 'accessories', kind: 'push' })
    const raw = JSON.stringify({ posts: Array.from({ length: 30 }, (_, i) => post(`huge${i}`, { body: 'z'.repeat(36_000) })) })
    const r = await sendTo(source.id, raw, { 'x-dibs-signature': signPush(secret!, raw, unix(new Date())) })
    expect(r.status).toBe(413)
    expect(storedCount({ deps: server.deps }, source.id)).toBe(0)
  })

  test('any other route still has the app-wide body limit', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(server.deps.config.maxBodyBytes + 10) }),
    })
    expect(res.status).toBe(413)
  })
})
