// Feeds of a user's matches (issue 28 §2), read as a feed reader reads them: the Atom and JSON Feed
// documents are parsed with feedsmith (a maintained feed parser) and a strict XML parser (saxes), and
// the fields each specification requires are checked. Also: per category, only the owner's matches,
// rotation (the old address is gone at once), conditional GET (304), and a banned owner's feed.
import { describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { feedKeys, matches, users } from '../../src/db/schema'
import { parseAtomFeed, parseJsonFeed } from 'feedsmith'
import { SaxesParser } from 'saxes'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { nameUuid } from '../../src/feeds/view'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, eachTestApp } from '../helpers'

const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }
const t = eachTestApp()

type Cat = 'wts' | 'wtb' | 'gd'

/** Stores one post a minute later than the last and runs the matcher on it (live). */
async function post(title: string, opts: { category?: Cat; content?: string; author?: string; sourceName?: string } = {}) {
  t.clock.advance(60_000)
  const gd = opts.category === 'gd'
  const stored = await storePosts(t.deps, [
    forumPost(title, {
      subreddit: gd ? 'gundeals' : 'GunAccessoriesForSale',
      now: t.clock.now().getTime(),
      ageMs: 1000,
      content: opts.content ?? '',
      author: opts.author ?? 'seller',
      ...(opts.sourceName ? { sourceName: opts.sourceName } : {}),
    }),
  ])
  await matchPosts(t.deps, stored, 'live')
}

async function subscriber(terms: [Cat, string][] = [['wts', 'widget']]) {
  const user = await createUserWithSession(t.deps)
  for (const [c, term] of terms) await addTerm(t.deps, user.userId, FULL, c, term)
  const feeds = await call(t.app, 'GET', '/api/feeds', { cookie: user.cookie })
  expect(feeds.status).toBe(200)
  return { ...user, feeds: feeds.body as { atom: string; json: string; categories: Record<Cat, { atom: string; json: string }> } }
}

const path = (url: string) => {
  const u = new URL(url)
  return u.pathname + u.search
}
const get = (url: string, headers: Record<string, string> = {}) => call(t.app, 'GET', path(url), { headers })

/** Well-formed XML 1.0 or throws (saxes is strict: one bad character or entity fails). */
function assertWellFormed(xml: string) {
  const parser = new SaxesParser({ xmlns: true })
  parser.on('error', (e) => {
    throw e
  })
  parser.write(xml).close()
}

/** An Atom text construct's text (feedsmith answers {value, type}). */
const text = (c: unknown): string | undefined => (typeof c === 'string' ? c : (c as { value?: string } | undefined)?.value)

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** RFC 4287's musts: feed id, title, updated, an author (feed or every entry); entry id, title, updated, a link or content. */
type AtomFeed = ReturnType<typeof parseAtomFeed<string>>
function assertAtomShape(feed: AtomFeed) {
  expect(feed.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/)
  expect(text(feed.title)).toBeTruthy()
  expect(feed.updated).toMatch(RFC3339)
  expect(feed.links?.some((l) => l.rel === 'self')).toBe(true)
  const feedAuthor = (feed.authors?.length ?? 0) > 0
  for (const e of feed.entries ?? []) {
    expect(e.id).toMatch(/^urn:uuid:/)
    expect(text(e.title)).toBeTruthy()
    expect(e.updated).toMatch(RFC3339)
    expect(feedAuthor || (e.authors?.length ?? 0) > 0).toBe(true)
    expect(e.links?.some((l) => (l.rel ?? 'alternate') === 'alternate')).toBe(true)
  }
}

/** JSON Feed 1.1's musts: version, title, items; each item an id (string) and content_html or content_text. */
function assertJsonFeedShape(raw: any) {
  expect(raw.version).toBe('https://jsonfeed.org/version/1.1')
  expect(typeof raw.title).toBe('string')
  expect(Array.isArray(raw.items)).toBe(true)
  for (const item of raw.items) {
    expect(typeof item.id).toBe('string')
    expect(typeof item.content_text === 'string' || typeof item.content_html === 'string').toBe(true)
    if (item.date_published !== undefined) expect(item.date_published).toMatch(RFC3339)
    if (item.date_modified !== undefined) expect(item.date_modified).toMatch(RFC3339)
    for (const k of Object.keys(item))
      expect(
        [
          'id',
          'url',
          'external_url',
          'title',
          'content_text',
          'content_html',
          'summary',
          'image',
          'banner_image',
          'date_published',
          'date_modified',
          'authors',
          'tags',
          'language',
          'attachments',
        ].includes(k) || k.startsWith('_'),
      ).toBe(true)
  }
}

describe('GET /api/feeds', () => {
  test('needs a session', async () => {
    expect((await call(t.app, 'GET', '/api/feeds')).status).toBe(401)
  })

  test('gives Atom and JSON addresses for all categories and each, stable between calls', async () => {
    const u = await subscriber()
    expect(u.feeds.atom).toMatch(/^http:\/\/localhost:3000\/feeds\/[A-Za-z0-9_-]{43}\/matches\.atom$/)
    expect(u.feeds.json).toBe(u.feeds.atom.replace(/\.atom$/, '.json'))
    expect(u.feeds.categories.gd).toEqual({ atom: `${u.feeds.atom}?category=gd`, json: `${u.feeds.json}?category=gd` })
    expect((await call(t.app, 'GET', '/api/feeds', { cookie: u.cookie })).body).toEqual(u.feeds)
  })

  test('the database alone does not hold the address: only a nonce and the secret’s hash', async () => {
    const u = await subscriber()
    const secret = new URL(u.feeds.atom).pathname.split('/')[2]!
    const [row] = await asAsync(t.deps.db).select().from(feedKeys).where(eq(feedKeys.userId, u.userId))
    expect(row).toBeDefined()
    expect(JSON.stringify(row)).not.toContain(secret)
  })
})

describe('the Atom feed', () => {
  test('is valid Atom a reader parses: the post, matched terms, price and source, newest first', async () => {
    const u = await subscriber([
      ['wts', 'widget'],
      ['wts', 'gadget'],
    ])
    await post('[WTS] Widget one - $100', { content: 'First widget, barely used.' })
    await post('[WTS] Widget and gadget - $1,450', { content: 'Both items.\n\nShips   free.', author: 'alice', sourceName: 'GAFS' })
    const res = await get(u.feeds.atom)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    assertWellFormed(res.text)
    const feed = parseAtomFeed(res.text)
    assertAtomShape(feed)
    expect(feed.entries!.map((e) => text(e.title))).toEqual(['[WTS] Widget and gadget - $1,450', '[WTS] Widget one - $100'])
    const [first] = feed.entries!
    expect(first!.authors).toEqual([{ name: 'alice' }])
    expect(first!.links![0]!.href).toStartWith('https://www.reddit.com/r/GunAccessoriesForSale/comments/')
    expect(first!.categories!.map((c) => c.term)).toEqual(expect.arrayContaining(['wts', 'widget', 'gadget', 'GAFS']))
    expect(text(first!.summary)).toContain('Price: $1,450')
    expect(text(first!.summary)).toContain('Source: GAFS')
    expect(text(first!.summary)).toContain('Both items. Ships free.')
    expect(text(first!.content)).toContain('Matched terms: widget, gadget') // order as stored
    expect(first!.published).toMatch(RFC3339)
  })

  test('at most 50 entries, the newest', async () => {
    const u = await subscriber()
    for (let i = 0; i < 55; i++) await post(`[WTS] Widget ${i} - $${100 + i}`)
    const feed = parseAtomFeed((await get(u.feeds.atom)).text)
    expect(feed.entries).toHaveLength(50)
    expect(text(feed.entries![0]!.title)).toBe('[WTS] Widget 54 - $154')
    expect(text(feed.entries![49]!.title)).toBe('[WTS] Widget 5 - $105')
  })

  test('escapes markup and drops characters XML cannot carry, so any post title gives a well-formed feed', async () => {
    const u = await subscriber()
    const hostile = `[WTS] Widget <script>alert("x")</script> & 'more' \u0001\u0008 ]]> \uD800 - $5`
    await post(hostile, { content: '<b>bold</b> &amp; </content></entry>', author: 'a<b>&"' })
    const res = await get(u.feeds.atom)
    assertWellFormed(res.text)
    expect(res.text).not.toContain('<script>')
    const feed = parseAtomFeed(res.text)
    // (the lone surrogate became U+FFFD when the post was stored as UTF-8; tests/unit/feeds/render.test.ts drops one itself)
    expect(text(feed.entries![0]!.title)).toBe(`[WTS] Widget <script>alert("x")</script> & 'more'  ]]> \uFFFD - $5`)
    expect(feed.entries![0]!.authors![0]!.name).toBe('a<b>&"')
    // content is HTML: once decoded from XML it is escaped HTML, never live markup
    expect(text(feed.entries![0]!.content)).toContain('&lt;b&gt;bold&lt;/b&gt; &amp;amp;')
  })

  test('per category: ?category=gd has the deals matches only', async () => {
    const u = await subscriber([
      ['wts', 'widget'],
      ['gd', 'widget'],
    ])
    await post('[WTS] Widget - $10')
    await post('[Optic] Widget deal $20', { category: 'gd' })
    const all = parseAtomFeed((await get(u.feeds.atom)).text)
    expect(all.entries).toHaveLength(2)
    const gd = parseAtomFeed((await get(u.feeds.categories.gd.atom)).text)
    expect(gd.entries!.map((e) => text(e.title))).toEqual(['[Optic] Widget deal $20'])
    expect(text(gd.title)).toBe('Dibs: your Gundeals matches')
    const wtb = parseAtomFeed((await get(u.feeds.categories.wtb.atom)).text)
    expect(wtb.entries ?? []).toHaveLength(0)
  })
})

describe('the JSON feed', () => {
  test('is JSON Feed 1.1 with the matched terms, price and source in _dibs', async () => {
    const u = await subscriber()
    await post('[WTS] Widget - $75', { content: 'A widget.', sourceName: 'GAFS' })
    const res = await get(u.feeds.json)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/feed+json; charset=utf-8')
    assertJsonFeedShape(res.body)
    const feed = parseJsonFeed(res.body)
    expect(feed.feed_url).toBe(u.feeds.json)
    expect(feed.items).toHaveLength(1)
    const item = feed.items![0]!
    expect(item.title).toBe('[WTS] Widget - $75')
    expect(item.url).toStartWith('https://www.reddit.com/')
    expect(item.content_text).toContain('A widget.')
    expect(item.authors).toEqual([{ name: 'seller' }])
    expect(res.body.items[0]._dibs).toMatchObject({ category: 'wts', matched_terms: ['widget'], price: 75, source: 'GAFS' })
  })

  test('an entry has the same id in both formats', async () => {
    const u = await subscriber()
    await post('[WTS] Widget - $75')
    const atom = parseAtomFeed((await get(u.feeds.atom)).text)
    const json = (await get(u.feeds.json)).body
    expect(json.items[0].id).toBe(atom.entries![0]!.id)
  })
})

describe('whose matches', () => {
  test('a feed carries its owner’s matches only, never another user’s', async () => {
    const a = await subscriber([['wts', 'widget']])
    const b = await subscriber([['wts', 'gizmo']])
    await post('[WTS] Widget - $10')
    await post('[WTS] Gizmo - $20')
    const ownIds = async (userId: number) =>
      (await asAsync(t.deps.db).select({ id: matches.id }).from(matches).where(eq(matches.userId, userId)).orderBy(desc(matches.id))).map((r) =>
        nameUuid(`${t.deps.config.appUrl} match ${r.id}`),
      )
    for (const [u, own, other] of [
      [a, '[WTS] Widget - $10', '[WTS] Gizmo - $20'],
      [b, '[WTS] Gizmo - $20', '[WTS] Widget - $10'],
    ] as const) {
      const atom = (await get(u.feeds.atom)).text
      const json = (await get(u.feeds.json)).text
      expect(parseAtomFeed(atom).entries!.map((e) => e.id)).toEqual(await ownIds(u.userId))
      expect(atom).toContain(own)
      expect(atom).not.toContain(other)
      expect(json).not.toContain(other)
    }
  })

  test('an unknown secret, and a banned owner’s, answer 404', async () => {
    const u = await subscriber()
    const unknown = await call(t.app, 'GET', '/feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/matches.atom')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('FEED_NOT_FOUND')
    expect((await get(u.feeds.json)).status).toBe(200)
    await asAsync(t.deps.db).update(users).set({ bannedAt: t.clock.now() }).where(eq(users.id, u.userId))
    expect((await get(u.feeds.json)).status).toBe(404)
  })
})

describe('rotation', () => {
  test('POST /api/feeds/rotate gives new addresses and the old ones answer 404 at once', async () => {
    const u = await subscriber()
    await post('[WTS] Widget - $10')
    const before = await get(u.feeds.atom)
    expect(before.status).toBe(200)
    const rotated = await call(t.app, 'POST', '/api/feeds/rotate', { cookie: u.cookie })
    expect(rotated.status).toBe(200)
    expect(rotated.body.atom).not.toBe(u.feeds.atom)
    for (const old of [u.feeds.atom, u.feeds.json, u.feeds.categories.wts.atom]) expect((await get(old)).status).toBe(404)
    const after = await get(rotated.body.atom)
    expect(after.status).toBe(200)
    // the same feed for a reader: same feed and entry ids
    expect(parseAtomFeed(after.text).entries!.map((e) => e.id)).toEqual(parseAtomFeed(before.text).entries!.map((e) => e.id))
    expect((await call(t.app, 'GET', '/api/feeds', { cookie: u.cookie })).body).toEqual(rotated.body)
  })

  test('needs a session and a same-origin request', async () => {
    expect((await call(t.app, 'POST', '/api/feeds/rotate')).status).toBe(401)
    const u = await subscriber()
    const cross = await call(t.app, 'POST', '/api/feeds/rotate', { cookie: u.cookie, headers: { origin: 'https://evil.example' } })
    expect(cross.status).toBe(403)
    expect((await get(u.feeds.atom)).status).toBe(200)
  })
})

describe('conditional GET', () => {
  test('304 for a current ETag or Last-Modified; a new match changes both', async () => {
    const u = await subscriber()
    await post('[WTS] Widget - $10')
    for (const url of [u.feeds.atom, u.feeds.json]) {
      const first = await get(url)
      const etag = first.headers.get('etag')!
      const lastModified = first.headers.get('last-modified')!
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
      expect(first.headers.get('cache-control')).toBe('private, no-cache')
      const again = await get(url, { 'if-none-match': etag })
      expect(again.status).toBe(304)
      expect(again.text).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect((await get(url, { 'if-modified-since': lastModified })).status).toBe(304)
      expect((await get(url, { 'if-none-match': '"other"' })).status).toBe(200)
      // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2)
      expect((await get(url, { 'if-none-match': '"other"', 'if-modified-since': lastModified })).status).toBe(200)
    }
    const first = await get(u.feeds.atom)
    await post('[WTS] Widget two - $12')
    const changed = await get(u.feeds.atom, { 'if-none-match': first.headers.get('etag')! })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'))
    expect((await get(u.feeds.atom, { 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(200)
  })
})
