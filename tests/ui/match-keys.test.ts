// The match list's keys and filter (ui/lib/match-keys.ts): keys only when not typing, not with a
// modifier, not over a dialog; the filter wants every word in the title, a term or the author.
import { describe, expect, test } from 'bun:test'
import { filterMatches, matchKeyAction } from '../../ui/lib/match-keys'
import type { Match } from '../../ui/lib/matches'

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
})

describe('matchKeyAction', () => {
  test.each([
    ['j', 'next'],
    ['k', 'prev'],
    ['o', 'open'],
    ['m', 'toggleRead'],
    ['e', 'archive'],
    ['?', 'help'],
    ['x', null],
    ['J', null],
  ])('%p on the page → %p', (k, action) => expect(matchKeyAction(key(k), { tagName: 'A' }, false)).toBe(action as never))

  test.each([
    ['an input', { tagName: 'INPUT' }],
    ['a textarea', { tagName: 'textarea' }],
    ['a select', { tagName: 'SELECT' }],
    ['editable text', { tagName: 'DIV', isContentEditable: true }],
  ])('nothing while typing in %s', (_, target) => expect(matchKeyAction(key('j'), target, false)).toBeNull())

  test('nothing with a modifier or over an open dialog', () => {
    expect(matchKeyAction(key('e', { ctrlKey: true }), null, false)).toBeNull()
    expect(matchKeyAction(key('o', { metaKey: true }), null, false)).toBeNull()
    expect(matchKeyAction(key('j'), null, true)).toBeNull()
  })
})

describe('filterMatches', () => {
  const list: Match[] = [
    { id: 1, title: '[WTS] Holosun 507c', url: 'u1', createdAt: '', isNew: true, category: 'wts', author: 'alice', matchedTerms: ['holosun'] },
    { id: 2, title: '[WTS] Aimpoint T-2', url: 'u2', createdAt: '', isNew: false, category: 'wts', author: 'bob', matchedTerms: ['micro t2'] },
  ]
  test.each([
    ['', [1, 2]],
    ['holosun', [1]],
    ['BOB', [2]],
    ['micro', [2]],
    ['wts alice', [1]],
    ['wts carol', []],
  ])('%p → %p', (q, ids) => expect(filterMatches(list, q).map((m) => m.id)).toEqual(ids))
})
