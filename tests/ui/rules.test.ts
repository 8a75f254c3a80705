// The pure UI rules of spec §2/§4/§9 as tables: pagination, snippets, dates, badges, live feed,
// match lists and matched-word highlighting.
import { describe, expect, test } from 'bun:test'
import { pageCount, pageItems } from '../../ui/lib/pagination'
import { snippet, truncate } from '../../ui/lib/snippet'
import { cardTime, formatDate, timeAgo } from '../../ui/lib/dates'
import { badgeCount } from '../../ui/lib/badge'
import { acceptsLivePost, feedCategory, insertLive } from '../../ui/lib/feed'
import { addMatch, applyUpdate, matchedTermLabel, type Match } from '../../ui/lib/matches'
import { highlight } from '../../src/matching/highlight'
import { dashboardRedirect, forumPageGate } from '../../src/access/rules'

describe('live-feed pagination', () => {
  test.each([
    [1, 1, [1]],
    [1, 5, [1, 2, 3, 4, 5]],
    [3, 5, [1, 2, 3, 4, 5]],
    [1, 6, [1, 2, 'ellipsis', 6]],
    [4, 10, [1, 'ellipsis', 3, 4, 5, 'ellipsis', 10]],
    [10, 10, [1, 'ellipsis', 9, 10]],
    [3, 10, [1, 2, 3, 4, 'ellipsis', 10]],
    [2, 6, [1, 2, 3, 'ellipsis', 6]],
  ] as const)('page %d of %d shows %j', (current, pages, expected) => {
    expect(pageItems(current, pages)).toEqual([...expected])
  })
  test('10 posts per page, at least one page', () => {
    expect(pageCount(0)).toBe(1)
    expect(pageCount(10)).toBe(1)
    expect(pageCount(11)).toBe(2)
  })
})

describe('post-card snippet', () => {
  const long = 'x'.repeat(101)
  test.each([
    ['short text', 'Title', 'short text'],
    ['x'.repeat(100), 'T', 'x'.repeat(100)],
    [long, 'T', 'x'.repeat(97) + '...'],
    ['[WTS] Glock 19 — selling my Glock', '[WTS] Glock 19', '— selling my Glock'],
    ['[wts] glock 19', '[WTS] Glock 19', null],
    ['', 'T', null],
    [null, 'T', null],
  ] as const)('%j under %j → %j', (content, title, expected) => {
    expect(snippet(content, title)).toBe(expected)
  })
  test('truncation is 97 characters plus ... when over 100', () => {
    expect(truncate('a'.repeat(101)).length).toBe(100)
    expect(truncate('a'.repeat(100))).toBe('a'.repeat(100))
  })
})

describe('dates', () => {
  const now = new Date(2026, 10, 21, 19, 5)
  test.each([
    [new Date(2026, 10, 21, 19, 5), 'Nov 21, 7:05 PM'],
    [new Date(2026, 0, 3, 0, 9), 'Jan 3, 12:09 AM'],
    [new Date(2026, 5, 30, 12, 0), 'Jun 30, 12:00 PM'],
    ['not a date', 'Invalid date'],
    [null, 'Invalid date'],
  ] as const)("'MMM d, h:mm a' of %j is %j", (value, expected) => {
    expect(formatDate(value as never)).toBe(expected)
  })
  test.each([
    [10_000, 'less than a minute ago'],
    [60_000, '1 minute ago'],
    [5 * 60_000, '5 minutes ago'],
    [60 * 60_000, 'about 1 hour ago'],
    [3 * 3600_000, 'about 3 hours ago'],
    [26 * 3600_000, '1 day ago'],
    [3 * 86400_000, '3 days ago'],
  ])('%d ms before now reads %j', (ms, expected) => {
    expect(timeAgo(now.getTime() - ms, now)).toBe(expected)
  })
  test("relative time of an invalid date is 'Invalid date'", () => {
    expect(timeAgo('nope', now)).toBe('Invalid date')
  })
  test('the post time is preferred over the match time', () => {
    expect(cardTime('2026-11-20T10:00:00Z', '2026-11-21T10:00:00Z')).toBe(Date.parse('2026-11-20T10:00:00Z'))
    expect(cardTime(null, '2026-11-21T10:00:00Z')).toBe(Date.parse('2026-11-21T10:00:00Z'))
  })
})

describe('unread badge', () => {
  test.each([
    [0, ''],
    [-3, ''],
    [1, '1'],
    [99, '99'],
    [100, '99+'],
    [12345, '99+'],
  ])('%d shows %j', (n, expected) => expect(badgeCount(n)).toBe(expected))
})

describe('live feed inserts', () => {
  const now = new Date('2026-11-21T12:00:00Z')
  const post = (over: object = {}) => ({ id: 1, title: 't', url: 'u', forum: 'product', postType: 'wts', createdAt: '2026-11-21T11:59:00Z', ...over })
  test.each([
    ['a fresh WTS post on WTS page 1', post(), 'wts', 1, true],
    ['the same post on page 2', post(), 'wts', 2, false],
    ['a WTS post on the WTB tab', post(), 'wtb', 1, false],
    ['a deals post on GUNDEALS', post({ forum: 'gd', postType: 'gd' }), 'gd', 1, true],
    ['a post older than 7 days', post({ createdAt: '2026-11-13T11:00:00Z' }), 'wts', 1, false],
    ['an unclassified post', post({ postType: null }), 'wts', 1, false],
  ] as const)('%s → %p', (_name, p, tab, page, expected) => {
    expect(acceptsLivePost(p as never, tab, page, now)).toBe(expected)
  })
  test('a live post goes on top once and the page keeps 10', () => {
    const list = Array.from({ length: 10 }, (_, i) => ({ id: i + 10 }))
    const next = insertLive(list, { id: 1 })
    expect(next.map((p) => p.id).slice(0, 2)).toEqual([1, 10])
    expect(next).toHaveLength(10)
    expect(insertLive(next, { id: 1 })).toBe(next)
  })
  test('categories', () => {
    expect(feedCategory({ forum: 'gd', postType: null })).toBe('gd')
    expect(feedCategory({ forum: 'product', postType: 'wtb' })).toBe('wtb')
  })
})

describe('match lists', () => {
  const m = (id: number, isNew = true): Match => ({ id, title: 't', url: 'u', createdAt: '', isNew, category: 'wts' })
  test.each([
    [['glock 19'], 'glock 19'],
    [['a', 'b'], 'a, b'],
    ['["rmr"]', 'rmr'],
    [{ term: 'trij*' }, 'trij*'],
    [null, 'Term'],
    [[], 'Term'],
  ] as const)('matched term %j reads %j', (value, expected) => expect(matchedTermLabel(value)).toBe(expected))
  test('updates: read clears new, archived and removed take it out, new goes on top once', () => {
    const list = [m(1), m(2)]
    expect(applyUpdate(list, [1], 'read').map((x) => x.isNew)).toEqual([false, true])
    expect(applyUpdate(list, [1], 'archived').map((x) => x.id)).toEqual([2])
    expect(applyUpdate(list, [2], 'removed').map((x) => x.id)).toEqual([1])
    expect(addMatch(list, m(3)).map((x) => x.id)).toEqual([3, 1, 2])
    expect(addMatch(list, m(1))).toBe(list)
  })
})

describe('matched words are highlighted in the title', () => {
  const marked = (title: string, terms: string[]) =>
    highlight(title, terms)
      .filter((s) => s.hit)
      .map((s) => s.text)
  test.each([
    ['[WTS] Trijicon RMR Type 2', ['rmr'], ['RMR']],
    ['[WTS] Sig P-365 XL w/ 3 mags', ['p365'], ['P-365']],
    ['[WTS] Sig P-365 XL mags', ['p365'], []], // mags named after the pistol they fit: an accessory, not the pistol
    ['[WTS] Trijicon RMR', ['trij*'], ['Trijicon']],
    ['[WTS] Aimpoint T2', ['"red dot"'], ['T2']], // a category term marks the product that belongs to it
    ['[WTS] Aimpoint T2', ['"blue dot"'], []],
  ])('%j with %j marks %j', (title, terms, expected) => expect(marked(title, terms)).toEqual(expected))
})

describe('dashboard redirects', () => {
  const now = new Date()
  const state = (role: string) => ({ role: role as never, subscriptionStatus: 'active', accessExpiresAt: null })
  test.each([
    ['product+gd', '/dashboard/gafs/wts'],
    ['gd', '/dashboard/gundeals'],
    ['trial_expired', { error: 'No accessible content found for your account.' }],
  ])('%s goes to %j', (role, expected) => expect(dashboardRedirect(state(role), now, 'gafs')).toEqual(expected as never))
  test('a deals page without deals access goes to WTS when possible', () => {
    expect(forumPageGate(state('product'), 'gd', now, 'gafs')).toEqual({ kind: 'redirect', to: '/dashboard/gafs/wts' })
  })
})
