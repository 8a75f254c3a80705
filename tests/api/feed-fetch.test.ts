// One read of a forum's feed against the local fake forums (tests/fakes/forum-feeds.ts) over loopback,
// allowed by ALLOW_PRIVATE_SOURCES=1 in this test's config: each forum package, conditional requests,
// gzip, redirects, and every named failure. Then, without it, the SSRF refusals: loopback, private
// and link-local addresses, names that resolve inward, a public feed that redirects inward, and IPv4
// carried inside IPv6 — each refused before any request reaches the address.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fetchFeed, FeedFetchError, retryAfterMsOf, type FeedFetchOpts } from '../../src/sources/feed-fetch'
import type { FeedFormat } from '../../src/sources/feed-parse'
import type { ForumSoftwareName } from '../../src/sources/forum-software'
import { startForumFeeds, type ForumFeeds } from '../fakes/forum-feeds'
import { cases } from '../fixtures/ipv4-embeddings'
import { makeConfig } from '../helpers'

let forums: ForumFeeds
const config = makeConfig({ ALLOW_PRIVATE_SOURCES: '1' })
const local = (extra: Partial<FeedFetchOpts> = {}): FeedFetchOpts => ({ allowPrivate: config.allowPrivateSources, now: Date.now, ...extra })
const failure = async (p: Promise<unknown>): Promise<FeedFetchError> => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  if (e instanceof FeedFetchError) return e
  throw new Error(`expected FeedFetchError, got ${String(e)}`)
}

beforeAll(async () => {
  forums = await startForumFeeds()
})
afterAll(() => forums.stop())

describe('reading each forum package over loopback (ALLOW_PRIVATE_SOURCES=1)', () => {
  test('the config reads ALLOW_PRIVATE_SOURCES, off by default', () => {
    expect(config.allowPrivateSources).toBe(true)
    expect(makeConfig().allowPrivateSources).toBe(false)
  })

  const expected: [keyof ForumFeeds['paths'], FeedFormat, ForumSoftwareName | null, number][] = [
    ['xenforo', 'rss2', 'xenforo', 3],
    ['phpbb', 'atom', 'phpbb', 2],
    ['phpbbBoard', 'atom', 'phpbb', 2],
    ['discourseRss', 'rss2', 'discourse', 2],
    ['discourseJson', 'discourse-json', 'discourse', 2],
    ['discourseLatest', 'discourse-json', 'discourse', 2],
    ['vbulletin', 'rss2', 'vbulletin', 2],
    ['jsonfeed', 'jsonfeed', null, 2],
  ]
  for (const [path, format, software, count] of expected)
    test(`${path}: ${format}, ${count} items${software ? `, told as ${software}` : ''}, absolute links on the fake's host`, async () => {
      const r = await fetchFeed(forums.url + forums.paths[path], local())
      if (r.status !== 'ok') throw new Error('expected a body')
      expect([r.feed.format, r.feed.software?.name ?? null, r.feed.items.length]).toEqual([format, software, count])
      for (const item of r.feed.items) {
        expect(item.url).toStartWith(`${forums.url}/`)
        expect(item.title).toMatch(/^(\[?(WTS|WTB|FS)|Deal)/)
        expect(item.publishedAt).toBeNumber()
      }
    })

  test('the newest listing comes first, with its text', async () => {
    forums.publish('xenforo', { title: 'WTS: EOTech EXPS3-0 - $520', author: 'holo_hank', html: 'Battery cap included.<br />\nNo trades.' })
    const r = await fetchFeed(forums.url + forums.paths.xenforo, local())
    if (r.status !== 'ok') throw new Error('expected a body')
    expect(r.feed.items[0]).toMatchObject({ title: 'WTS: EOTech EXPS3-0 - $520', author: 'holo_hank', body: 'Battery cap included.\nNo trades.\n\nRead more' })
  })
})

describe('conditional requests and compression', () => {
  test('ETag and Last-Modified are sent back; 304 is "nothing new"; a new post is a 200 again', async () => {
    const url = forums.url + forums.paths.discourseRss
    const first = await fetchFeed(url, local())
    expect(first.status).toBe('ok')
    expect(first.validators.etag).toMatch(/^"[0-9a-f]+"$/)
    expect(first.validators.lastModified).toMatch(/GMT$/)
    const second = await fetchFeed(url, local({ validators: first.validators }))
    expect(second).toEqual({ status: 'not_modified', url, validators: first.validators })
    const sent = forums.requests.at(-1)!.headers
    expect([sent['if-none-match'], sent['if-modified-since']]).toEqual([first.validators.etag!, first.validators.lastModified!])
    forums.publish('discourse', { title: '[WTS] Trijicon MRO HD - $480' })
    const third = await fetchFeed(url, local({ validators: first.validators }))
    if (third.status !== 'ok') throw new Error('expected the new post')
    expect(third.feed.items[0]!.title).toBe('[WTS] Trijicon MRO HD - $480')
    expect(third.validators.etag).not.toBe(first.validators.etag)
  })

  test('Last-Modified alone is enough for a 304', async () => {
    const url = forums.url + forums.paths.vbulletin
    const first = await fetchFeed(url, local())
    const again = await fetchFeed(url, local({ validators: { etag: null, lastModified: first.validators.lastModified } }))
    expect(again.status).toBe('not_modified')
  })

  test('gzip is asked for and decoded', async () => {
    const r = await fetchFeed(forums.url + forums.paths.phpbb, local())
    expect(forums.requests.at(-1)!.headers['accept-encoding']).toContain('gzip')
    expect(r.status).toBe('ok')
    const raw = await fetch(forums.url + forums.paths.phpbb, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit)
    expect(raw.headers.get('content-encoding')).toBe('gzip')
    await raw.body?.cancel()
  })
})

describe('redirects: followed by hand, at most 5', () => {
  test('a moved board is followed to where it ends; the final URL is reported', async () => {
    forums.redirect('/forums/old-optics.3/index.rss', '/forums/optics.9/index.rss', 301)
    forums.redirect('/forums/optics.9/index.rss', forums.paths.xenforo, 302)
    const r = await fetchFeed(`${forums.url}/forums/old-optics.3/index.rss`, local())
    expect([r.status, r.url]).toEqual(['ok', forums.url + forums.paths.xenforo])
  })

  test('a sixth hop is refused', async () => {
    for (let i = 0; i < 6; i++) forums.redirect(`/loop/${i}`, `/loop/${i + 1}`, 307)
    const e = await failure(fetchFeed(`${forums.url}/loop/0`, local()))
    expect([e.kind, e.message]).toEqual(['redirects', 'The feed redirected more than 5 times; use the address it ends at'])
    expect(forums.requests.filter((r) => r.path.startsWith('/loop/')).length).toBe(6)
  })
})

describe('named failures', () => {
  test('403 with the Cloudflare block page → blocked', async () => {
    forums.block()
    const e = await failure(fetchFeed(forums.url + forums.paths.xenforo, local())).finally(() => forums.block(false))
    expect([e.kind, e.detail.status]).toEqual(['blocked', 403])
    expect(e.message).toContain('bot protection')
  })

  test('the block page with 200 → not a feed, saying it is a block page', async () => {
    const { BLOCK_PAGE } = await import('../fakes/forum-feeds')
    forums.serve('/blocked-200.rss', { body: BLOCK_PAGE, contentType: 'text/html' })
    const e = await failure(fetchFeed(`${forums.url}/blocked-200.rss`, local()))
    expect(e.kind).toBe('not_a_feed')
    expect(e.message).toContain('bot-protection block page')
  })

  test('404 and 410 → gone', async () => {
    expect((await failure(fetchFeed(`${forums.url}/forums/removed.77/index.rss`, local()))).kind).toBe('gone')
    forums.serve('/gone.rss', { status: 410, body: 'Gone', contentType: 'text/plain' })
    const e = await failure(fetchFeed(`${forums.url}/gone.rss`, local()))
    expect([e.kind, e.detail.status]).toEqual(['gone', 410])
  })

  test('429 → rate_limited with the Retry-After, seconds or a date', async () => {
    forums.rateLimit('120')
    const e = await failure(fetchFeed(forums.url + forums.paths.jsonfeed, local())).finally(() => forums.rateLimit(null))
    expect([e.kind, e.detail.retryAfterMs, e.message]).toEqual(['rate_limited', 120_000, 'The forum says too many requests (429); it asks to wait 120 s'])
    expect(retryAfterMsOf('Fri, 27 Nov 2026 18:02:00 GMT', Date.UTC(2026, 10, 27, 18, 0, 0))).toBe(120_000)
    expect(retryAfterMsOf('soon', 0)).toBeNull()
  })

  test('5xx → server', async () => {
    forums.serve('/down.rss', { status: 503, body: 'upstream down', contentType: 'text/plain' })
    expect((await failure(fetchFeed(`${forums.url}/down.rss`, local()))).kind).toBe('server')
  })

  test('a server that never answers → timeout', async () => {
    forums.stall('/slow.rss')
    const e = await failure(fetchFeed(`${forums.url}/slow.rss`, local({ timeoutMs: 300 })))
    expect(e.kind).toBe('timeout')
  })

  test('a name lookup that never answers → timeout too', async () => {
    const e = await failure(
      fetchFeed('https://forum.example.com/feed.rss', { allowPrivate: false, now: Date.now, timeoutMs: 200, resolve: () => new Promise(() => {}) }),
    )
    expect(e.kind).toBe('timeout')
  })

  test('a redirect to something that is not a URL → redirects, in words', async () => {
    forums.serve('/bad-redirect.rss', { status: 302, body: '', headers: { location: 'http://[::1' } })
    const e = await failure(fetchFeed(`${forums.url}/bad-redirect.rss`, local()))
    expect([e.kind, e.message]).toEqual(['redirects', 'The feed redirected to an address that is not a URL (http://[::1)'])
  })

  test('over 5 MB → too_big, counted after gzip is decoded (a compression bomb stops there too)', async () => {
    const huge = `<rss version="2.0"><channel>${' '.repeat(6 * 1024 * 1024)}</channel></rss>`
    forums.serve('/huge.rss', { body: huge, contentType: 'application/rss+xml' })
    forums.serve('/huge-plain.rss', { body: huge, contentType: 'application/rss+xml', identity: true })
    for (const path of ['/huge.rss', '/huge-plain.rss']) {
      const e = await failure(fetchFeed(forums.url + path, local()))
      expect({ path, kind: e.kind, message: e.message }).toEqual({ path, kind: 'too_big', message: 'The feed is larger than 5 MB' })
    }
  })

  test('a web page or other JSON → not_a_feed, in words', async () => {
    forums.serve('/forums/', { body: '<!DOCTYPE html><html><head><title>Forums | Gun Trader</title></head></html>', contentType: 'text/html' })
    const e = await failure(fetchFeed(`${forums.url}/forums/`, local()))
    expect([e.kind, e.message]).toEqual([
      'not_a_feed',
      'Not a feed: the address returned a web page ("Forums | Gun Trader"), not RSS, Atom or JSON Feed. Open the forum and copy the address of its RSS link',
    ])
  })
})

describe('SSRF: refused before any request, on every hop (ALLOW_PRIVATE_SOURCES unset)', () => {
  const strict = (extra: Partial<FeedFetchOpts> = {}): FeedFetchOpts => ({ allowPrivate: makeConfig().allowPrivateSources, now: Date.now, ...extra })
  const INWARD = 'The URL must not point to this server or a private network'

  test('the fake itself on loopback is refused, and it never hears of it', async () => {
    const before = forums.requests.length
    for (const url of [
      forums.url + forums.paths.xenforo,
      'http://localhost/feed.rss',
      'http://[::1]/feed',
      'http://10.0.0.5/feed.php',
      'http://192.168.1.20/external.php?type=RSS2',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const e = await failure(fetchFeed(url, strict()))
      expect({ url, kind: e.kind, message: e.message }).toEqual({ url, kind: 'refused', message: INWARD })
    }
    expect(forums.requests.length).toBe(before)
  })

  test('a name that resolves inward is refused; the name is resolved again at every fetch', async () => {
    let answer = '93.184.215.14'
    const resolve = async () => [answer]
    const seen: string[] = []
    const via = async (url: string, init: RequestInit) => (seen.push(url), fetch(url.replace('http://forum.example.com', forums.url), init))
    const ok = await fetchFeed(`http://forum.example.com${forums.paths.xenforo}`, strict({ resolve, fetch: via }))
    expect(ok.status).toBe('ok')
    answer = '10.1.2.3' // DNS rebinding: public when saved, inward now
    const e = await failure(fetchFeed(`http://forum.example.com${forums.paths.xenforo}`, strict({ resolve, fetch: via })))
    expect([e.kind, e.message, seen.length]).toEqual(['refused', INWARD, 1])
  })

  test('a public feed that redirects to a private address is refused at that hop', async () => {
    const resolve = async (host: string) => (host === 'forum.example.com' ? ['93.184.215.14'] : ['127.0.0.1'])
    const via = (url: string, init: RequestInit) => fetch(url.replace('http://forum.example.com', forums.url), init)
    for (const target of [
      `${forums.url}${forums.paths.xenforo}`,
      'http://10.0.0.1/feed',
      'http://internal.example.net/feed',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      forums.redirect('/moved.rss', target, 302)
      const before = forums.requests.length
      const e = await failure(fetchFeed('http://forum.example.com/moved.rss', strict({ resolve, fetch: via })))
      expect({ target, kind: e.kind, message: e.message }).toEqual({
        target,
        kind: 'refused',
        message: `The feed redirected to ${new URL(target).href}, which is refused: ${INWARD}`,
      })
      expect(forums.requests.length).toBe(before + 1) // only the public hop was asked
    }
  })

  test('IPv4 carried in IPv6 (the channels table): inward forms refused as literals and as resolved names', async () => {
    const inward = cases.filter((c) => c.inward)
    const never = async () => {
      throw new Error('no request may be sent')
    }
    for (const c of inward) {
      const literal = await failure(fetchFeed(`http://[${c.address}]/feed.rss`, strict({ fetch: never })))
      const named = await failure(fetchFeed('https://feeds.example.com/feed.rss', strict({ fetch: never, resolve: async () => [c.address] })))
      expect({ form: c.form, v4: c.v4, kinds: [literal.kind, named.kind] }).toEqual({ form: c.form, v4: c.v4, kinds: ['refused', 'refused'] })
    }
  })

  test('only http and https, never credentials; plain http to a public host is fine for feeds', async () => {
    const never = async () => {
      throw new Error('no request may be sent')
    }
    expect((await failure(fetchFeed('ftp://forum.example.com/feed', strict({ fetch: never })))).message).toBe('The URL must start with http:// or https://')
    expect((await failure(fetchFeed('file:///etc/passwd', strict({ fetch: never })))).kind).toBe('refused')
    expect((await failure(fetchFeed('https://user:pw@forum.example.com/feed', strict({ fetch: never })))).message).toBe(
      'The URL must not contain a user name or password',
    )
    const via = (url: string, init: RequestInit) => fetch(url.replace('http://forum.example.com', forums.url), init)
    const r = await fetchFeed(`http://forum.example.com${forums.paths.jsonfeed}`, strict({ resolve: async () => ['8.8.8.8'], fetch: via }))
    expect(r.status).toBe('ok')
  })
})
