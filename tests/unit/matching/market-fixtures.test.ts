// The real posts of other marketplaces (tests/fixtures/markets/) are well-formed: every market has its source and
// its labels file, post ids are unique, every label names an existing post and term, every term parses. Not a
// quality threshold: the figures belong to bench/market-quality.ts.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseTerm } from '../../../src/matching/parse'
import { loadMarkets, marketFiles, MARKETS_DIR } from '../../quality/markets'
import { TERM_KINDS } from '../../quality/types'

const files = marketFiles()

test('at least six markets, each with a labels file', () => {
  expect(files.length).toBeGreaterThanOrEqual(6)
  for (const f of files) expect(existsSync(join(MARKETS_DIR, `${f.name}.labels.json`))).toBe(true)
})

describe.each(files)('$name', ({ posts, labels }) => {
  const ids = posts.posts.map((p) => p.id)
  const termIds = labels.terms.map((t) => t.id)

  test('names its sources: repository, path and commit', () => {
    for (const source of [posts.source, ...(posts.also ?? [])]) {
      expect(source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/)
      expect(source.path.length).toBeGreaterThan(0)
      expect(source.commit).toMatch(/^[0-9a-f]{40}$/)
    }
    for (const id of (posts.also ?? []).flatMap((s) => s.ids)) expect(ids).toContain(id)
    expect(labels.market).toBe(posts.market)
  })

  test('posts have unique ids and a title', () => {
    expect(new Set(ids).size).toBe(ids.length)
    for (const p of posts.posts) expect(p.title.trim().length).toBeGreaterThan(0)
  })

  test('every label names an existing post and term, of the same category', () => {
    expect(new Set(termIds).size).toBe(termIds.length)
    const wtb = new Set(labels.wtb)
    for (const id of labels.wtb) expect(ids).toContain(id)
    for (const t of labels.terms) {
      expect(['wts', 'wtb']).toContain(t.category)
      expect(TERM_KINDS).toContain(t.kind)
      expect(new Set(t.want).size).toBe(t.want.length)
      for (const id of t.want) {
        expect(ids).toContain(id)
        expect(wtb.has(id) ? 'wtb' : 'wts').toBe(t.category)
      }
    }
  })

  test('every term is one the parser accepts', () => {
    for (const t of labels.terms) expect(parseTerm(t.text).ok).toBe(true)
  })
})

test("the loader turns labels into each post's wanted terms", () => {
  const m = loadMarkets().find((x) => x.file === 'canadianhardwareswap')!
  expect(m.posts.find((p) => p.id === '1rc7jxh')).toMatchObject({ category: 'wtb', flair: 'Buying', want: ['chsb:gpu'] })
  expect(m.posts.find((p) => p.id === '1rbxba7')!.want).toEqual([])
})
