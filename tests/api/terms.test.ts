// Terms API as scenario tables: every error text of spec §5, limits per role, backfill, removal.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { matches, searchTerms } from '../../src/db/schema'
import { rowCount } from '../db-reads'
import { storePosts } from '../../src/forums/store'
import { forumPost } from '../fakes/forum-post'
import { preparePost } from '../../src/matching/compile'
import { call, createUserWithSession, makeApp, makeDeps, type TestDeps } from '../helpers'

/** The term index of the deps under test. */
const db = () => asAsync(deps.db)
const matcherFor = (d: TestDeps) => d.matcher

let deps: TestDeps
let app: ReturnType<typeof makeApp>
beforeEach(async () => {
  deps = await makeDeps()
  app = makeApp(deps)
})
afterEach(() => deps.close())

async function add(cookie: string, category: string, term: unknown) {
  return call(app, 'POST', '/api/terms', { cookie, json: { category, term } })
}

describe('POST /api/terms', () => {
  const scenarios: {
    name: string
    role?: string
    before?: string[]
    category?: string
    term: unknown
    status: number
    code?: string
    title?: string
    message?: string
    saved?: string
  }[] = [
    { name: 'a plain word is saved lowercased and trimmed', term: '  Trijicon RMR  ', status: 201, saved: 'trijicon rmr' },
    { name: 'inner whitespace is collapsed', term: 'red\t  dot', status: 201, saved: 'red dot' },
    { name: 'a query with phrase, prefix, exclusion, alternative and price', term: '"red dot" trij* -airsoft | holosun <$300', status: 201 },
    { name: 'an empty term', term: '   ', status: 400, code: 'INVALID_TERM', title: 'Invalid search term', message: 'Enter at least one word to look for' },
    {
      name: 'capital OR / AND / NOT are saved in the Dibs form',
      term: '(RMR OR SRO) AND Trijicon NOT airsoft',
      status: 201,
      saved: '(rmr | sro) trijicon -airsoft',
    },
    { name: 'a per-round bound is accepted', term: '9mm <$0.40/rd', status: 201, saved: '9mm <$0.40/rd' },
    {
      name: 'a price without a bound',
      term: 'rmr $400',
      status: 400,
      code: 'INVALID_TERM',
      title: 'Invalid search term',
      message: 'A price needs a bound: write <$400 (under) or >$400 (over)',
    },
    {
      name: 'an unclosed parenthesis',
      term: '(rmr OR sro',
      status: 400,
      code: 'INVALID_TERM',
      title: 'Invalid search term',
      message: 'Unbalanced parenthesis: add the closing )',
    },
    {
      name: 'too many combinations',
      term: '(a|b) (c|d) (e|f) (g|h) (i|j)',
      status: 400,
      code: 'INVALID_TERM',
      title: 'Invalid search term',
      message: 'Too many combinations: parentheses may expand a term into at most 16 alternatives',
    },
    {
      name: 'an unbalanced quote',
      term: '"red dot',
      status: 400,
      code: 'INVALID_TERM',
      title: 'Invalid search term',
      message: 'Unbalanced quote: add the closing "',
    },
    {
      name: 'only exclusions',
      term: '-airsoft',
      status: 400,
      code: 'INVALID_TERM',
      title: 'Invalid search term',
      message: 'A term needs at least one word to look for; "-airsoft" only excludes',
    },
    {
      name: 'an empty alternative',
      term: 'rmr |',
      status: 400,
      code: 'INVALID_TERM',
      title: 'Invalid search term',
      message: 'Empty alternative around "|": put words on both sides of it',
    },
    {
      name: 'a duplicate, compared case-insensitively',
      before: ['rmr'],
      term: 'RMR',
      status: 409,
      code: 'TERM_EXISTS',
      title: 'Term already exists',
      message: 'This search term is already in your list',
    },
    {
      name: 'the 11th term of a subscriber',
      before: Array.from({ length: 10 }, (_, i) => `item${i}`),
      term: 'one more',
      status: 403,
      code: 'TERM_LIMIT',
      title: 'Maximum terms reached',
      message: 'Your account is limited to 10 search terms. Please upgrade for more.',
    },
    { name: 'the 11th term of an admin is fine', role: 'admin', before: Array.from({ length: 10 }, (_, i) => `item${i}`), term: 'one more', status: 201 },
    {
      name: 'the 51st term of an admin',
      role: 'admin',
      before: Array.from({ length: 50 }, (_, i) => `item${i}`),
      term: 'one more',
      status: 403,
      code: 'TERM_LIMIT',
      message: 'Your account is limited to 50 search terms. Please upgrade for more.',
    },
    { name: 'a deals term without the deals plan', role: 'product', category: 'gd', term: 'holosun', status: 403, code: 'FORUM_NOT_IN_PLAN' },
    { name: 'a WTS term without the accessories plan', role: 'gd', category: 'wts', term: 'holosun', status: 403, code: 'FORUM_NOT_IN_PLAN' },
    { name: 'an expired trial', role: 'trial_expired', term: 'holosun', status: 403, code: 'FORUM_NOT_IN_PLAN' },
    { name: 'an unknown category', category: 'guns', term: 'holosun', status: 400, code: 'VALIDATION' },
    { name: 'a term that is not a string', term: 42, status: 400, code: 'VALIDATION' },
  ]
  for (const s of scenarios) {
    test(`${s.name} → ${s.status}${s.title ? ` '${s.title}'` : ''}`, async () => {
      const { cookie, userId } = await createUserWithSession(deps, { role: s.role ?? 'product+gd' })
      const category = s.category ?? 'wts'
      for (const t of s.before ?? []) expect((await add(cookie, category, t)).status).toBe(201)
      const r = await add(cookie, category, s.term)
      expect(r.status).toBe(s.status)
      if (s.code) expect(r.body.error.code).toBe(s.code)
      if (s.title) expect(r.body.error.title).toBe(s.title)
      if (s.message) expect(r.body.error.message).toBe(s.message)
      if (s.saved) expect(r.body.term.term).toBe(s.saved)
      const count = await rowCount(deps, searchTerms, eq(searchTerms.userId, userId))
      expect(count).toBe((s.before?.length ?? 0) + (s.status === 201 ? 1 : 0)) // nothing half-saved
    })
  }

  test('signed out → 401', async () => {
    const r = await add('', 'wts', 'rmr')
    expect(r.status).toBe(401)
    expect(r.body.error.code).toBe('UNAUTHORIZED')
  })

  test('the same term in another category, or for another user, is not a duplicate', async () => {
    const a = await createUserWithSession(deps)
    const b = await createUserWithSession(deps)
    expect((await add(a.cookie, 'wts', 'rmr')).status).toBe(201)
    expect((await add(a.cookie, 'wtb', 'rmr')).status).toBe(201)
    expect((await add(b.cookie, 'wts', 'rmr')).status).toBe(201)
  })

  test('adding a term matches the last 7 days of posts of its category, as read and never notified', async () => {
    const { cookie, userId } = await createUserWithSession(deps)
    await storePosts(deps, [
      forumPost('[WTS] Trijicon RMR - $400', { ageMs: 3600_000 }),
      forumPost('[WTB] Trijicon RMR', { ageMs: 3600_000 }),
      forumPost('[WTS] RMR, 8 days old', { ageMs: 8 * 86_400_000 }),
      forumPost('[WTS] Aimpoint T2', { ageMs: 60_000 }),
    ])
    const events: any[] = []
    deps.bus.on('match.new', (e) => void events.push(e))
    const r = await add(cookie, 'wts', 'rmr')
    expect(r.status).toBe(201)
    expect(r.body.backfilled).toBe(1)
    const rows = await db()
      .select({ postTitle: matches.postTitle, isNew: matches.isNew, source: matches.source })
      .from(matches)
      .where(eq(matches.userId, userId))
    expect(rows).toEqual([{ postTitle: '[WTS] Trijicon RMR - $400', isNew: false, source: 'backfill' }])
    expect(events).toHaveLength(1)
    expect(events[0].notify).toBe(false)
    // and the live index knows the term from now on
    expect(
      matcherFor(deps)
        .match(preparePost({ title: 'RMR type 2' }), 'wts')
        .map((t) => t.text),
    ).toEqual(['rmr'])
  })
})

describe('GET and DELETE /api/terms', () => {
  test('lists the terms of a category, oldest first, with the limit', async () => {
    const { cookie } = await createUserWithSession(deps)
    await add(cookie, 'wts', 'rmr')
    await add(cookie, 'wts', 'aimpoint')
    await add(cookie, 'gd', 'holosun')
    const r = await call(app, 'GET', '/api/terms?category=wts', { cookie })
    expect(r.status).toBe(200)
    expect(r.body.limit).toBe(10)
    expect(r.body.terms.map((t: any) => t.term)).toEqual(['rmr', 'aimpoint'])
    expect(r.body.terms[0]).toMatchObject({ category: 'wts', id: expect.any(Number), createdAt: expect.any(String) })
  })

  test('removing a term removes its matches; a match another term still holds stays with that term', async () => {
    const { cookie, userId } = await createUserWithSession(deps)
    await storePosts(deps, [forumPost('[WTS] Trijicon RMR - $400'), forumPost('[WTS] Trijicon SRO - $420')])
    const rmr = (await add(cookie, 'wts', 'rmr')).body.term
    await add(cookie, 'wts', 'trijicon')
    const before = await db().select({ postTitle: matches.postTitle, matchedTerms: matches.matchedTerms }).from(matches).orderBy(matches.postTitle)
    expect(before).toEqual([
      { postTitle: '[WTS] Trijicon RMR - $400', matchedTerms: ['rmr', 'trijicon'] },
      { postTitle: '[WTS] Trijicon SRO - $420', matchedTerms: ['trijicon'] },
    ])
    const updates: any[] = []
    deps.bus.on('match.updated', (e) => void updates.push(e))
    const r = await call(app, 'DELETE', `/api/terms/${rmr.id}`, { cookie })
    expect(r.status).toBe(200)
    expect(r.body.matchesRemoved).toBe(0)
    expect(await db().select({ matchedTerms: matches.matchedTerms }).from(matches).orderBy(matches.postTitle)).toEqual([
      { matchedTerms: ['trijicon'] },
      { matchedTerms: ['trijicon'] },
    ])
    const cleared = await call(app, 'DELETE', '/api/terms?category=wts', { cookie })
    expect(cleared.body).toEqual({ count: 1, matchesRemoved: 2 })
    expect(await rowCount(deps, matches, eq(matches.userId, userId))).toBe(0)
    expect(updates.at(-1)).toMatchObject({ userId, change: 'removed' })
    expect(updates.at(-1).ids).toHaveLength(2)
    expect(matcherFor(deps).size).toBe(0)
  })

  test("another user's term id → 404 and nothing removed", async () => {
    const a = await createUserWithSession(deps)
    const b = await createUserWithSession(deps)
    const term = (await add(a.cookie, 'wts', 'rmr')).body.term
    const r = await call(app, 'DELETE', `/api/terms/${term.id}`, { cookie: b.cookie })
    expect(r.status).toBe(404)
    expect(await rowCount(deps, searchTerms)).toBe(1)
  })

  test('listing a category outside the plan → 403', async () => {
    const { cookie } = await createUserWithSession(deps, { role: 'gd' })
    expect((await call(app, 'GET', '/api/terms?category=wts', { cookie })).status).toBe(403)
    expect((await call(app, 'GET', '/api/terms?category=gd', { cookie })).status).toBe(200)
  })
})

describe('PATCH /api/terms/:id — edit in place, pause and resume (issue 12 item 11)', () => {
  const { matchPosts } = require('../../src/matches/runner') as typeof import('../../src/matches/runner')
  const { MatchingService } = require('../../src/matches/matcher') as typeof import('../../src/matches/matcher')
  const matchIds = async (userId: number) =>
    (await db().select({ id: matches.id }).from(matches).where(eq(matches.userId, userId)).orderBy(matches.id)).map((r) => r.id)
  const publish = async (title: string) => matchPosts(deps, await storePosts(deps, [forumPost(title, { ageMs: 1000 })]), 'live')

  test('pausing keeps the matches and stops new ones; resuming brings matching back; a restart keeps it paused', async () => {
    const u = await createUserWithSession(deps)
    const id = (await add(u.cookie, 'wts', 'aimpoint')).body.term.id
    await publish('[WTS] Aimpoint T2 - $650')
    const before = await matchIds(u.userId)
    expect(before).toHaveLength(1)

    const paused = await call(app, 'PATCH', `/api/terms/${id}`, { cookie: u.cookie, json: { paused: true } })
    expect(paused.status).toBe(200)
    expect(paused.body.term).toMatchObject({ id, term: 'aimpoint', paused: true })
    await publish('[WTS] Aimpoint PRO - $400')
    expect(await matchIds(u.userId)).toEqual(before)
    expect((await call(app, 'GET', '/api/terms?category=wts', { cookie: u.cookie })).body.terms[0].paused).toBe(true)
    // a fresh process (restart) does not index the paused term either
    expect((await new MatchingService(deps).load()).index.size).toBe(0)

    expect((await call(app, 'PATCH', `/api/terms/${id}`, { cookie: u.cookie, json: { paused: false } })).body.term.paused).toBe(false)
    await publish('[WTS] Aimpoint Micro H-2 - $700')
    expect(await matchIds(u.userId)).toHaveLength(2)
  })

  test('editing the text keeps earlier matches, matches the new text from now on and backfills 7 days (read)', async () => {
    const u = await createUserWithSession(deps)
    const id = (await add(u.cookie, 'wts', 'eotech')).body.term.id
    await publish('[WTS] EOTech EXPS3 - $550')
    await storePosts(deps, [forumPost('[WTS] Holosun 509T - $350', { ageMs: 60_000 })])
    const edited = await call(app, 'PATCH', `/api/terms/${id}`, { cookie: u.cookie, json: { term: '  Holosun ' } })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ term: { id, term: 'holosun', paused: false }, backfilled: 1 })
    expect(await matchIds(u.userId)).toHaveLength(2) // the EOTech match stays, the Holosun post backfilled
    await publish('[WTS] EOTech 512 - $400')
    await publish('[WTS] Holosun 407C - $250')
    const titles = (await db().select({ title: matches.postTitle }).from(matches).where(eq(matches.userId, u.userId)).orderBy(matches.id)).map((r) => r.title)
    expect(titles).toEqual(['[WTS] EOTech EXPS3 - $550', '[WTS] Holosun 509T - $350', '[WTS] Holosun 407C - $250'])
  })

  test('the same errors as saving, and another user’s term is not found', async () => {
    const u = await createUserWithSession(deps)
    const a = (await add(u.cookie, 'wts', 'rmr')).body.term.id
    await add(u.cookie, 'wts', 'sro')
    const dup = await call(app, 'PATCH', `/api/terms/${a}`, { cookie: u.cookie, json: { term: 'SRO' } })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toMatchObject({ code: 'TERM_EXISTS', title: 'Term already exists' })
    const bad = await call(app, 'PATCH', `/api/terms/${a}`, { cookie: u.cookie, json: { term: '"rmr' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('INVALID_TERM')
    expect((await call(app, 'PATCH', `/api/terms/${a}`, { cookie: u.cookie, json: { term: 'rmr' } })).status).toBe(200) // unchanged text is fine
    const other = await createUserWithSession(deps)
    expect((await call(app, 'PATCH', `/api/terms/${a}`, { cookie: other.cookie, json: { paused: true } })).status).toBe(404)
    expect((await call(app, 'PATCH', `/api/terms/${a}`, { cookie: u.cookie, json: { paused: 'yes' } })).status).toBe(400)
  })
})
