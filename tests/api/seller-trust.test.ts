// Seller trust through the app: the author's account looked up once over Reddit OAuth (the fake's /user/<name>/about)
// on the side share, a post matched again once its author is known (an `age>=` term alerts then, once), the trust
// shown on the match, and the admin's never-alert list (audited) that drops a seller's posts and is explained.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq, like } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { auditLog, redditAuthors } from '../../src/db/schema'
import { explainPost } from '../../src/explain/service'
import { RedditClient } from '../../src/forums/reddit-client'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { runAuthorLookups } from '../../src/scanner/authors'
import { forumPost } from '../fakes/forum-post'
import { startFakeReddit, type FakeReddit } from '../fakes/reddit'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

let deps: TestDeps
let app: ReturnType<typeof makeApp>
let clock: ReturnType<typeof testClock>
let reddit: FakeReddit
let client: RedditClient
beforeEach(async () => {
  clock = testClock()
  deps = await makeDeps({}, clock)
  app = makeApp(deps)
  reddit = await startFakeReddit({ now: () => clock.now().getTime() })
  client = new RedditClient({
    baseUrl: reddit.oauthUrl,
    authUrl: reddit.authUrl,
    clientId: reddit.clientId,
    clientSecret: reddit.clientSecret,
    userAgent: 'linux:dibs:test',
    subreddits: ['GunAccessoriesForSale'],
    now: () => clock.now().getTime(),
  })
})
afterEach(async () => {
  deps.close()
  await reddit.stop()
})

async function subscriber(term: string) {
  const u = await createUserWithSession(deps, { emailFrequency: 'instant' })
  expect((await call(app, 'POST', '/api/terms', { cookie: u.cookie, json: { category: 'wts', term } })).status).toBe(201)
  clock.advance(60_000)
  return u
}
const publish = async (author: string, authorFlair: string | null = null) => {
  const stored = await storePosts(deps, [forumPost('[WTS] Trijicon RMR Type 2 - $400', { author, authorFlair, now: deps.now().getTime(), ageMs: 5_000 })])
  const now = deps.now().getTime()
  return { post: stored[0]!, created: (await matchPosts(deps, stored, 'live', { receivedAt: now, storedAt: now })).created }
}

describe('account age and karma', () => {
  test('an age>= term matches once the author is looked up (one request, on the side share); the match shows the trust', async () => {
    const u = await subscriber('rmr age>=30d karma>=100')
    reddit.addAccount('Seller_1', { ageDays: 400, linkKarma: 150, commentKarma: 50 })
    const { created } = await publish('Seller_1', 'Trades: 12')
    expect(created).toHaveLength(0) // not known yet
    const events: number[] = []
    deps.bus.on('match.new', ({ notify }) => void events.push(notify ? 1 : 0))
    const run = await runAuthorLookups({ ...deps, source: client })
    expect(run).toMatchObject({ status: 'success', author: 'seller_1', matched: 1 })
    expect(events).toEqual([1]) // it alerts, once
    expect(reddit.aboutRequests().map((r) => r.path)).toEqual(['/user/seller_1/about'])
    expect(client.budget.sideRequestsLastMinute(clock.now().getTime())).toBe(1)
    // cached: the next run has nobody to look up
    clock.advance(60_000)
    expect((await runAuthorLookups({ ...deps, source: client })).status).toBe('idle')
    expect(reddit.aboutRequests()).toHaveLength(1)
    const list = await call(app, 'GET', '/api/matches?category=wts', { cookie: u.cookie })
    // the account was made 400 days before the look-up, the post 5 s before it: 399 whole days old when posted
    expect(list.body.matches[0].seller).toEqual({ trades: 12, ageDays: 399, karma: 200 })
  })

  test('a young account never matches, and the explainer says why; a deleted one is recorded as missing', async () => {
    const u = await subscriber('rmr age>=30d')
    reddit.addAccount('fresh_acct', { ageDays: 3, linkKarma: 1 })
    const { post } = await publish('fresh_acct')
    expect((await runAuthorLookups({ ...deps, source: client })).matched).toBe(0)
    const why = await explainPost({ ...deps, source: client }, { id: u.userId, role: 'product+gd' }, { url: post.url })
    expect(JSON.stringify(why)).toContain("the seller's account was 2 days old, younger than age>=30d") // 3 days before the look-up, the post 5 s before it
    clock.advance(60_000)
    await publish('gone_acct')
    expect(await runAuthorLookups({ ...deps, source: client })).toMatchObject({ status: 'success', author: 'gone_acct', matched: 0 })
    expect(await asAsync(deps.db).select({ status: redditAuthors.status }).from(redditAuthors).where(eq(redditAuthors.name, 'gone_acct'))).toEqual([
      { status: 'missing' },
    ])
  })

  test('without OAuth there is no look-up', async () => {
    // a source without fetchAbout (Atom, no key): nothing to look up with
    const keyless = { budget: client.budget, mode: 'atom', fetchNew: client.fetchNew.bind(client), fetchSince: client.fetchSince.bind(client) }
    expect((await runAuthorLookups({ ...deps, source: keyless as never })).status).toBe('off')
  })
})

describe('sellers Dibs never alerts on', () => {
  test('admins add and remove them (audited); their posts match no term; the explainer says so', async () => {
    const admin = await createUserWithSession(deps, { role: 'admin' })
    const u = await subscriber('rmr')
    expect((await call(app, 'POST', '/api/admin/blocked-sellers', { cookie: u.cookie, json: { name: 'x' } })).status).toBe(403)
    expect((await call(app, 'POST', '/api/admin/blocked-sellers', { cookie: admin.cookie, json: { name: 'bad name!' } })).body.error.code).toBe(
      'INVALID_SELLER',
    )
    const add = await call(app, 'POST', '/api/admin/blocked-sellers', { cookie: admin.cookie, json: { name: 'u/Scammer_9', reason: 'USL listed' } })
    expect(add.status).toBe(201)
    expect(add.body.sellers).toMatchObject([{ name: 'scammer_9', reason: 'USL listed' }])
    const { post, created } = await publish('Scammer_9')
    expect(created).toHaveLength(0)
    expect((await publish('honest_seller')).created).toHaveLength(1)
    const why = await explainPost({ ...deps, source: client }, { id: u.userId, role: 'product+gd' }, { url: post.url })
    expect(JSON.stringify(why)).toContain("u/scammer_9 is on this installation's list of sellers Dibs never alerts on (USL listed)")
    expect((await call(app, 'DELETE', '/api/admin/blocked-sellers/scammer_9', { cookie: admin.cookie })).body.sellers).toEqual([])
    expect((await call(app, 'DELETE', '/api/admin/blocked-sellers/scammer_9', { cookie: admin.cookie })).status).toBe(404)
    const audit = await asAsync(deps.db)
      .select({ action: auditLog.action, target: auditLog.target })
      .from(auditLog)
      .where(like(auditLog.action, 'seller.%'))
      .orderBy(auditLog.id)
    expect(audit.map((a) => `${a.action} ${a.target}`)).toEqual(['seller.block u/scammer_9', 'seller.unblock u/scammer_9', 'seller.unblock u/scammer_9'])
  })
})
