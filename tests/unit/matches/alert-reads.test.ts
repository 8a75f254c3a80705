// The owners' reads of the alert path (issue 29 §1): src/matches/alert-reads.ts, src/terms/reads.ts and the
// posts reads of src/forums/store.ts, on a real database. The dispatcher, the digest, the hold and the
// explainer call them instead of their own SQL (tests/api/notify*.test.ts, explain.test.ts cover those).
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { allUserIds } from '../../../src/auth/users'
import { postByLink, postNotOpen, postStateOf, redditIdsOf } from '../../../src/forums/store'
import { liveMatchesForDigest, matchIdsOfPost, matchOfUserPost, postsOfMatches } from '../../../src/matches/alert-reads'
import { termIdsOfMatch } from '../../../src/matches/store'
import { socketTimeOf } from '../../../src/metrics/latency'
import { rowWithKey } from '../../../src/outbox/stats'
import { termsByIds, userIdsWithDigestTerm } from '../../../src/terms/reads'
import { makeDeps, type TestDeps } from '../../helpers'

let deps: TestDeps
beforeEach(async () => {
  deps = await makeDeps()
})
afterEach(() => deps.close())

const T0 = 1_763_640_000_000
const one = <T>(q: string, ...args: (string | number | null)[]) => deps.sqlite.query<T, (string | number | null)[]>(q).get(...args)!
const user = (email: string) => one<{ id: number }>('INSERT INTO users (email) VALUES (?) RETURNING id', email).id
const post = (redditId: string, opts: { url?: string; linkUrl?: string | null; state?: string } = {}) =>
  one<{ id: number }>(
    "INSERT INTO posts (reddit_id, forum, subreddit, title, url, link_url, state, created_at) VALUES (?, 'gd', 'gundeals', 't', ?, ?, ?, ?) RETURNING id",
    redditId,
    opts.url ?? `https://www.reddit.com/${redditId}`,
    opts.linkUrl ?? null,
    opts.state ?? 'open',
    T0,
  ).id
const match = (userId: number, postId: number | null, at: number, opts: { source?: string; postCreatedAt?: number | null } = {}) =>
  one<{ id: number }>(
    "INSERT INTO matches (user_id, post_id, category, matched_terms, post_title, post_url, created_at, post_created_at, source) VALUES (?, ?, 'gd', '[\"x\"]', 't', 'u', ?, ?, ?) RETURNING id",
    userId,
    postId,
    at,
    opts.postCreatedAt === undefined ? T0 : opts.postCreatedAt,
    opts.source ?? 'live',
  ).id
let terms = 0
const term = (userId: number, delivery: object | null = null) =>
  one<{ id: number }>(
    "INSERT INTO search_terms (user_id, category, term, created_at, delivery) VALUES (?, 'gd', ?, ?, ?) RETURNING id",
    userId,
    `term ${++terms}`,
    T0,
    delivery === null ? null : JSON.stringify(delivery),
  ).id
const byNumber = (a: number, b: number) => a - b // ids grow: t1 < t2
const link = (matchId: number, termId: number) => deps.sqlite.query('INSERT INTO match_terms (match_id, term_id) VALUES (?, ?)').run(matchId, termId)

describe('matches: the alert path', () => {
  test('a match’s term ids; a deleted term’s link goes with it (cascade), and termsByIds skips ids that are gone', async () => {
    const u = user('a@example.com')
    const m = match(u, post('p1'), T0)
    const [t1, t2] = [term(u, { email: 'digest' }), term(u)]
    link(m, t1)
    link(m, t2)
    expect((await termIdsOfMatch(deps, m)).sort(byNumber)).toEqual([t1, t2])
    expect((await termsByIds(deps, [t1, t2, 999])).map((t) => t.id).sort(byNumber)).toEqual([t1, t2])
    expect(await termsByIds(deps, [])).toEqual([])
    deps.sqlite.query('DELETE FROM search_terms WHERE id = ?').run(t1)
    expect(await termIdsOfMatch(deps, m)).toEqual([t2])
    expect((await termsByIds(deps, [t2]))[0]).toMatchObject({ id: t2, created_at: T0, delivery: null, muted_until: null, always_notify: 0 })
  })

  test('posts of matches: a match whose post is gone (post_id set null) is left out; Reddit ids by post id', async () => {
    const u = user('a@example.com')
    const [p1, p2] = [post('r1'), post('r2')]
    const [m1, m2] = [match(u, p1, T0), match(u, p2, T0)]
    deps.sqlite.query('DELETE FROM posts WHERE id = ?').run(p2)
    expect(await postsOfMatches(deps, [m1, m2, 999])).toEqual([{ matchId: m1, postId: p1 }])
    expect(await redditIdsOf(deps, [p1, p2])).toEqual(new Map([[p1, 'r1']]))
    expect(await matchIdsOfPost(deps, p1)).toEqual([m1])
    expect(await matchOfUserPost(deps, u, p1)).toMatchObject({ id: m1, source: 'live', created_at: T0, matched_terms: '["x"]' })
    expect(await matchOfUserPost(deps, u, p2)).toBeNull()
  })

  test('digest: live matches of the window (after, upTo], oldest first; not before the restore point, not emailed alone, not on a post no longer open', async () => {
    const u = user('a@example.com')
    const other = user('b@example.com')
    const at = (min: number) => T0 + min * 60_000
    const inWindow = match(u, post('a'), at(10))
    const first = match(u, post('b'), at(5))
    match(u, post('c'), at(0)) // at the window's start: the previous window's
    const atEnd = match(u, post('d'), at(60))
    match(u, post('e'), at(61)) // after it
    match(u, post('f'), at(20), { source: 'backfill' })
    match(other, post('g'), at(20))
    match(u, post('h', { state: 'sold' }), at(20))
    match(u, post('i', { state: 'pending' }), at(20))
    const beforeRestore = match(u, post('j'), at(20), { postCreatedAt: T0 - 1 })
    const noPostTime = match(u, post('k'), at(21), { postCreatedAt: null })
    const emailed = match(u, post('l'), at(22))
    deps.sqlite
      .query("INSERT INTO outbox (channel, kind, dedupe_key, payload, status, next_attempt_at, created_at) VALUES ('email', 'match', ?, '{}', 'sent', 0, 0)")
      .run(`match:${emailed}:email`)
    const window = async (postedAfter: Date | null) =>
      (
        await liveMatchesForDigest(deps, {
          userId: u,
          after: new Date(at(0)),
          upTo: new Date(at(60)),
          postedAfter,
          sentAlone: (id) => rowWithKey(deps, sql`'match:' || ${id} || ':email'`),
        })
      ).map((m) => m.id)
    expect(await window(null)).toEqual([first, inWindow, beforeRestore, noPostTime, atEnd])
    expect(await window(new Date(T0 - 1))).toEqual([first, inWindow, noPostTime, atEnd])
  })

  test('postNotOpen finds a post only when its state is not open', async () => {
    const [open, sold] = [post('o'), post('s', { state: 'sold' })]
    const found = async (id: number) => (await postNotOpen(deps, sql`${id}`)).length
    expect([await found(open), await found(sold)]).toEqual([0, 1])
    expect([await postStateOf(deps, sold), await postStateOf(deps, 999)]).toEqual(['sold', null])
  })
})

describe('forums: a post by its link', () => {
  test('url or link_url, with or without one trailing slash; the newest of several', async () => {
    post('r1', { url: 'https://forum.example/t/1/' })
    const newer = post('r2', { url: 'https://www.reddit.com/r2', linkUrl: 'https://forum.example/t/1' })
    expect((await postByLink(deps, 'https://forum.example/t/1'))?.id).toBe(newer)
    expect(await postByLink(deps, 'https://forum.example/t/2')).toBeNull()
  })
})

describe('terms, users, latency: the alert path', () => {
  test('users with a term set to Digest; every user id ascending; a user by email', async () => {
    const [a, b, c] = [user('a@example.com'), user('b@example.com'), user('c@example.com')]
    term(a, { email: 'digest' })
    term(a, { email: 'digest' })
    term(b, { email: 'instant' })
    term(c)
    expect(await userIdsWithDigestTerm(deps)).toEqual(new Set([a]))
    expect(await allUserIds(deps)).toEqual([a, b, c])
  })

  test('socket time of a match: null without a row or before the socket write', async () => {
    const u = user('a@example.com')
    const m = match(u, post('p'), T0)
    expect(await socketTimeOf(deps, m)).toBeNull()
    deps.sqlite
      .query('INSERT INTO alert_latency (match_id, user_id, created_at, received_at, stored_at, matched_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(m, u, T0, T0, T0, T0)
    expect(await socketTimeOf(deps, m)).toBeNull()
    deps.sqlite.query('UPDATE alert_latency SET socket_at = ? WHERE match_id = ?').run(T0 + 5, m)
    expect(await socketTimeOf(deps, m)).toBe(T0 + 5)
  })
})
