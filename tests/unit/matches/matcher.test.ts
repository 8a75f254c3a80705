import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openDb, type OpenedDb } from '../../../src/db/client'
import { MatchingService } from '../../../src/matches/matcher'
import { preparePost } from '../../../src/matching/compile'
import { tempDir } from '../../helpers'

// The service loads the term index straight from search_terms (a lean read, equal texts shared):
// each saved term must still come back as its own user's term, with its own created time.

let dir: string
let opened: OpenedDb
const now = Date.now()
const post = (title: string) => preparePost({ title })

function saveTerm(sqlite: Database, userId: number, category: string, term: string, createdAt = now - 60_000): number {
  return sqlite
    .query<{ id: number }, [number, string, string, number]>('INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, ?, ?, ?) RETURNING id')
    .get(userId, category, term, createdAt)!.id
}

beforeEach(() => {
  dir = tempDir()
  opened = openDb(join(dir, 'dibs.db'))
  for (let u = 1; u <= 4; u++) opened.sqlite.run('INSERT INTO users (id, email) VALUES (?, ?)', [u, `u${u}@example.com`])
})
afterEach(() => {
  opened.close()
  rmSync(dir, { recursive: true, force: true })
})

const load = () => new MatchingService({ sqlite: opened.sqlite, db: opened.db, now: () => new Date(now) })
const byUser = (refs: { userId: number; termId: number }[]) => refs.map((r) => [r.userId, r.termId]).sort((a, b) => a[0]! - b[0]!)

describe('MatchingService: loading the saved terms', () => {
  test('users who saved the same text each match with their own term and its created time', () => {
    const a = saveTerm(opened.sqlite, 1, 'wts', 'trijicon rmr', now - 3_000)
    const b = saveTerm(opened.sqlite, 2, 'wts', 'trijicon rmr', now - 2_000)
    const c = saveTerm(opened.sqlite, 3, 'wtb', 'trijicon rmr', now - 1_000)
    const d = saveTerm(opened.sqlite, 3, 'wts', 'rmr | sro')
    const bad = saveTerm(opened.sqlite, 4, 'wts', '"red dot') // saved by an older version: never matched
    const matcher = load()
    expect(matcher.size).toBe(4)
    expect(byUser(matcher.match(post('[WTS] Trijicon RMR'), 'wts'))).toEqual([
      [1, a],
      [2, b],
      [3, d],
    ])
    expect(byUser(matcher.match(post('[WTB] Trijicon RMR'), 'wtb'))).toEqual([[3, c]])
    expect([a, b, c].map((id) => matcher.termCreatedAt(id))).toEqual([now - 3_000, now - 2_000, now - 1_000])
    expect(matcher.termCreatedAt(bad)).toBe(0)
  })

  test("removing one user's term leaves the identical term of another user", () => {
    const a = saveTerm(opened.sqlite, 1, 'wts', 'holosun 507c')
    const b = saveTerm(opened.sqlite, 2, 'wts', 'holosun 507c')
    const matcher = load()
    matcher.remove(a)
    expect(byUser(matcher.match(post('Holosun 507c'), 'wts'))).toEqual([[2, b]])
    expect(matcher.termCreatedAt(a)).toBe(0)
  })

  test('a term added after the load matches, whether its text is already known or new', () => {
    saveTerm(opened.sqlite, 1, 'wts', 'p365')
    const matcher = load()
    const known = saveTerm(opened.sqlite, 2, 'wts', 'p365', now - 5_000)
    const fresh = saveTerm(opened.sqlite, 2, 'wts', 'p365 <$500', now - 4_000)
    for (const id of [known, fresh]) {
      const row = opened.sqlite.query<{ term: string; created_at: number }, [number]>('SELECT term, created_at FROM search_terms WHERE id = ?').get(id)!
      matcher.add({ id, userId: 2, category: 'wts', term: row.term, createdAt: new Date(row.created_at) })
    }
    expect(
      matcher
        .match(post('Sig P365 $450'), 'wts')
        .filter((r) => r.userId === 2)
        .map((r) => r.termId),
    ).toEqual([known, fresh])
    expect(matcher.termCreatedAt(fresh)).toBe(now - 4_000)
  })

  test("sync picks up another connection's new and deleted terms", async () => {
    const a = saveTerm(opened.sqlite, 1, 'gd', 'aimpoint t2')
    const b = saveTerm(opened.sqlite, 2, 'gd', 'aimpoint t2')
    const matcher = load()
    const other = new Database(join(dir, 'dibs.db'))
    const c = saveTerm(other, 3, 'gd', 'aimpoint t2')
    other.run('DELETE FROM search_terms WHERE id = ?', [a])
    other.close()
    await matcher.sync()
    expect(matcher.size).toBe(2)
    expect(byUser(matcher.match(post('Aimpoint T2'), 'gd'))).toEqual([
      [2, b],
      [3, c],
    ])
  })
})
