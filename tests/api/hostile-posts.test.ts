// Anyone on Reddit can post any title: one post must never stop the scanner, a term's save or batch
// matching, for anyone. "[WTS] LEGO constructor kit" once failed every scan from then on (`pair.has is not a
// function`: a token looked up in an object literal found Object.prototype.constructor) and made term
// saves in its category answer 500. And a post that does throw is isolated: stored unparsed, logged with
// its id, shown to admins on the Logs page, while the rest of the page goes on.
import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { matches, posts } from '../../src/db/schema'
import { runBatchMatch } from '../../src/matches/batch'
import { runScan } from '../../src/scanner/scan'
import { startFakeReddit, type FakeReddit, fakeRedditClient } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'
import { PROTOTYPE_NAMES } from '../fixtures/prototype-names'

let fake: FakeReddit | null = null
let deps: TestDeps | null = null
afterEach(async () => {
  await fake?.stop()
  deps?.close()
  fake = deps = null
})

async function setup() {
  const clock = testClock(1_763_640_000_000)
  fake = await startFakeReddit({ now: () => clock.now().getTime() })
  deps = await makeDeps({}, clock)
  const client = fakeRedditClient(fake, { clock, subreddits: ['GunAccessoriesForSale', 'gundeals'] })
  const app = makeApp(deps)
  const user = await createUserWithSession(deps, { role: 'product+gd' })
  const admin = await createUserWithSession(deps, { role: 'admin' })
  const d = deps
  const f = fake
  return {
    deps: d,
    fake: f,
    clock,
    scan: () => runScan(d, client),
    save: (category: string, term: string) => call(app, 'POST', '/api/terms', { cookie: user.cookie, json: { category, term } }),
    get: (path: string) => call(app, 'GET', path),
    scanner: async () => (await call(app, 'GET', '/api/admin/scanner', { cookie: admin.cookie })).body,
    matchTitles: async () => (await asAsync(d.db).select({ t: matches.postTitle }).from(matches).orderBy(matches.id)).map((r) => r.t),
  }
}

describe('hostile post texts', () => {
  test('"[WTS] LEGO constructor kit" and every Object.prototype name in titles, bodies, authors and flairs: scans go on, terms save', async () => {
    const s = await setup()
    expect((await s.save('wts', 'glock 19')).status).toBe(201)
    s.clock.advance(1000)
    s.fake.publish({ title: '[WTS] LEGO constructor kit', subreddit: 'GunAccessoriesForSale', selftext: 'constructor kit, $40 shipped' })
    for (const name of PROTOTYPE_NAMES)
      s.fake.publish({
        title: `[WTS] ${name} ${name} kit - $40`,
        subreddit: 'GunAccessoriesForSale',
        selftext: `${name} kit\n\n${name} x2 $20/ea`,
        author: name,
        link_flair_text: name,
        author_flair_text: `Trades: ${name}`,
      })
    expect(await s.scan()).toMatchObject({ status: 'success', postsNew: PROTOTYPE_NAMES.length + 1 })
    s.clock.advance(60_000)
    s.fake.publish({ title: '[WTS] Glock 19 Gen 5 - $450', subreddit: 'GunAccessoriesForSale' })
    expect(await s.scan()).toMatchObject({ status: 'success', postsNew: 1, matchesCreated: 1 })
    // term saves in the same category after those posts, and the terms the review found answering 500
    for (const term of ['holster', 'constructor', 'constructor kit', '__proto__ x', 'hasOwnProperty x', 'prototype x', 'toString kit', 'valueOf']) {
      const r = await s.save('wts', term)
      expect({ term, status: r.status }).toEqual({ term, status: 201 })
    }
    expect(await s.matchTitles()).toContain('[WTS] LEGO constructor kit') // backfilled by "constructor kit"
    expect((await runBatchMatch(s.deps)).recent_posts_count).toBeGreaterThan(PROTOTYPE_NAMES.length)
    expect((await s.scanner()).unparsed).toEqual({ last24h: 0, recent: [] })
    for (const name of PROTOTYPE_NAMES) expect((await s.get(`/icons/${name}`)).status).toBe(404)
  })

  test('a post whose reading throws is stored unparsed and shown to admins; the rest of the page is stored and matched', async () => {
    const s = await setup()
    expect((await s.save('wts', 'rmr')).status).toBe(201)
    const prepare = s.deps.matcher.prepare.bind(s.deps.matcher)
    s.deps.matcher.prepare = (post) => {
      if (post.title.includes('Exploding')) throw new Error('cannot read this post')
      return prepare(post)
    }
    s.clock.advance(1000)
    s.fake.publish({ title: '[WTS] Trijicon RMR - $400', subreddit: 'GunAccessoriesForSale' })
    const bad = s.fake.publish({ title: '[WTS] Exploding RMR - $1', subreddit: 'GunAccessoriesForSale' })
    s.fake.publish({ title: '[WTS] RMR RM06 - $380', subreddit: 'GunAccessoriesForSale' })
    expect(await s.scan()).toMatchObject({ status: 'success', postsNew: 3, matchesCreated: 2 })
    expect(await s.matchTitles()).toEqual(['[WTS] Trijicon RMR - $400', '[WTS] RMR RM06 - $380'])
    const row = await asAsync(s.deps.db).select({ postType: posts.postType, parseError: posts.parseError }).from(posts).where(eq(posts.redditId, bad.id))
    expect(row).toEqual([{ postType: null, parseError: 'cannot read this post' }])
    const status = await s.scanner()
    expect(status.unparsed.last24h).toBe(1)
    expect(status.unparsed.recent[0]).toMatchObject({ redditId: bad.id, title: '[WTS] Exploding RMR - $1', error: 'cannot read this post' })
    // the next scan goes on as usual, and a term's save skips the post
    s.clock.advance(60_000)
    s.fake.publish({ title: '[WTS] RMR HD - $500', subreddit: 'GunAccessoriesForSale' })
    expect(await s.scan()).toMatchObject({ status: 'success', postsNew: 1, matchesCreated: 1 })
    expect((await s.save('wts', 'exploding')).status).toBe(201)
  })
})
