// The Logs page's Sources panel (issue 25 §1): /api/admin/sources. Admins only; every change audited (source.*);
// bad input is a 400 INVALID_SOURCE naming the field, feed URLs checked like outgoing channel URLs (no loopback
// without ALLOW_PRIVATE_SOURCES=1); a push source's secret shows once. 'Fetch now' before saving previews a feed of
// each forum package (tests/fakes/forum-feeds.ts) with each post's classification, and saving stores what it
// showed; 'Fetch now' on a saved feed polls it, never more often than the host's politeness interval.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { addTerm } from '../../src/terms/service'
import { startForumFeeds, type ForumFeeds } from '../fakes/forum-feeds'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

let deps: TestDeps
let app: ReturnType<typeof makeApp>
let clock: ReturnType<typeof testClock>
let forums: ForumFeeds
let admin: { cookie: string; userId: number; email: string }

beforeEach(async () => {
  clock = testClock()
  deps = makeDeps({ ALLOW_PRIVATE_SOURCES: '1' }, clock)
  app = makeApp(deps)
  forums = await startForumFeeds({ now: () => clock.now().getTime() })
  admin = await createUserWithSession(deps, { role: 'admin' })
})
afterEach(async () => {
  deps.close()
  await forums.stop()
})

const as = (method: string, path: string, json?: unknown) => call(app, method, path, { cookie: admin.cookie, ...(json === undefined ? {} : { json }) })
const audits = () =>
  deps.sqlite
    .query<{ action: string; target: string | null; actor: string; result: string }, []>('SELECT action, target, actor, result FROM audit_log ORDER BY id')
    .all()
const postsOf = (sourceId: number) =>
  deps.sqlite
    .query<{ title: string; source_name: string; post_type: string | null }, [number]>(
      'SELECT title, source_name, post_type FROM posts WHERE source_id = ? ORDER BY id',
    )
    .all(sourceId)
/** the host was just asked: the next request to it waits for the politeness interval */
const pass = async () => clock.advance((await deps.feeds.politenessSeconds()) * 1000)

describe('admins only', () => {
  test('a subscriber gets 403 on every sources route, nothing changes', async () => {
    const user = await createUserWithSession(deps, { role: 'product+gd' })
    const seeded = (await as('GET', '/api/admin/sources')).body.sources.length
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/sources'],
      ['POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths.xenforo }],
      ['POST', '/api/admin/sources', { kind: 'reddit', forum: 'accessories', subreddits: 'mechmarket' }],
      ['PATCH', '/api/admin/sources/1', { enabled: false }],
      ['DELETE', '/api/admin/sources/1'],
      ['POST', '/api/admin/sources/1/fetch'],
      ['POST', '/api/admin/sources/1/rotate-secret'],
      ['PUT', '/api/admin/sources/settings', { politenessSeconds: 30 }],
    ]
    for (const [method, path, json] of routes) {
      const r = await call(app, method, path, { cookie: user.cookie, ...(json === undefined ? {} : { json }) })
      expect([method, path, r.status]).toEqual([method, path, 403])
    }
    expect((await as('GET', '/api/admin/sources')).body.sources.length).toBe(seeded)
    expect(forums.requests).toEqual([])
    expect(audits()).toEqual([])
  })
})

describe('add, edit, enable/disable, remove: each audited', () => {
  test('a reddit source, through its whole life', async () => {
    const added = await as('POST', '/api/admin/sources', { kind: 'reddit', forum: 'accessories', subreddits: 'r/mechmarket' })
    expect(added.status).toBe(200)
    expect(added.body.secret).toBeNull()
    const s = added.body.source
    expect(s).toMatchObject({ kind: 'reddit', forum: 'accessories', name: 'r/mechmarket', subreddits: ['mechmarket'], enabled: true, health: { state: 'new' } })
    const edited = await as('PATCH', `/api/admin/sources/${s.id}`, { name: 'Keyboards' })
    expect(edited.body).toMatchObject({ id: s.id, name: 'Keyboards', subreddits: ['mechmarket'] })
    const off = await as('PATCH', `/api/admin/sources/${s.id}`, { enabled: false })
    expect(off.body).toMatchObject({ enabled: false, health: { state: 'disabled', summary: 'Disabled: not read' } })
    expect((await as('PATCH', `/api/admin/sources/${s.id}`, { enabled: true })).body.enabled).toBe(true)
    expect((await as('DELETE', `/api/admin/sources/${s.id}`)).body).toEqual({ ok: true, name: 'Keyboards' })
    expect((await as('GET', '/api/admin/sources')).body.sources.some((x: { id: number }) => x.id === s.id)).toBe(false)
    expect((await as('DELETE', `/api/admin/sources/${s.id}`)).status).toBe(404)
    expect((await as('PATCH', `/api/admin/sources/${s.id}`, { name: 'x' })).status).toBe(404)
    const by = admin.email
    expect(audits().map((a) => [a.action, a.target, a.actor, a.result])).toEqual([
      ['source.add', null, by, 'ok'],
      ['source.edit', `source:${s.id}`, by, 'ok'],
      ['source.edit', `source:${s.id}`, by, 'ok'],
      ['source.edit', `source:${s.id}`, by, 'ok'],
      ['source.remove', `source:${s.id}`, by, 'ok'],
      // the attempts on a removed source are audited as failed
      ['source.remove', `source:${s.id}`, by, 'failed'],
      ['source.edit', `source:${s.id}`, by, 'failed'],
    ])
  })
  test('the kind cannot change', async () => {
    const s = (await as('POST', '/api/admin/sources', { kind: 'reddit', forum: 'deals', subreddits: 'buildapcsales' })).body.source
    const r = await as('PATCH', `/api/admin/sources/${s.id}`, { kind: 'feed', url: 'https://forum.example/feed.rss' })
    expect([r.status, r.body.error.code, r.body.error.field]).toEqual([400, 'INVALID_SOURCE', 'kind'])
  })
  test("a push source's secret is in the add answer only; a rotation gives a new one, audited", async () => {
    const added = await as('POST', '/api/admin/sources', { kind: 'push', forum: 'accessories', name: 'Mod app' })
    const { source, secret } = added.body
    expect(secret).toMatch(/^dps_/)
    expect(source.ingestUrl).toBe(`${deps.config.appUrl}/api/ingest/${source.id}`)
    expect(JSON.stringify(source)).not.toContain(secret)
    const list = await as('GET', '/api/admin/sources')
    expect(list.text).not.toContain(secret)
    expect(list.text).not.toContain('dps_')
    const patched = await as('PATCH', `/api/admin/sources/${source.id}`, { name: 'Mod app 2' })
    expect(patched.text).not.toContain('dps_')
    const rotated = await as('POST', `/api/admin/sources/${source.id}/rotate-secret`)
    expect(rotated.body.secret).toMatch(/^dps_/)
    expect(rotated.body.secret).not.toBe(secret)
    expect((await as('GET', '/api/admin/sources')).text).not.toContain(rotated.body.secret)
    expect(audits().map((a) => a.action)).toContain('source.rotate_secret')
    expect(JSON.stringify(deps.sqlite.query('SELECT details FROM audit_log').all())).not.toContain('dps_')
    const reddit = (await as('POST', '/api/admin/sources', { kind: 'reddit', forum: 'accessories', subreddits: 'mechmarket' })).body.source
    expect((await as('POST', `/api/admin/sources/${reddit.id}/rotate-secret`)).status).toBe(409)
  })
})

describe('400 INVALID_SOURCE naming the field, nothing added', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a bad kind', { kind: 'ftp', forum: 'accessories' }, 'kind'],
    ['a bad forum', { kind: 'reddit', forum: 'guns', subreddits: 'mechmarket' }, 'forum'],
    ['no subreddit', { kind: 'reddit', forum: 'accessories' }, 'subreddits'],
    ['a bad subreddit', { kind: 'reddit', forum: 'accessories', subreddits: 'mech market!' }, 'subreddits'],
    ['a one-letter subreddit', { kind: 'reddit', forum: 'accessories', subreddits: ['a'] }, 'subreddits'],
    ['a feed without a URL', { kind: 'feed', forum: 'accessories' }, 'url'],
    ['a feed URL that is not http(s)', { kind: 'feed', forum: 'accessories', url: 'ftp://forum.example/feed.rss' }, 'url'],
    ['a feed URL of javascript:', { kind: 'feed', forum: 'accessories', url: 'javascript:alert(1)' }, 'url'],
    ['a feed URL with credentials', { kind: 'feed', forum: 'accessories', url: 'https://user:pw@forum.example/feed.rss' }, 'url'],
    [
      "a preset's URL pattern left as is",
      { kind: 'feed', forum: 'accessories', preset: 'forum-classifieds', url: 'https://{board}/forums/x.1/index.rss' },
      'url',
    ],
    ['an unknown preset', { preset: 'slickdeals' }, 'preset'],
    ['a preset of the other forum', { preset: 'gundeals', forum: 'accessories' }, 'preset'],
    ['a name with markup', { kind: 'reddit', forum: 'accessories', subreddits: 'mechmarket', name: '<b>x</b>' }, 'name'],
  ]
  for (const [name, body, field] of cases)
    test(name, async () => {
      const before = (await as('GET', '/api/admin/sources')).body.sources.length
      for (const path of ['/api/admin/sources', '/api/admin/sources/preview']) {
        const r = await as('POST', path, body)
        expect([path, r.status, r.body.error.code, r.body.error.field]).toEqual([path, 400, 'INVALID_SOURCE', field])
        expect(r.body.error.message).toStartWith(`${field}: `)
      }
      expect((await as('GET', '/api/admin/sources')).body.sources.length).toBe(before)
      expect(forums.requests).toEqual([])
    })

  test('a feed on a loopback address is refused without ALLOW_PRIVATE_SOURCES=1, on add and preview', async () => {
    const strict = makeDeps({}, clock)
    try {
      const strictApp = makeApp(strict)
      const boss = await createUserWithSession(strict, { role: 'admin' })
      for (const url of [forums.url + forums.paths.xenforo, 'http://localhost:8080/feed.rss', 'http://10.0.0.5/feed.rss', 'http://[::1]/feed.rss']) {
        for (const path of ['/api/admin/sources', '/api/admin/sources/preview']) {
          const r = await call(strictApp, 'POST', path, { cookie: boss.cookie, json: { kind: 'feed', forum: 'accessories', url } })
          expect([url, path, r.status, r.body.error.code, r.body.error.field]).toEqual([url, path, 400, 'INVALID_SOURCE', 'url'])
        }
      }
      expect(forums.requests).toEqual([])
    } finally {
      strict.close()
    }
  })
  test('with ALLOW_PRIVATE_SOURCES=1 the loopback feed is allowed', async () => {
    const r = await as('POST', '/api/admin/sources', { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths.xenforo, enabled: false })
    expect([r.status, r.body.source.url]).toEqual([200, forums.url + forums.paths.xenforo])
  })
})

describe("'Fetch now' before saving: each forum package's feed, classified", () => {
  const boards: [string, keyof ForumFeeds['paths'], 'accessories' | 'deals', string, [string, string | null][]][] = [
    [
      'XenForo',
      'xenforo',
      'accessories',
      'xenforo',
      [
        ['WTS/WTT: Trijicon RMR RM06 Type 2 - $400', 'wts'],
        ['WTB: Geissele Super 42 trigger, flat bow', 'wtb'],
        ['WTS: Aimpoint T2 with LaRue LT660 mount - $650 shipped', 'wts'],
      ],
    ],
    [
      'phpBB',
      'phpbb',
      'accessories',
      'phpbb',
      [
        ['WTB Surefire M600DF scout light', 'wtb'],
        ['WTS Magpul PMAG 30 Gen M3 x10 - $120', 'wts'],
      ],
    ],
    [
      'Discourse RSS',
      'discourseRss',
      'accessories',
      'discourse',
      [
        ['[WTB] Unity FAST riser', 'wtb'],
        ['[WTS] Holosun 509T X2 - $330', 'wts'],
      ],
    ],
    [
      'Discourse latest.json',
      'discourseLatest',
      'accessories',
      'discourse',
      [
        ['[WTB] Unity FAST riser', 'wtb'],
        ['[WTS] Holosun 509T X2 - $330', 'wts'],
      ],
    ],
    [
      'vBulletin',
      'vbulletin',
      'accessories',
      'vbulletin',
      [
        ['WTB: Vortex Razor HD Gen III 1-10x24', 'wtb'],
        ['FS: Leupold VX-5HD 3-15x44 CDS-ZL2 - $850', 'wts'],
      ],
    ],
    [
      'JSON Feed (deals)',
      'jsonfeed',
      'deals',
      'none',
      [
        ['Deal: Streamlight TLR-7A - $109', 'gd'],
        ['Deal: Primary Arms SLx 1-6x24 FFP - $199 (was $299)', 'gd'],
      ],
    ],
  ]
  for (const [name, path, forum, software, want] of boards)
    test(name, async () => {
      const url = forums.url + forums.paths[path]
      const r = await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum, url })
      expect(r.status).toBe(200)
      expect(r.body.software ?? 'none').toBe(software)
      expect(r.body.fetched).toBe(want.length)
      expect(r.body.posts.map((p: { title: string; category: string | null }) => [p.title, p.category])).toEqual(want)
      const wts = r.body.posts.find((p: { category: string }) => p.category === 'wts')
      if (wts) expect(wts.classifiedAs).toBe('WTS (for sale)')
      for (const p of r.body.posts) expect(p.url).toStartWith(forums.url)
      // nothing stored, nothing added
      expect(deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM posts').get()!.n).toBe(0)
      expect(audits()).toEqual([])
    })

  test('a block page, a 404 and a web page are 502 with the reason in words; the host rests after a 429', async () => {
    forums.block()
    const blocked = await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths.xenforo })
    expect([blocked.status, blocked.body.error.code]).toEqual([502, 'SOURCE_FETCH_FAILED'])
    expect(blocked.body.error.message).toMatch(/403|block/i)
    forums.block(false)
    await pass()
    const missing = await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url: forums.url + '/forums/nope.1/index.rss' })
    expect([missing.status, missing.body.error.code]).toEqual([502, 'SOURCE_FETCH_FAILED'])
    expect(missing.body.error.message).toMatch(/404|not found|gone/i)
    await pass()
    forums.rateLimit('600')
    const limited = await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths.phpbb })
    expect(limited.status).toBe(502)
    forums.rateLimit(null)
    await pass()
    const resting = await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths.phpbb })
    expect([resting.status, resting.body.error.code]).toEqual([429, 'SOURCE_FETCH_FAILED'])
    expect(resting.body.error.message).toMatch(/127\.0\.0\.1 asked Dibs to wait \(Retry-After\)\. Try again in \d+ s\./)
  })

  test('a push source has nothing to preview (400)', async () => {
    const r = await as('POST', '/api/admin/sources/preview', { kind: 'push', forum: 'accessories' })
    expect([r.status, r.body.error.code]).toEqual([400, 'SOURCE_FETCH_FAILED'])
  })
})

describe('save after preview, Fetch now, politeness', () => {
  test('saving the previewed feed stores and matches its posts at once', async () => {
    const user = await createUserWithSession(deps, { role: 'product+gd' })
    await addTerm(deps, user.userId, { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }, 'wts', 'aimpoint')
    const url = forums.url + forums.paths.xenforo
    const preview = await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url })
    const saved = await as('POST', '/api/admin/sources', { kind: 'feed', forum: 'accessories', url, name: 'Optics board' })
    expect(saved.status).toBe(200)
    expect(saved.body.ingested).toMatchObject({ status: 'ok', fetched: 3, new: 3, matches: 1 })
    const id = saved.body.source.id
    const byTitle = (a: unknown[], b: unknown[]) => (String(a[0]) < String(b[0]) ? -1 : 1)
    expect(
      postsOf(id)
        .map((p) => [p.title, p.source_name, p.post_type])
        .sort(byTitle),
    ).toEqual(preview.body.posts.map((p: { title: string; category: string }) => [p.title, 'Optics board', p.category]).sort(byTitle))
    expect(deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM matches').get()!.n).toBe(1)
    // the saved posts carry the saved source's ids, not the preview's
    expect(
      deps.sqlite
        .query<{ reddit_id: string }, []>('SELECT reddit_id FROM posts')
        .all()
        .every((r) => r.reddit_id.startsWith(`f${id}_`)),
    ).toBe(true)
    // one request for the preview, none for the save
    expect(forums.requests.length).toBe(1)
    expect((await as('GET', '/api/admin/sources')).body.sources.find((s: { id: number }) => s.id === id).health).toMatchObject({ state: 'ok', lastPosts: 3 })
  })

  test("'Fetch now' on a saved feed polls it: new posts stored; a second one within the interval is 429 with words", async () => {
    const url = forums.url + forums.paths.phpbb
    const id = (await as('POST', '/api/admin/sources', { kind: 'feed', forum: 'accessories', url })).body.source.id
    const first = await as('POST', `/api/admin/sources/${id}/fetch`)
    expect(first.body).toMatchObject({ status: 'ok', fetched: 2, new: 2 })
    forums.publish('phpbb', { title: 'WTS Trijicon MRO HD - $420' })
    const early = await as('POST', `/api/admin/sources/${id}/fetch`)
    expect([early.status, early.body.error?.code]).toEqual([429, 'SOURCE_FETCH_FAILED'])
    expect(early.body.error.message).toMatch(/127\.0\.0\.1 was asked less than 60 s ago.*Try again in \d+ s/)
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(postsOf(id)).toHaveLength(2)
    await pass()
    const later = await as('POST', `/api/admin/sources/${id}/fetch`)
    expect(later.body).toMatchObject({ status: 'ok', fetched: 3, new: 1 })
    expect(later.body.posts.map((p: { title: string; category: string }) => [p.title, p.category])[0]).toEqual(['WTS Trijicon MRO HD - $420', 'wts'])
    expect(postsOf(id)).toHaveLength(3)
    expect(audits().filter((a) => a.action === 'source.fetch')).toHaveLength(3)
  })

  test("'Fetch now' of a push source is 400, of an unknown id 404", async () => {
    const push = (await as('POST', '/api/admin/sources', { kind: 'push', forum: 'accessories' })).body.source.id
    expect((await as('POST', `/api/admin/sources/${push}/fetch`)).status).toBe(400)
    expect((await as('POST', '/api/admin/sources/9999/fetch')).status).toBe(404)
  })

  test('the politeness interval: settable, never below 15 s (400), audited', async () => {
    expect((await as('GET', '/api/admin/sources')).body).toMatchObject({ politenessSeconds: 60, minPolitenessSeconds: 15 })
    for (const v of [14, 0, -5]) expect((await as('PUT', '/api/admin/sources/settings', { politenessSeconds: v })).status).toBe(400)
    expect((await as('PUT', '/api/admin/sources/settings', { politenessSeconds: 15 })).body).toEqual({ politenessSeconds: 15 })
    expect((await as('GET', '/api/admin/sources')).body.politenessSeconds).toBe(15)
    expect(audits().filter((a) => a.action === 'source.settings')).toHaveLength(1)
    // it applies at once: a host asked 16 s ago may be asked again
    const url = forums.url + forums.paths.vbulletin
    expect((await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url })).status).toBe(200)
    clock.advance(16_000)
    expect((await as('POST', '/api/admin/sources/preview', { kind: 'feed', forum: 'accessories', url })).status).toBe(200)
  })
})
