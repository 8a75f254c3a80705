// GET /api/explain on a real server with the fake Reddit: a stored post explained (terms, reasons,
// channels), an unknown id read by id through /api/info on the side budget and not stored, the side
// budget full, a link to another subreddit, admins asking on behalf of a user, 403 and 400 answers.
import { afterEach, describe, expect, test } from 'bun:test'
import { and, eq, like, sql } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { posts, searchTerms } from '../../src/db/schema'
import { rowCount } from '../db-reads'
import type { AccessState } from '../../src/access/rules'
import { REF_MESSAGE } from '../../src/explain/post-ref'
import { runScan } from '../../src/scanner/scan'
import { addTerm } from '../../src/terms/service'
import { addSource } from '../../src/scanner/source-admin'
import { startForumFeeds } from '../fakes/forum-feeds'
import { BLOCK_PAGE, CLOSED_JSON } from '../../src/forums/reddit-client'
import { fakeOauthEnv, fakeRedditClient, startFakeReddit } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, startTestServer, testClock } from '../helpers'

const FULL: AccessState = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null }
const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

describe('GET /api/explain', () => {
  test('stored post, unknown id read by id (not stored), budget full, other subreddit, admin on behalf, 403, 400', async () => {
    const fake = await startFakeReddit()
    cleanup.push(() => fake.stop())
    const server = await startTestServer(fakeOauthEnv(fake))
    cleanup.push(() => server.stop())
    const d = server.deps
    const user = await createUserWithSession(d)
    const other = await createUserWithSession(d)
    const admin = await createUserWithSession(d, { role: 'admin' })
    const rmr = addTerm(d, user.userId, FULL, 'wts', 'rmr <$500')
    await addTerm(d, user.userId, FULL, 'wts', 'aimpoint')
    await addTerm(d, user.userId, FULL, 'wtb', 'holosun')
    await addTerm(d, user.userId, FULL, 'wtb', 'eotech')
    // the terms existed a minute before the posts
    await asAsync(d.db)
      .update(searchTerms)
      .set({ createdAt: sql`${searchTerms.createdAt} - 60000` })
    const hit = fake.publish({ title: '[WTS] Trijicon RMR Type 2 - $450', selftext: 'Shipped.' })
    const dear = fake.publish({ title: '[WTS] Trijicon RMR HRS - $520' })
    expect((await runScan(d)).matchesCreated).toBe(1)
    expect(rmr).toBeTruthy()

    const get = async (query: string, cookie = user.cookie) => {
      const res = await fetch(`${server.url}/api/explain?${query}`, { headers: { cookie } })
      return { status: res.status, body: (await res.json()) as any }
    }

    // a stored post that matched: its terms, the delivery of each channel
    const a = await get(`url=${encodeURIComponent(`https://old.reddit.com/r/GunAccessoriesForSale/comments/${hit.id}/x/?utm_source=share`)}`)
    expect(a.status).toBe(200)
    expect(a.body.post).toMatchObject({ redditId: hit.id, title: '[WTS] Trijicon RMR Type 2 - $450', stored: true, state: 'open' })
    expect(a.body.post.seen).toMatch(/^seen \d+ s after it was posted$/)
    expect(a.body.category).toEqual({ value: 'wts', label: expect.stringContaining('WTS'), reason: null })
    expect(a.body.terms.map((t: any) => [t.term, t.matched, t.alerts])).toEqual([
      ['rmr <$500', true, true],
      ['aimpoint', false, false],
    ])
    expect(a.body.terms[1].reasons).toEqual(["needs the word 'aimpoint' — not in the title or body"])
    expect(a.body.otherTerms).toEqual([expect.stringMatching(/^2 terms in .*WTB are not checked against a .*WTS post$/)])
    const channels = Object.fromEntries((a.body.match.channels as any[]).map((c) => [c.channel, c.text]))
    expect(channels.email).toMatch(/^waiting for the next digest \(every \d+ min\)$/) // the default: batched
    expect(channels.push).toBe('push not enabled on any device')
    expect(channels['in-app']).toMatch(/^(shown at|in your match list since) /)
    // one zone for every time of the answer, named: without quiet hours the asker's browser zone, else UTC
    expect(a.body.timeZone).toBe('UTC')
    expect(channels['in-app']).toMatch(/\d\d:\d\d:\d\d \(UTC\)/)
    const tokyo = await get(`url=t3_${hit.id}&tz=Asia%2FTokyo`)
    expect(tokyo.body.timeZone).toBe('Asia/Tokyo')
    expect((tokyo.body.match.channels as any[]).find((c) => c.channel === 'in-app').text).toMatch(/\d\d:\d\d:\d\d \(Asia\/Tokyo\)/)
    expect((await get(`url=t3_${hit.id}&tz=Mars%2FOlympus`)).body.timeZone).toBe('UTC')

    // a stored post that did not match: the price reason
    const b = await get(`url=t3_${dear.id}`)
    expect(b.body.match).toBeNull()
    expect(b.body.terms[0]).toMatchObject({ term: 'rmr <$500', matched: false, reasons: ['price $520 is above <$500'] })

    // an id Dibs never stored: read by id through /api/info, explained, not stored
    const late = fake.publish({ title: '[WTS] Aimpoint T2 - $600', link_flair_text: 'SOLD' })
    const c = await get(`url=${late.id}`)
    expect(c.status).toBe(200)
    expect(fake.infoRequests()).toHaveLength(1)
    expect(fake.infoRequests()[0]!.query.id).toBe(`t3_${late.id}`)
    expect(c.body.post).toMatchObject({ redditId: late.id, stored: false, ingestedAt: null, state: 'sold' })
    expect(c.body.post.seen).toStartWith('not stored')
    expect(c.body.terms.find((t: any) => t.term === 'aimpoint')).toMatchObject({
      matched: true,
      alerts: false,
      blockers: ["skipped: the post is marked SOLD (your default 'Skip posts marked SOLD or PENDING')"],
    })
    expect(await rowCount(d, posts, eq(posts.redditId, late.id))).toBe(0)

    // the side share has no room right after that request: nothing is sent
    const again = fake.publish({ title: '[WTS] Holosun 507C - $250' })
    const busy = await get(`url=${again.id}`)
    expect(busy.status).toBe(429)
    expect(busy.body.error.message).toMatch(
      /^Dibs has no copy of this post and has just asked Reddit for another; it paces these reads so that scanning keeps its share of Reddit's requests\. Try again in \d+ s$/,
    )
    expect(fake.infoRequests()).toHaveLength(1)

    // a link to a subreddit Dibs does not watch: answered without asking Reddit
    const elsewhere = await get(`url=${encodeURIComponent('https://www.reddit.com/r/hardwareswap/comments/abc123/x/')}`)
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body.error).toEqual({
      code: 'NOT_WATCHED',
      message: 'That post is in r/hardwareswap, which Dibs does not watch (it watches r/GunAccessoriesForSale and r/gundeals).',
    })

    // admins ask on behalf of a user, by id or email; others get 403
    const byId = await get(`url=${hit.id}&userId=${user.userId}`, admin.cookie)
    expect(byId.status).toBe(200)
    expect(byId.body.user).toEqual({ id: user.userId, email: user.email })
    expect(byId.body.terms).toHaveLength(2)
    const byEmail = await get(`url=${hit.id}&userId=${encodeURIComponent(user.email)}`, admin.cookie)
    expect(byEmail.body.user.id).toBe(user.userId)
    const denied = await get(`url=${hit.id}&userId=${user.userId}`, other.cookie)
    expect(denied.status).toBe(403)
    expect(denied.body.error.message).toBe('Only admins can ask on behalf of another user.')
    expect((await get(`url=${hit.id}&userId=${other.userId}`, other.cookie)).status).toBe(200) // oneself by id

    // bad input → 400 with the message; no session → 401
    for (const bad of ['', 'https://example.com/r/x/comments/abc/', 'hello world'])
      expect(await get(`url=${encodeURIComponent(bad)}`)).toEqual({ status: 400, body: { error: { code: 'INVALID_POST_REF', message: REF_MESSAGE } } })
    expect((await fetch(`${server.url}/api/explain?url=${hit.id}`)).status).toBe(401)
  })
})

describe('a source that cannot read is the answer, not the rate budget', () => {
  for (const [mode, fault, reason] of [
    ['json', 'none', CLOSED_JSON],
    ['atom', 'block', BLOCK_PAGE],
  ] as const)
    test(`no key, ${mode}${fault === 'block' ? ' from a blocked address' : ' (closed since May 2026)'}: the source's state and fix`, async () => {
      const clock = testClock(1_763_640_000_000)
      const fake = await startFakeReddit({ now: () => clock.now().getTime() })
      cleanup.push(() => fake.stop())
      if (fault === 'block') fake.block()
      const d = await makeDeps({}, clock, { source: fakeRedditClient(fake, { clock, mode }) })
      cleanup.push(() => d.close())
      const user = await createUserWithSession(d)
      expect((await runScan(d)).status).toBe('failed')
      clock.advance(1000)
      const r = await call(makeApp(d), 'GET', '/api/explain?url=abc123', { cookie: user.cookie })
      expect(r.status).toBe(503)
      expect(r.body.error.message).toEndWith(` The Reddit source is blocked: ${reason}.`)
      expect(r.body.error.message).not.toContain('rate budget')
      expect(fake.infoRequests()).toHaveLength(0)
    })
})

describe('reads of posts Dibs never stored', () => {
  test('at most 5 per user in 10 minutes (admins not counted); each read is one fetchInfo call', async () => {
    const asked: string[][] = []
    const source = {
      fetchNew: async () => ({ posts: [], after: null }),
      fetchSince: async () => ({ posts: [], pages: 0, reachedKnown: true }),
      fetchInfo: async (ids: string[]) => {
        asked.push(ids)
        return ids.map((id) => {
          const post = {
            redditId: id,
            name: `t3_${id}`,
            title: '[WTS] Aimpoint T2 - $600',
            url: `https://www.reddit.com/r/GunAccessoriesForSale/comments/${id}/x/`,
            linkUrl: `https://www.reddit.com/r/GunAccessoriesForSale/comments/${id}/x/`,
            content: '',
            author: 'seller',
            subreddit: 'GunAccessoriesForSale',
            flair: null,
            createdAt: new Date(1_763_640_000_000),
          }
          return { redditId: id, title: post.title, content: '', flair: null, author: 'seller', removedByCategory: null, post }
        })
      },
    }
    const d = await makeDeps({}, testClock(1_763_640_100_000), { source })
    cleanup.push(() => d.close())
    const app = makeApp(d)
    const user = await createUserWithSession(d)
    const admin = await createUserWithSession(d, { role: 'admin' })
    for (let i = 0; i < 5; i++) expect((await call(app, 'GET', `/api/explain?url=abc${i}`, { cookie: user.cookie })).status).toBe(200)
    const sixth = await call(app, 'GET', '/api/explain?url=abc9', { cookie: user.cookie })
    expect(sixth.status).toBe(429)
    expect(sixth.body.error.message).toMatch(/^You asked Reddit for 5 posts Dibs had not stored in a few minutes; try again in \d+ s$/)
    for (let i = 0; i < 6; i++) expect((await call(app, 'GET', `/api/explain?url=xyz${i}`, { cookie: admin.cookie })).status).toBe(200)
    expect(asked).toHaveLength(11)
    expect(await rowCount(d, posts)).toBe(0)
  })
})

describe("a forum feed's post", () => {
  test('is explained by its thread link (as stored, with or without the trailing slash or a fragment); an unknown forum link is the usual 400', async () => {
    const clock = testClock()
    const forums = await startForumFeeds({ now: () => clock.now().getTime() })
    cleanup.push(() => forums.stop())
    const d = await makeDeps({ ALLOW_PRIVATE_SOURCES: '1' }, clock)
    cleanup.push(() => d.close())
    const app = makeApp(d)
    const user = await createUserWithSession(d)
    await addTerm(d, user.userId, FULL, 'wts', 'aimpoint')
    await addTerm(d, user.userId, FULL, 'wts', 'holosun')
    const { source } = await addSource(d, { kind: 'feed', forum: 'accessories', url: forums.url + forums.paths.xenforo, name: 'Optics board' })
    expect((await d.feeds.tick())[0]).toMatchObject({ status: 'ok', new: 3, matches: 1 })
    const [stored] = await asAsync(d.db)
      .select({ url: posts.url, title: posts.title })
      .from(posts)
      .where(and(eq(posts.sourceId, source.id), like(posts.title, '%Aimpoint%')))
      .limit(1)
    if (!stored) throw new Error('the Aimpoint post was not stored')
    for (const link of [stored.url, `${stored.url.replace(/\/$/, '')}#post-1`, stored.url.replace(/\/$/, '')]) {
      const r = await call(app, 'GET', `/api/explain?url=${encodeURIComponent(link)}`, { cookie: user.cookie })
      expect(r.status).toBe(200)
      expect(r.body.post).toMatchObject({ title: stored.title, stored: true, source: 'Optics board' })
      expect(r.body.terms.map((t: { term: string; matched: boolean }) => [t.term, t.matched])).toEqual([
        ['aimpoint', true],
        ['holosun', false],
      ])
    }
    const unknown = await call(app, 'GET', `/api/explain?url=${encodeURIComponent(`${forums.url}/threads/nothing.1/`)}`, { cookie: user.cookie })
    expect([unknown.status, unknown.body.error]).toEqual([400, { code: 'INVALID_POST_REF', message: REF_MESSAGE }])
  })
})
