// Reddit as it answers in 2026 without a key: the Atom feed (/r/A+B/new/.rss) read into posts, and every
// way it refuses named — logged-out JSON closed (403), the block page, the login redirect, a banned
// subreddit inside the multireddit, a 429 with Retry-After, a hung connection — plus hostile feeds that
// get bounded work and a named error. Against tests/fakes/reddit.ts and small local servers.
import { afterEach, describe, expect, test } from 'bun:test'
import { BLOCK_PAGE, CLOSED_JSON, LOGIN_REDIRECT, RedditClient } from '../../src/forums/reddit-client'
import { parseRedditAtom } from '../../src/forums/reddit-atom'
import { startFakeReddit, type FakeReddit, fakeRedditClient } from '../fakes/reddit'
import { rejection, simClock } from './reddit-helpers'

const SUBS = ['GunAccessoriesForSale', 'gundeals']
let fake: FakeReddit | null = null
const servers: { stop(force?: boolean): unknown }[] = []
afterEach(async () => {
  await fake?.stop()
  fake = null
  for (const s of servers.splice(0)) await s.stop(true)
})

async function setup(opts: { subreddits?: string[]; timeoutMs?: number } = {}) {
  const c = simClock()
  fake = await startFakeReddit({ now: c.now, timeoutDelayMs: 2000 })
  const client = fakeRedditClient(fake, {
    now: c.now,
    sleep: async (ms) => c.advance(ms),
    subreddits: opts.subreddits ?? SUBS,
    timeoutMs: opts.timeoutMs ?? 2000,
  })
  return { fake, client, clock: c }
}

/** A one-route server answering every request with `answer`. */
function serve(answer: () => Response | Promise<Response>): string {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: answer })
  servers.push(s)
  return `http://127.0.0.1:${s.port}`
}

function clientAt(baseUrl: string, c = simClock()) {
  return new RedditClient({ baseUrl, userAgent: 'linux:dibs:test', subreddits: SUBS, timeoutMs: 1000, now: c.now, sleep: async (ms) => c.advance(ms) })
}

const entry = (id: string, o: { title?: string; content?: string; published?: string; link?: string } = {}) =>
  `<entry><author><name>/u/seller</name></author><category term="GunAccessoriesForSale" label="r/GunAccessoriesForSale"/>` +
  `<content type="html">${o.content ?? '&amp;#32; submitted by &amp;#32; &lt;a href=&quot;https://www.reddit.com/user/seller&quot;&gt; /u/seller &lt;/a&gt;'}</content>` +
  `<id>t3_${id}</id><link href="${o.link ?? `https://www.reddit.com/r/GunAccessoriesForSale/comments/${id}/x/`}" /><published>${o.published ?? '2025-11-20T12:00:00+00:00'}</published><title>${o.title ?? '[WTS] RMR'}</title></entry>`
const feed = (...entries: string[]) => `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">${entries.join('')}</feed>`

describe('Reddit over Atom, no key', () => {
  test('one request per poll for all subreddits: /r/A+B/new/.rss with our User-Agent, the newest entries as posts', async () => {
    const s = await setup()
    expect(s.client.mode).toBe('atom')
    expect(s.client.fetchInfo).toBeUndefined() // no /api/info without a key: re-checks come from later polls
    const self = s.fake.publish({
      title: '[WTS] Schmidt &amp; Bender <PM II> 5-25x56 "USED" - $2,400',
      selftext: 'Glass is clean & sharp.\nComes with caps\n\nSecond paragraph: <b>not bold</b>',
      author: 'glass_guy',
    })
    s.clock.advance(1000)
    const link = s.fake.publish({ title: '[Optic] Holosun 507C - $279', subreddit: 'gundeals', url: 'https://shop.example.com/507c?a=1&b=2' })
    s.clock.advance(1000)
    const cross = s.fake.publish({ title: '[WTS] Crossposted T2', url: '/r/hardwareswap/comments/abc123/t2/' })
    const page = await s.client.fetchNew()
    const req = s.fake.listingRequests()
    expect(req).toHaveLength(1)
    expect(req[0]!.path).toBe('/r/GunAccessoriesForSale+gundeals/new/.rss')
    expect(req[0]!.headers['user-agent']).toBe('linux:dibs:test')
    expect(Number(req[0]!.query.limit)).toBeGreaterThanOrEqual(98)
    expect(page.posts.map((p) => p.redditId)).toEqual([cross.id, link.id, self.id])
    const [c, l, p] = page.posts
    expect(p).toMatchObject({
      name: `t3_${self.id}`,
      title: '[WTS] Schmidt &amp; Bender <PM II> 5-25x56 "USED" - $2,400', // decoded once: the literal "&amp;" the seller typed stays
      author: 'glass_guy',
      subreddit: 'GunAccessoriesForSale',
      content: 'Glass is clean & sharp.\nComes with caps\n\nSecond paragraph: <b>not bold</b>',
      flair: null,
      authorFlair: null,
      url: `https://www.reddit.com${self.permalink}`,
    })
    expect(p!.linkUrl).toBe(p!.url)
    expect(p!.createdAt.getTime()).toBe(self.created_utc * 1000)
    expect(l).toMatchObject({ subreddit: 'gundeals', linkUrl: 'https://shop.example.com/507c?a=1&b=2', content: '' })
    expect(c!.linkUrl).toBe('https://www.reddit.com/r/hardwareswap/comments/abc123/t2/') // relative [link] made absolute
    expect(page.after).toBe(`t3_${self.id}`)
    expect(s.client.healthReport()).toMatchObject({ state: 'ok', reason: null, requestsLastHour: 1 })
  })

  test('an empty feed is no posts, and catch-up pages back with ?after= until a known post', async () => {
    const s = await setup()
    expect((await s.client.fetchNew()).posts).toEqual([])
    const all = s.fake.publishMany(150)
    const known = new Set([all[0]!.id])
    const r = await s.client.fetchSince((id) => known.has(id))
    expect(r.posts).toHaveLength(149)
    expect(r.pages).toBe(2)
    expect(s.fake.listingRequests()[2]!.query.after).toMatch(/^t3_/)
  })

  test('a banned subreddit inside the multireddit: found by asking each alone, left out, the others still read', async () => {
    const s = await setup()
    s.fake.publish({ title: '[Optic] Holosun 507C - $279', subreddit: 'gundeals', url: 'https://shop.example.com/507c' })
    s.fake.ban('GunAccessoriesForSale')
    const page = await s.client.fetchNew()
    expect(page.posts.map((p) => p.subreddit)).toEqual(['gundeals'])
    const h = s.client.healthReport()
    expect(h).toMatchObject({ state: 'forum_missing', missingForums: ['GunAccessoriesForSale'] })
    expect(h.reason).toContain('r/GunAccessoriesForSale answered banned, private or not found')
    // the next poll asks only the live one
    s.clock.advance(60_000)
    await s.client.fetchNew()
    expect(s.fake.listingRequests().at(-1)!.path).toBe('/r/gundeals/new/.rss')
  })

  test('logged-out JSON (REDDIT_MODE=json) answers 403 since May 2026: named, with the fix', async () => {
    const c = simClock()
    fake = await startFakeReddit({ now: c.now })
    const client = fakeRedditClient(fake, { now: c.now, mode: 'json' })
    const e = await rejection(client.fetchNew())
    expect(e.kind).toBe('closed')
    expect(e.message).toBe(CLOSED_JSON)
    expect(e.message).toContain('Reddit closed logged-out JSON in May 2026: use the Atom feed')
    expect(client.healthReport()).toMatchObject({ state: 'blocked', reason: CLOSED_JSON, forbiddenLastHour: 1 })
  })

  test("the 403 block page, the login redirect and a 429's Retry-After are each named, and the budget waits", async () => {
    const s = await setup()
    s.fake.block()
    const blocked = await rejection(s.client.fetchNew())
    expect(blocked).toMatchObject({ kind: 'blocked', message: BLOCK_PAGE })
    expect(s.client.healthReport().state).toBe('blocked')
    expect(s.client.budget.nextAllowedAt(s.clock.now())).toBeGreaterThan(s.clock.now()) // growing backoff, never a burst
    s.fake.block(false)
    s.fake.loginRedirect()
    s.clock.advance(10 * 60_000)
    const login = await rejection(s.client.fetchNew())
    expect(login).toMatchObject({ kind: 'login_required', message: LOGIN_REDIRECT })
    expect(s.client.healthReport().state).toBe('login_required')
    s.fake.loginRedirect(false)
    s.clock.advance(10 * 60_000)
    s.fake.setRetryAfter(42)
    s.fake.setFault('429')
    const limited = await rejection(s.client.fetchNew())
    expect(limited.kind).toBe('rate_limited')
    expect(s.client.budget.nextAllowedAt(s.clock.now())).toBe(s.clock.now() + 42_000)
    s.clock.advance(42_000)
    await s.client.fetchNew()
    expect(s.client.healthReport()).toMatchObject({ state: 'ok', rateLimitedLastHour: 1, forbiddenLastHour: 1 })
  })

  test('a hung connection times out with a named error', async () => {
    const s = await setup({ timeoutMs: 200 })
    s.fake.setFault('timeout')
    const e = await rejection(s.client.fetchNew())
    expect(e.kind).toBe('timeout')
    expect(s.client.healthReport()).toMatchObject({ state: 'failing', reason: 'Reddit did not answer within 200 ms' })
  })
})

describe('hostile feeds: bounded work, a named error, nothing stored wrong', () => {
  const atom = (body: string | Uint8Array) => () => new Response(body as BodyInit, { headers: { 'content-type': 'application/atom+xml; charset=UTF-8' } })

  test('an entity bomb, an external entity and a DTD are refused before parsing', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><feed xmlns="http://www.w3.org/2005/Atom">${entry('aaa111', { title: '&c;' })}</feed>`
    const xxe = `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]><feed xmlns="http://www.w3.org/2005/Atom">${entry('aaa111', { title: '&x;' })}</feed>`
    const dtd = `<?xml version="1.0"?><!DOCTYPE feed PUBLIC "-//W3C//DTD XHTML 1.0//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><feed xmlns="http://www.w3.org/2005/Atom">${entry('aaa111')}</feed>`
    for (const doc of [bomb, xxe, dtd]) {
      const e = await rejection(clientAt(serve(atom(doc))).fetchNew())
      expect(e.kind).toBe('malformed')
      expect(e.message).toContain('declares a DTD')
    }
    // an undeclared entity is not expanded either
    expect(() => parseRedditAtom(feed(entry('aaa111', { title: '&c;' })), Date.now())).toThrow(/not well-formed/)
  })

  test('a 20 MB body is cut off and refused, chunked or not; invalid UTF-8 is refused', async () => {
    const big = new Uint8Array(20 * 1024 * 1024).fill(0x61)
    const e = await rejection(clientAt(serve(atom(big))).fetchNew())
    expect(e).toMatchObject({ kind: 'malformed' })
    expect(e.message).toContain('larger than 8 MB')
    const stream = () =>
      new Response(
        new ReadableStream({
          pull(ctrl) {
            ctrl.enqueue(new Uint8Array(1024 * 1024).fill(0x61))
          },
        }),
        { headers: { 'content-type': 'application/atom+xml' } },
      )
    expect((await rejection(clientAt(serve(stream)).fetchNew())).message).toContain('larger than 8 MB')
    const bad = new TextEncoder().encode(feed(entry('aaa111', { title: '[WTS] RMR XX' })))
    const i = bad.indexOf(0x58) // "X" → a lone continuation byte
    bad[i] = 0xff
    expect((await rejection(clientAt(serve(atom(bad))).fetchNew())).message).toContain('not valid UTF-8')
  })

  test('dates in the future are read as the fetch time, unparseable ones skip the entry; scripts and javascript: links never pass', () => {
    const now = Date.parse('2026-11-27T12:00:00Z')
    const script =
      '&lt;!-- SC_OFF --&gt;&lt;div class="md"&gt;&lt;p&gt;Hi&lt;script&gt;alert(1)&lt;/script&gt; &lt;a href="javascript:alert(2)"&gt;click&lt;/a&gt;&lt;/p&gt;&lt;/div&gt;&lt;!-- SC_ON --&gt; &amp;#32; submitted by &amp;#32; &lt;a href="https://www.reddit.com/user/x"&gt; /u/x &lt;/a&gt; &lt;br/&gt; &lt;span&gt;&lt;a href="javascript:alert(3)"&gt;[link]&lt;/a&gt;&lt;/span&gt;'
    const r = parseRedditAtom(
      feed(
        entry('aaa111', { published: '2099-01-01T00:00:00+00:00' }),
        entry('bbb222', { published: 'Sun, 99 Jun 2009 12:00:00 GMT' }),
        entry('ccc333', { content: script, link: 'javascript:alert(4)' }),
        '<entry><title>no id</title></entry>',
      ),
      now,
    )
    expect(r.skipped).toBe(2)
    expect(r.posts.map((p) => p.redditId)).toEqual(['aaa111', 'ccc333'])
    expect(r.posts[0]!.createdAt.getTime()).toBe(now)
    const p = r.posts[1]!
    expect(p.content).toBe('Hi click')
    expect(p.url).toBe('https://www.reddit.com/r/GunAccessoriesForSale/comments/ccc333/')
    expect(p.linkUrl).toBe(p.url)
  })

  test('not a feed at all (an HTML page with 200) is a named error, not an empty scan', async () => {
    const e = await rejection(clientAt(serve(() => new Response('<!doctype html><html><body>reddit.com: over capacity</body></html>'))).fetchNew())
    expect(e.kind).toBe('malformed')
  })
})
