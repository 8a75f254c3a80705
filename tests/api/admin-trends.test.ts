// Admin Trends API (issue 14 item 9): daily series over 7/30/90 UTC days from seeded rows at a fixed
// clock — days without data are 0, latency counts live matches only, the most saved terms.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { matches, matchTerms, posts, searchTerms, users } from '../../src/db/schema'
import { TOP_TERMS } from '../../src/admin/trends/view'
import { call } from '../helpers'
import { adminWorld, auditRows, expectAdminOnly, type AdminWorld } from './admin-data-helpers'

let w: AdminWorld
beforeEach(async () => {
  w = await adminWorld() // now: 2026-03-10T12:00:00Z
})
afterEach(() => w.deps.close())

const T = (iso: string) => new Date(iso)
let n = 0
function post(forum: 'product' | 'gd', createdAt: string) {
  n++
  return w.deps.db
    .insert(posts)
    .values({
      redditId: `t3_tr${n}`,
      forum,
      subreddit: forum === 'gd' ? 'gundeals' : 'GunAccessoriesForSale',
      title: `Post ${n}`,
      url: `https://reddit.test/${n}`,
      createdAt: T(createdAt),
    })
    .returning()
    .get()
}
function match(userId: number, category: 'wts' | 'wtb' | 'gd', at: string, postAt: string | null, source = 'live', termIds: number[] = []) {
  n++
  const m = w.deps.db
    .insert(matches)
    .values({
      userId,
      category,
      matchedTerms: ['x'],
      postTitle: `t${n}`,
      postUrl: `https://reddit.test/m${n}`,
      postCreatedAt: postAt ? T(postAt) : null,
      matchedAt: T(at),
      source,
    })
    .returning()
    .get()
  for (const termId of termIds) w.deps.db.insert(matchTerms).values({ matchId: m.id, termId }).run()
  return m
}
const term = (userId: number, category: string, text: string) => w.deps.db.insert(searchTerms).values({ userId, category, term: text }).returning().get().id
const get = (days?: string) => call(w.app, 'GET', `/api/admin/trends${days === undefined ? '' : `?days=${days}`}`, { cookie: w.admin.cookie })

describe('admin only', () => {
  for (const path of ['/api/admin/trends', '/api/admin/trends?days=30'])
    test(`GET ${path}: signed out 401, subscriber 403, admin 200; reading writes no audit row`, async () => {
      await expectAdminOnly(w, { method: 'GET', path })
      expect(auditRows(w, 'trends')).toEqual([])
    })
})

describe('range', () => {
  const table: [string | undefined, number][] = [
    [undefined, 7],
    ['7', 7],
    ['30', 30],
    ['90', 90],
  ]
  for (const [days, length] of table)
    test(`days=${days ?? '(none)'} gives ${length} UTC days ending today, every series as long`, async () => {
      const r = await get(days)
      expect(r.status).toBe(200)
      expect(r.body.days).toBe(length)
      expect(r.body.labels).toHaveLength(length)
      expect(r.body.labels.at(-1)).toBe('2026-03-10')
      for (const s of [...Object.values(r.body.postsPerForum), ...Object.values(r.body.matchesPerCategory), r.body.newAccounts, r.body.latency.p50])
        expect(s as unknown[]).toHaveLength(length)
    })
  for (const bad of ['14', '0', 'abc', '-7'])
    test(`days=${bad} is refused`, async () => {
      const r = await get(bad)
      expect(r.status).toBe(400)
      expect(r.body.error.message).toMatch(/^days: /)
    })
})

describe('series from seeded rows', () => {
  test('posts per forum, matches per category, new accounts: one value per day, 0 on empty days', async () => {
    post('product', '2026-03-10T01:00:00Z')
    post('product', '2026-03-10T11:59:00Z')
    post('gd', '2026-03-08T23:59:59Z')
    post('gd', '2026-03-09T00:00:00Z')
    post('product', '2026-03-02T10:00:00Z') // in 30 days, not in 7
    match(w.user.userId, 'wts', '2026-03-10T10:00:00Z', '2026-03-10T09:59:30Z')
    match(w.user.userId, 'gd', '2026-03-04T00:00:00Z', '2026-03-03T23:59:50Z') // first day of 7
    match(w.user.userId, 'wtb', '2026-03-03T23:59:59Z', null) // the day before: outside 7
    w.deps.db
      .update(users)
      .set({ createdAt: T('2026-03-10T09:00:00Z') })
      .run() // the admin and the subscriber
    w.deps.db
      .insert(users)
      .values({ email: 'new@example.com', createdAt: T('2026-03-05T08:00:00Z') })
      .run()
    const r = await get('7')
    expect(r.body.labels).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'])
    expect(r.body.postsPerForum).toEqual({ product: [0, 0, 0, 0, 0, 0, 2], gd: [0, 0, 0, 0, 1, 1, 0] })
    expect(r.body.matchesPerCategory).toEqual({ wts: [0, 0, 0, 0, 0, 0, 1], wtb: [0, 0, 0, 0, 0, 0, 0], gd: [1, 0, 0, 0, 0, 0, 0] })
    expect(r.body.newAccounts).toEqual([0, 1, 0, 0, 0, 0, 2])
    const month = await get('30')
    expect(month.body.labels[0]).toBe('2026-02-09')
    expect(month.body.postsPerForum.product[month.body.labels.indexOf('2026-03-02')]).toBe(1)
    expect(month.body.matchesPerCategory.wtb[month.body.labels.indexOf('2026-03-03')]).toBe(1)
    expect(month.body.postsPerForum.product.reduce((a: number, b: number) => a + b, 0)).toBe(3)
  })

  test('an empty database gives all-zero series and no latency', async () => {
    const r = await get('90')
    expect(new Set(r.body.postsPerForum.product)).toEqual(new Set([0]))
    expect(new Set(r.body.matchesPerCategory.gd)).toEqual(new Set([0]))
    expect(r.body.newAccounts.slice(0, -1).every((v: number) => v === 0)).toBe(true)
    expect(new Set(r.body.latency.p50)).toEqual(new Set([null]))
    expect(r.body.topTerms).toEqual([])
    expect(r.body.oldestPostAt).toBeNull()
  })

  test('post→alert latency p50/p95 per day, in seconds, from live matches only', async () => {
    const today = ['2026-03-10T10:00:00Z', '2026-03-10T10:00:10Z', '2026-03-10T10:00:20Z', '2026-03-10T10:01:40Z']
    for (const at of today) match(w.user.userId, 'wts', at, '2026-03-10T10:00:00Z', 'live') // 0, 10, 20, 100 s
    match(w.user.userId, 'wts', '2026-03-10T11:00:00Z', '2026-03-01T00:00:00Z', 'backfill') // a term added later: not an alert
    match(w.user.userId, 'wts', '2026-03-10T11:00:00Z', '2026-03-09T00:00:00Z', 'batch')
    match(w.user.userId, 'gd', '2026-03-08T00:00:02.500Z', '2026-03-08T00:00:00Z', 'live')
    const r = await get('7')
    expect(r.body.latency).toEqual({
      p50: [null, null, null, null, 2.5, null, 10],
      p95: [null, null, null, null, 2.5, null, 100],
      count: [0, 0, 0, 0, 1, 0, 4],
    })
  })

  test('the 20 most saved terms with their users, categories and matches within the range', async () => {
    const a = term(w.user.userId, 'wts', 'trijicon')
    const b = term(w.admin.userId, 'wts', 'trijicon')
    const c = term(w.admin.userId, 'gd', 'trijicon')
    const d = term(w.user.userId, 'wtb', 'aimpoint')
    for (let i = 0; i < 25; i++) term(w.admin.userId, 'wtb', `filler ${String(i).padStart(2, '0')}`)
    match(w.user.userId, 'wts', '2026-03-10T10:00:00Z', '2026-03-10T09:00:00Z', 'live', [a])
    match(w.admin.userId, 'wts', '2026-03-09T10:00:00Z', '2026-03-09T09:00:00Z', 'live', [b])
    match(w.admin.userId, 'gd', '2026-03-09T10:00:00Z', '2026-03-09T09:00:00Z', 'live', [c])
    match(w.admin.userId, 'gd', '2026-02-01T10:00:00Z', '2026-02-01T09:00:00Z', 'live', [c]) // outside 7 and 30 days
    match(w.user.userId, 'wtb', '2026-03-10T10:00:00Z', '2026-03-10T09:00:00Z', 'live', [d])
    const r = await get('7')
    expect(r.body.topTerms).toHaveLength(TOP_TERMS)
    expect(r.body.topTerms[0]).toEqual({ term: 'trijicon', saves: 3, users: 2, categories: ['gd', 'wts'], matches: 3 })
    // the rest saved once each: those with matches first, then by text
    expect(r.body.topTerms[1]).toEqual({ term: 'aimpoint', saves: 1, users: 1, categories: ['wtb'], matches: 1 })
    expect(r.body.topTerms[2]).toMatchObject({ term: 'filler 00', matches: 0 })
    const quarter = await get('90')
    expect(quarter.body.topTerms[0].matches).toBe(4)
  })
})
