// Issue 15 item 16: per-user matching defaults over a real server — skip SOLD/PENDING posts (on by
// default) and always-excluded words — applied to live scans (fake Reddit → runScan), the 7-day
// backfill of a new term and batch matching; GET/PUT /api/match-defaults with validation.
import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { matches, posts } from '../../src/db/schema'
import { runBatchMatch } from '../../src/matches/batch'
import { runScan } from '../../src/scanner/scan'
import { startFakeReddit, type FakeReddit, fakeOauthClient } from '../fakes/reddit'
import { createUserWithSession, startTestServer } from '../helpers'

type Server = Awaited<ReturnType<typeof startTestServer>>
let server: Server | null = null
let fake: FakeReddit | null = null
afterEach(async () => {
  await fake?.stop()
  await server?.stop()
  fake = server = null
})

async function setup() {
  server = await startTestServer()
  fake = await startFakeReddit()
  const s = server
  const client = fakeOauthClient(fake, { timeoutMs: 2000 })
  const http = async (method: string, path: string, cookie?: string, json?: unknown) => {
    const headers: Record<string, string> = { origin: s.deps.config.appUrl }
    if (cookie) headers.cookie = cookie
    if (json !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(`${s.url}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) })
    return { status: res.status, body: (await res.json().catch(() => null)) as any }
  }
  const user = async () => {
    const u = await createUserWithSession(s.deps)
    return { ...u, put: (json: unknown) => http('PUT', '/api/match-defaults', u.cookie, json), get: () => http('GET', '/api/match-defaults', u.cookie) }
  }
  // sorted here, not by the engine's collation: the titles in code-unit order, as SQLite's ORDER BY gave them
  const titlesOf = async (userId: number) =>
    (await asAsync(s.deps.db).select({ title: matches.postTitle }).from(matches).where(eq(matches.userId, userId))).map((r) => r.title).sort()
  return { s, fake: fake!, scan: () => runScan(s.deps, client), http, user, titlesOf }
}

const OPEN = '[WTS] Trijicon RMR RM06 - $420'
const SOLD = '[WTS] Trijicon RMR Type 2 - $400 [SOLD]'
const PENDING = '[WTS] Trijicon RMR RM07, green - $380'
// (an airsoft replica no longer matches `rmr` at all: the matcher reads replica items, so the excluded word here is another)
const AIRSOFT = '[WTS] RMR RM06 in FDE cerakote - $300'
const PHRASE = '[WTS] Trijicon RMR RM06 with range bag - $350'

function publishAll(fake: FakeReddit) {
  fake.publish({ title: OPEN, author_flair_text: 'Trades: 12' })
  fake.publish({ title: SOLD })
  fake.publish({ title: PENDING, link_flair_text: 'Pending' })
  fake.publish({ title: AIRSOFT })
  fake.publish({ title: PHRASE, selftext: 'Bag range? No: the words of a phrase must be next to each other.' })
}

describe('GET/PUT /api/match-defaults', () => {
  test('defaults: skip SOLD/PENDING on, no excluded words, airsoft suggested; sign-in required', async () => {
    const t = await setup()
    const u = await t.user()
    expect(await u.get()).toEqual({ status: 200, body: { skipSold: true, excludeWords: [], suggestions: ['airsoft'] } })
    expect((await t.http('GET', '/api/match-defaults')).status).toBe(401)
    expect((await t.http('PUT', '/api/match-defaults', undefined, { skipSold: false })).status).toBe(401)
  })

  test('a partial PUT keeps the rest; words are lowercased, trimmed and de-duplicated', async () => {
    const t = await setup()
    const u = await t.user()
    expect((await u.put({ excludeWords: ['  AirSoft ', 'airsoft', 'Gel   Blaster', ''] })).body).toMatchObject({
      skipSold: true,
      excludeWords: ['airsoft', 'gel blaster'],
    })
    expect((await u.put({ skipSold: false })).body).toMatchObject({ skipSold: false, excludeWords: ['airsoft', 'gel blaster'] })
    expect((await u.get()).body).toMatchObject({ skipSold: false, excludeWords: ['airsoft', 'gel blaster'] })
    const other = await t.user()
    expect((await other.get()).body).toMatchObject({ skipSold: true, excludeWords: [] })
  })

  const invalid: [string, unknown, string][] = [
    ['51 words', { excludeWords: Array.from({ length: 51 }, (_, i) => `word${i}`) }, 'Too many excluded words: at most 50'],
    ['a search operator', { excludeWords: ['"airsoft'] }, '""airsoft" contains """: write the plain word or phrase to exclude, like airsoft'],
    ['an exclusion sign', { excludeWords: ['-airsoft'] }, '"-airsoft" contains "-": write the plain word or phrase to exclude, like airsoft'],
    ['alternatives', { excludeWords: ['airsoft | gel'] }, '"airsoft | gel" contains "|": write the plain word or phrase to exclude, like airsoft'],
    ['a price', { excludeWords: ['<$50'] }, '"<$50" contains "<": write the plain word or phrase to exclude, like airsoft'],
    ['no letters or digits', { excludeWords: ['🔥🔥'] }, '"🔥🔥" has no letters or digits to exclude'],
    ['over 40 characters', { excludeWords: ['x'.repeat(41)] }, `"${'x'.repeat(41)}" is too long: an excluded word or phrase can have at most 40 characters`],
  ]
  for (const [what, body, message] of invalid)
    test(`refuses ${what} with 400 INVALID_DEFAULTS and keeps the saved list`, async () => {
      const t = await setup()
      const u = await t.user()
      await u.put({ excludeWords: ['airsoft'] })
      expect(await u.put(body)).toEqual({ status: 400, body: { error: { code: 'INVALID_DEFAULTS', message } } })
      expect((await u.get()).body.excludeWords).toEqual(['airsoft'])
    })

  test('a wrong type is a validation error', async () => {
    const t = await setup()
    const u = await t.user()
    expect((await u.put({ skipSold: 'yes' })).status).toBe(400)
    expect((await u.put({ excludeWords: 'airsoft' })).status).toBe(400)
  })
})

describe('defaults applied to matching', () => {
  test('live scan: SOLD and PENDING posts are skipped by default and matched with the default off; excluded words and phrases drop a match', async () => {
    const t = await setup()
    const byDefault = await t.user()
    const allStates = await t.user()
    const excluding = await t.user()
    expect((await allStates.put({ skipSold: false })).status).toBe(200)
    expect((await excluding.put({ excludeWords: ['cerakote', 'range bag'] })).status).toBe(200)
    for (const u of [byDefault, allStates, excluding]) expect((await t.http('POST', '/api/terms', u.cookie, { category: 'wts', term: 'rmr' })).status).toBe(201)
    await Bun.sleep(5) // posts created after the terms
    publishAll(t.fake)
    const outcome = await t.scan()
    expect(outcome).toMatchObject({ status: 'success', postsNew: 5 })

    expect(await t.titlesOf(byDefault.userId)).toEqual([AIRSOFT, PHRASE, OPEN].sort())
    expect(await t.titlesOf(allStates.userId)).toEqual([AIRSOFT, PHRASE, OPEN, PENDING, SOLD].sort())
    expect(await t.titlesOf(excluding.userId)).toEqual([OPEN])
    // the author's flair is stored with the post
    expect(await asAsync(t.s.deps.db).select({ authorFlair: posts.authorFlair }).from(posts).where(eq(posts.title, OPEN))).toEqual([
      { authorFlair: 'Trades: 12' },
    ])
  })

  test("a new term's 7-day backfill and a batch run obey the defaults too", async () => {
    const t = await setup()
    publishAll(t.fake)
    await t.scan() // stored, nobody has terms yet
    const u = await t.user()
    await u.put({ excludeWords: ['cerakote'] })
    const added = await t.http('POST', '/api/terms', u.cookie, { category: 'wts', term: 'trijicon' })
    expect(added.body.backfilled).toBe(2) // OPEN, PHRASE: not SOLD, not PENDING, not cerakote (no "trijicon" in it anyway)
    expect(await t.titlesOf(u.userId)).toEqual([PHRASE, OPEN].sort())

    // batch: the matches are gone (e.g. restored terms), the defaults changed in between
    await asAsync(t.s.deps.db).delete(matches).where(eq(matches.userId, u.userId))
    await u.put({ skipSold: false, excludeWords: ['range bag'] })
    const batch = await runBatchMatch(t.s.deps, { sinceMs: 3600_000 })
    expect(batch.matches_created).toBe(3)
    expect(await t.titlesOf(u.userId)).toEqual([OPEN, PENDING, SOLD].sort())
  })
})
