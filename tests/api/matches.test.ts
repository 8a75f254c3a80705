// Matches API and the public feed: scoped to the signed-in user, newest first, cursor pages.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { matches, posts as postsTable } from '../../src/db/schema'
import { storePosts } from '../../src/forums/store'
import { matchPosts } from '../../src/matches/runner'
import { addTerm } from '../../src/terms/service'
import { forumPost } from '../fakes/forum-post'
import { call, createUserWithSession, makeApp, makeDeps, testClock, type TestDeps } from '../helpers'

const FULL = { role: 'product+gd' as const, subscriptionStatus: 'active', accessExpiresAt: null }
let deps: TestDeps
let app: ReturnType<typeof makeApp>
let clock: ReturnType<typeof testClock>
beforeEach(async () => {
  clock = testClock(1_763_640_000_000)
  deps = await makeDeps({}, clock)
  app = makeApp(deps)
})
afterEach(() => deps.close())

/** A subscriber with a term, and n live posts matching it, one a minute (newest last). */
async function withMatches(n: number, category: 'wts' | 'wtb' | 'gd' = 'wts') {
  const user = await createUserWithSession(deps)
  await addTerm(deps, user.userId, FULL, category, 'widget')
  for (let i = 0; i < n; i++) {
    clock.advance(60_000)
    const sub = category === 'gd' ? 'gundeals' : 'GunAccessoriesForSale'
    const tag = category === 'gd' ? '[Optic]' : `[${category.toUpperCase()}]`
    const stored = await storePosts(deps, [forumPost(`${tag} Widget ${i} - $${100 + i}`, { subreddit: sub, now: clock.now().getTime(), ageMs: 1000 })])
    await matchPosts(deps, stored, 'live')
  }
  return user
}

describe('GET /api/matches', () => {
  test('lists newest first with post data, 50 per page, and pages with a cursor', async () => {
    const { cookie } = await withMatches(60)
    const first = await call(app, 'GET', '/api/matches?category=wts', { cookie })
    expect(first.status).toBe(200)
    expect(first.body.matches).toHaveLength(50)
    expect(first.body.matches[0]).toMatchObject({
      title: '[WTS] Widget 59 - $159',
      url: expect.stringContaining('https://www.reddit.com/r/GunAccessoriesForSale/comments/'),
      author: 'seller',
      matchedTerms: ['widget'],
      isNew: true,
      category: 'wts',
      source: 'live',
      archivedAt: null,
      createdAt: expect.any(String),
      postCreatedAt: expect.any(String),
    })
    const second = await call(app, 'GET', `/api/matches?category=wts&cursor=${first.body.nextCursor}`, { cookie })
    expect(second.body.matches).toHaveLength(10)
    expect(second.body.matches[0].title).toBe('[WTS] Widget 9 - $109')
    expect(second.body.nextCursor).toBeNull()
    const small = await call(app, 'GET', '/api/matches?category=wts&limit=5', { cookie })
    expect(small.body.matches).toHaveLength(5)
  })

  test('only the signed-in user’s matches of the asked category', async () => {
    await withMatches(3)
    const other = await createUserWithSession(deps)
    expect((await call(app, 'GET', '/api/matches?category=wts', { cookie: other.cookie })).body.matches).toEqual([])
    expect((await call(app, 'GET', '/api/matches?category=wts')).status).toBe(401)
    expect((await call(app, 'GET', '/api/matches?category=nope', { cookie: other.cookie })).status).toBe(400)
  })
})

describe("the seller's location (issue 24 §5)", () => {
  test("a stored post keeps its title's location tag; its match and the live feed carry it", async () => {
    const user = await createUserWithSession(deps)
    await addTerm(deps, user.userId, FULL, 'wts', 'widget')
    clock.advance(60_000)
    const now = clock.now().getTime()
    const stored = await storePosts(deps, [
      forumPost('[USA-TX] [H] Widget 7 [W] PayPal', { now, ageMs: 2000 }),
      forumPost('[WTS] [San Juan, PR] Widget 8 - $80', { now, ageMs: 1000 }),
      forumPost('[WTS] Widget 9 - $90', { now, ageMs: 500 }),
    ])
    expect(stored.map((p) => p.location)).toEqual(['USA-TX', 'San Juan, PR', null])
    expect(await asAsync(deps.db).select({ location: postsTable.location }).from(postsTable).orderBy(postsTable.id)).toEqual([
      { location: 'USA-TX' },
      { location: 'San Juan, PR' },
      { location: null },
    ])
    const created: any[] = []
    deps.bus.on('match.new', (e) => void created.push(e.match))
    await matchPosts(deps, stored, 'live')
    expect(created.map((m) => m.location)).toEqual(['USA-TX', 'San Juan, PR', null])
    const list = (await call(app, 'GET', '/api/matches?category=wts', { cookie: user.cookie })).body.matches
    expect(list.map((m: any) => [m.title, m.location])).toEqual([
      ['[WTS] Widget 9 - $90', null],
      ['[WTS] [San Juan, PR] Widget 8 - $80', 'San Juan, PR'],
      ['[USA-TX] [H] Widget 7 [W] PayPal', 'USA-TX'],
    ])
    const feed = (await call(app, 'GET', '/api/posts?category=wts')).body.posts
    expect(feed.map((p: any) => p.location)).toEqual([null, 'San Juan, PR', 'USA-TX'])
  })
})

describe('reading and archiving', () => {
  test('mark read, archive, mark all read and unread counts move together', async () => {
    const user = await withMatches(4)
    const { cookie, userId } = user
    const events: any[] = []
    deps.bus.on('match.updated', (e) => void events.push(['updated', e]))
    deps.bus.on('unread', (e) => void events.push(['unread', e]))
    expect((await call(app, 'GET', '/api/unread', { cookie })).body).toEqual({ wts: 4, wtb: 0, gd: 0 })
    const list = (await call(app, 'GET', '/api/matches?category=wts', { cookie })).body.matches
    const read = await call(app, 'POST', `/api/matches/${list[0].id}/read`, { cookie })
    expect(read.status).toBe(200)
    expect(events).toEqual([
      ['updated', { userId, ids: [list[0].id], change: 'read' }],
      ['unread', { userId, counts: { wts: 3, wtb: 0, gd: 0 } }],
    ])
    const archived = await call(app, 'POST', `/api/matches/${list[1].id}/archive`, { cookie })
    expect(archived.status).toBe(200)
    expect((await call(app, 'GET', '/api/unread', { cookie })).body).toEqual({ wts: 2, wtb: 0, gd: 0 })
    const active = (await call(app, 'GET', '/api/matches?category=wts', { cookie })).body.matches
    expect(active.map((m: any) => m.id)).not.toContain(list[1].id)
    const archive = (await call(app, 'GET', '/api/matches?category=wts&archived=1', { cookie })).body.matches
    expect(archive.map((m: any) => m.id)).toEqual([list[1].id])
    expect(archive[0].archivedAt).toEqual(expect.any(String))
    const all = await call(app, 'POST', '/api/matches/read-all', { cookie, json: { category: 'wts' } })
    expect(all.body).toEqual({ count: 2 })
    expect((await call(app, 'GET', '/api/unread', { cookie })).body).toEqual({ wts: 0, wtb: 0, gd: 0 })
    expect((await call(app, 'POST', '/api/matches/read-all', { cookie, json: { category: 'wts' } })).body).toEqual({ count: 0 })
  })

  test('mark unread: a read match is new again (match.updated says unread, the count goes up); an archived one stays read', async () => {
    const { cookie, userId } = await withMatches(2)
    const list = (await call(app, 'GET', '/api/matches?category=wts', { cookie })).body.matches
    await call(app, 'POST', `/api/matches/${list[0].id}/read`, { cookie })
    const events: any[] = []
    deps.bus.on('match.updated', (e) => void events.push(['updated', e]))
    deps.bus.on('unread', (e) => void events.push(['unread', e]))
    const r = await call(app, 'POST', `/api/matches/${list[0].id}/unread`, { cookie })
    expect([r.status, r.body]).toEqual([200, { id: list[0].id, isNew: true }])
    expect(events).toEqual([
      ['updated', { userId, ids: [list[0].id], change: 'unread' }],
      ['unread', { userId, counts: { wts: 2, wtb: 0, gd: 0 } }],
    ])
    await call(app, 'POST', `/api/matches/${list[1].id}/archive`, { cookie })
    expect((await call(app, 'POST', `/api/matches/${list[1].id}/unread`, { cookie })).body).toEqual({ id: list[1].id, isNew: false })
    expect((await call(app, 'GET', '/api/unread', { cookie })).body).toEqual({ wts: 1, wtb: 0, gd: 0 })
  })

  test("another user's match id → 404 and unchanged", async () => {
    const owner = await withMatches(1)
    const id = (await call(app, 'GET', '/api/matches?category=wts', { cookie: owner.cookie })).body.matches[0].id
    const other = await createUserWithSession(deps)
    for (const action of ['read', 'unread', 'archive', 'restore']) {
      const r = await call(app, 'POST', `/api/matches/${id}/${action}`, { cookie: other.cookie })
      expect(r.status).toBe(404)
      expect(r.body.error.code).toBe('MATCH_NOT_FOUND')
    }
    expect(await asAsync(deps.db).select({ isNew: matches.isNew, archivedAt: matches.archivedAt }).from(matches).where(eq(matches.id, id))).toEqual([
      { isNew: true, archivedAt: null },
    ])
  })
})

describe('archive restore and search (issue 12 item 12)', () => {
  test('a restored match leaves the archive and is back in its list, read; match.updated says restored', async () => {
    const { cookie, userId } = await withMatches(3)
    const list = (await call(app, 'GET', '/api/matches?category=wts', { cookie })).body.matches
    await call(app, 'POST', `/api/matches/${list[0].id}/archive`, { cookie })
    const seen: string[] = []
    deps.bus.on('match.updated', (e) => seen.push(`${e.userId}:${e.change}:${e.ids.join(',')}`))
    const r = await call(app, 'POST', `/api/matches/${list[0].id}/restore`, { cookie })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ id: list[0].id, archivedAt: null })
    expect(seen).toEqual([`${userId}:restored:${list[0].id}`])
    expect((await call(app, 'GET', '/api/matches?category=wts&archived=1', { cookie })).body.matches).toEqual([])
    const back = (await call(app, 'GET', '/api/matches?category=wts', { cookie })).body.matches
    expect(back.map((m: any) => m.id)).toEqual(list.map((m: any) => m.id))
    expect(back[0].isNew).toBe(false)
    // restoring a match that is not archived changes nothing
    expect((await call(app, 'POST', `/api/matches/${list[1].id}/restore`, { cookie })).status).toBe(200)
    expect(seen).toHaveLength(1)
  })

  test('q finds archived matches by words of the title, the author or the matched term; wildcards are literal', async () => {
    const user = await createUserWithSession(deps)
    await addTerm(deps, user.userId, FULL, 'wts', 'trijicon')
    const now = clock.now().getTime()
    const stored = await storePosts(deps, [
      forumPost('[WTS] Trijicon RMR Type 2 - $400', { now, ageMs: 3000, author: 'optic_guy' }),
      forumPost('[WTS] Trijicon MRO 100% - $350', { now, ageMs: 2000, author: 'range_day' }),
      forumPost('[WTS] Trijicon SRO 2.5 MOA - $500', { now, ageMs: 1000, author: 'optic_guy' }),
    ])
    await matchPosts(deps, stored, 'live')
    const ids = (await call(app, 'GET', '/api/matches?category=wts', { cookie: user.cookie })).body.matches.map((m: any) => m.id)
    for (const id of ids) await call(app, 'POST', `/api/matches/${id}/archive`, { cookie: user.cookie })
    const find = async (q: string) =>
      (await call(app, 'GET', `/api/matches?category=wts&archived=1&q=${encodeURIComponent(q)}`, { cookie: user.cookie })).body.matches.map((m: any) => m.title)
    expect(await find('rmr')).toEqual(['[WTS] Trijicon RMR Type 2 - $400'])
    expect(await find('OPTIC_guy sro')).toEqual(['[WTS] Trijicon SRO 2.5 MOA - $500'])
    expect((await find('trijicon')).length).toBe(3)
    expect(await find('100%')).toEqual(['[WTS] Trijicon MRO 100% - $350'])
    expect(await find('%')).toEqual(['[WTS] Trijicon MRO 100% - $350'])
    expect(await find('p_i')).toEqual([]) // as a LIKE wildcard it would match 'opti' in 'optic_guy'
    expect(await find('nothing-like-this')).toEqual([])
    expect((await call(app, 'GET', `/api/matches?category=wts&archived=1&q=${'x'.repeat(101)}`, { cookie: user.cookie })).status).toBe(400)
  })
})

describe('GET /api/posts (public live feed)', () => {
  test('10 per page, last 7 days, newest first, per category, with the total', async () => {
    const now = clock.now().getTime()
    const posts = []
    for (let i = 0; i < 23; i++) posts.push(forumPost(`[WTS] Item ${i}`, { now, ageMs: (23 - i) * 60_000 }))
    posts.push(forumPost('[WTB] Wanted', { now }), forumPost('[Optic] Deal', { now, subreddit: 'gundeals' }))
    posts.push(forumPost('[WTS] Too old', { now, ageMs: 8 * 86_400_000 }), forumPost('[WTT] Trade only', { now }))
    await storePosts(deps, posts)
    const p1 = await call(app, 'GET', '/api/posts?category=wts&page=1')
    expect(p1.status).toBe(200)
    expect(p1.body).toMatchObject({ total: 23, page: 1, pageSize: 10 })
    expect(p1.body.posts).toHaveLength(10)
    expect(p1.body.posts[0]).toMatchObject({
      title: '[WTS] Item 22',
      postType: 'wts',
      forum: 'product',
      subreddit: 'GunAccessoriesForSale',
      redditId: expect.any(String),
      content: '',
      author: 'seller',
    })
    const p3 = await call(app, 'GET', '/api/posts?category=wts&page=3')
    expect(p3.body.posts.map((p: any) => p.title)).toEqual(['[WTS] Item 2', '[WTS] Item 1', '[WTS] Item 0'])
    expect((await call(app, 'GET', '/api/posts?category=gd')).body.posts.map((p: any) => p.title)).toEqual(['[Optic] Deal'])
    expect((await call(app, 'GET', '/api/posts')).body.total).toBe(25) // every category, unclassified left out
    expect((await call(app, 'GET', '/api/posts?category=x')).status).toBe(400)
  })
})
