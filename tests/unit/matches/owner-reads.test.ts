import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openDb, type OpenedDb } from '../../../src/db/client'
import { authorsToLookUp } from '../../../src/forums/authors'
import { duePosts, RECHECK_AT_MS } from '../../../src/forums/recheck'
import { withPostFacts, type MatchRow } from '../../../src/matches/service'
import { mostSavedTerms } from '../../../src/terms/stats'
import { activeTermsByText, activeTermsByTextSqliteAtStart, type IndexedTermRow } from '../../../src/terms/store'
import { tempDir } from '../../helpers'

// The reads that once joined two owners' tables in one query (issue 29 §1): each owner reads its own
// table and the caller orders or joins the answers. The order and the joined fields must be as before.

let dir: string
let opened: OpenedDb
const now = 1_800_000_000_000

beforeEach(() => {
  dir = tempDir()
  opened = openDb(join(dir, 'dibs.db'))
  for (let u = 1; u <= 3; u++) opened.sqlite.run('INSERT INTO users (id, email) VALUES (?, ?)', [u, `u${u}@example.com`])
})
afterEach(() => {
  opened.close()
  rmSync(dir, { recursive: true, force: true })
})

let seq = 0
function post(p: { createdAt: number; ingestedAt?: number; author?: string; sourceId?: number | null; url?: string }): number {
  seq++
  return opened.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO posts (reddit_id, forum, subreddit, title, url, author, post_type, created_at, ingested_at, source_id, source_name, price, location, link_url)
       VALUES (?, 'product', 'gafs', ?, ?, ?, 'wts', ?, ?, ?, 'GAFS', 450, 'USA-TX', 'https://example.com/item') RETURNING id`,
    )
    .get(
      `t3_${seq}`,
      `[WTS] item ${seq}`,
      p.url ?? `https://www.reddit.com/r/gafs/comments/${seq}/`,
      p.author ?? `seller${seq}`,
      p.createdAt,
      p.ingestedAt ?? p.createdAt,
      p.sourceId ?? null,
    )!.id
}
function match(userId: number, postId: number | null, createdAt = now, author = 'seller'): number {
  return opened.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO matches (user_id, post_id, category, matched_terms, post_title, post_url, post_author, created_at) VALUES (?, ?, 'wts', '["item"]', 'item', 'https://x', ?, ?) RETURNING id`,
    )
    .get(userId, postId, author, createdAt)!.id
}

describe('duePosts: posts with matches first, then the newest, then the most matched', () => {
  test('the order, the exclusions and the limit', async () => {
    const stored = now - RECHECK_AT_MS[0] - 1000 // past the first checkpoint
    const older = post({ createdAt: now - 50_000, ingestedAt: stored })
    const newest = post({ createdAt: now - 10_000, ingestedAt: stored })
    const matchedOld = post({ createdAt: now - 90_000, ingestedAt: stored })
    const matchedTwice = post({ createdAt: now - 90_000, ingestedAt: stored })
    post({ createdAt: now - 5_000, ingestedAt: now }) // not due yet
    match(1, matchedOld)
    match(1, matchedTwice)
    match(2, matchedTwice)
    const ids = async (limit: number, exclude?: Set<number>) => (await duePosts(opened, now, limit, exclude)).map((p) => p.id)
    expect(await ids(10)).toEqual([matchedTwice, matchedOld, newest, older])
    expect((await duePosts(opened, now, 1))[0]).toEqual({
      id: matchedTwice,
      redditId: expect.any(String),
      ingestedAt: stored,
      recheckCount: 0,
      matchCount: 2,
    })
    expect(await ids(2, new Set([matchedTwice]))).toEqual([matchedOld, newest])
  })

  test('matches older than the re-check window do not count', async () => {
    const stored = now - RECHECK_AT_MS[0] - 1000
    const a = post({ createdAt: now - 10_000, ingestedAt: stored })
    const b = post({ createdAt: now - 20_000, ingestedAt: stored })
    match(1, b, now - 30 * 86_400_000)
    expect((await duePosts(opened, now, 10)).map((p) => [p.id, p.matchCount])).toEqual([
      [a, 0],
      [b, 0],
    ])
  })
})

describe('authorsToLookUp: authors of matched posts first, then the newest', () => {
  test('a matched author stored earlier comes before a newer one', async () => {
    post({ createdAt: now - 60_000, ingestedAt: now - 60_000, author: 'Early' })
    const matched = post({ createdAt: now - 120_000, ingestedAt: now - 120_000, author: 'Matched' })
    post({ createdAt: now - 1_000, ingestedAt: now - 1_000, author: 'Late' })
    post({ createdAt: now - 1_000, ingestedAt: now - 1_000, author: 'feedauthor', url: 'https://example.com/feed/1' }) // not Reddit
    expect(await authorsToLookUp(opened, now, 5)).toEqual(['late', 'early', 'matched'])
    match(1, matched)
    expect(await authorsToLookUp(opened, now, 5)).toEqual(['matched', 'late', 'early'])
    expect(await authorsToLookUp(opened, now, 1)).toEqual(['matched'])
  })
})

describe('withPostFacts: the post, its source and its author joined onto match rows', () => {
  test('fields of a stored post, its source kind and a found author (any case); nulls for what is gone', async () => {
    const source = opened.sqlite.query<{ id: number }, []>("INSERT INTO sources (forum, kind, name) VALUES ('accessories', 'feed', 'GAFS') RETURNING id").get()!
      .id
    const p = post({ createdAt: now, author: 'Seller', sourceId: source })
    opened.sqlite.run("INSERT INTO reddit_authors (name, status, account_created_at, karma, fetched_at) VALUES ('seller', 'found', 1000, 42, ?)", [now])
    opened.sqlite.run("INSERT INTO reddit_authors (name, status, fetched_at) VALUES ('gone', 'missing', ?)", [now])
    const rows = (ids: number[]) => ids.map((id) => opened.sqlite.query<MatchRow, [number]>('SELECT * FROM matches WHERE id = ?').get(id)!)
    const [full, orphan, missing] = await withPostFacts(opened, rows([match(1, p, now, 'SELLER'), match(2, null, now, 'nobody'), match(3, p, now, 'gone')]))
    expect(full).toMatchObject({
      link_url: 'https://example.com/item',
      post_state: 'open',
      post_location: 'USA-TX',
      post_source: 'GAFS',
      post_source_kind: 'feed',
      post_price: 450,
      post_author_flair: null,
      author_created_at: 1000,
      author_karma: 42,
    })
    const none = {
      link_url: null,
      post_state: null,
      post_location: null,
      post_source: null,
      post_source_kind: null,
      post_price: null,
      author_created_at: null,
      author_karma: null,
    }
    expect(orphan).toMatchObject(none)
    expect(missing).toMatchObject({ post_source_kind: 'feed', author_created_at: null, author_karma: null })
  })
})

describe('mostSavedTerms: saves, then matches, then the text', () => {
  test('equal saves are ordered by their matches since the cut-off, then by text', async () => {
    const term = (userId: number, text: string) =>
      opened.sqlite
        .query<{ id: number }, [number, string]>("INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, 'wts', ?, 0) RETURNING id")
        .get(userId, text)!.id
    const link = (matchId: number, termId: number) => opened.sqlite.run('INSERT INTO match_terms (match_id, term_id) VALUES (?, ?)', [matchId, termId])
    const a = term(1, 'aimpoint')
    term(1, 'bushnell')
    const c = term(1, 'crimson')
    const c2 = term(2, 'crimson')
    const z = term(1, 'zeiss')
    const p = post({ createdAt: now })
    link(match(1, p, now), z)
    link(match(1, null, now - 10_000), a) // before the cut-off
    link(match(2, p, now), c2)
    link(match(1, null, now), c)
    expect((await mostSavedTerms(opened, 10, now - 1000)).map((t) => [t.term, t.saves, t.matches])).toEqual([
      ['crimson', 2, 2],
      ['zeiss', 1, 1],
      ['aimpoint', 1, 0],
      ['bushnell', 1, 0],
    ])
  })
})

describe('activeTermsByText: the engine-neutral load of the term index', () => {
  test('every term not paused, by text then id, across pages; the same rows as the start-up form', async () => {
    const texts = Array.from({ length: 5_002 }, (_, i) => `term ${String(5_002 - i).padStart(5, '0')}`)
    const insert = opened.sqlite.prepare("INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, 'wts', ?, ?)")
    opened.sqlite.transaction(() => {
      for (const t of texts) insert.run(1, t, now)
      insert.run(2, 'term 00001', now) // a text of two users: a run of one text
    })()
    opened.sqlite.run("UPDATE search_terms SET paused_at = ? WHERE term = 'term 00002'", [now])
    const read: IndexedTermRow[] = []
    for await (const r of activeTermsByText(opened)) read.push(r)
    expect(read).toHaveLength(5_002)
    expect(read.slice(0, 3).map((r) => [r.user_id, r.term])).toEqual([
      [1, 'term 00001'],
      [2, 'term 00001'],
      [1, 'term 00003'],
    ])
    expect(read).toEqual([...activeTermsByTextSqliteAtStart(opened.sqlite)].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : a.id - b.id)))
  })
})
