// The quality corpus (tests/quality/) is well-formed: unique ids, labels that name known terms of the
// post's own category, valid categories and kinds, enough posts. It checks the tables, not any score.
import { describe, expect, test } from 'bun:test'
import { CATEGORIES } from '../../../src/access/categories'
import { POSTS, TERMS } from '../../quality/corpus'
import { REAL_SETS } from '../../quality/real/sets'
import { TERM_KINDS, type QualityPost, type QualityTerm } from '../../quality/types'

function checkTable(posts: QualityPost[], terms: QualityTerm[]) {
  const termIds = terms.map((t) => t.id)
  expect(new Set(termIds).size).toBe(termIds.length)
  for (const t of terms) {
    expect(CATEGORIES).toContain(t.category)
    expect(TERM_KINDS).toContain(t.kind)
    expect(t.text.trim().length).toBeGreaterThan(0)
  }
  const byId = new Map(terms.map((t) => [t.id, t]))
  const postIds = posts.map((p) => p.id)
  expect(new Set(postIds).size).toBe(postIds.length)
  for (const p of posts) {
    expect(CATEGORIES).toContain(p.category)
    expect(p.title.trim().length).toBeGreaterThan(0)
    expect(new Set(p.want).size).toBe(p.want.length)
    for (const w of p.want) {
      const term = byId.get(w)
      if (!term) throw new Error(`${p.id}: label ${w} names no term`)
      if (term.category !== p.category) throw new Error(`${p.id}: label ${w} is a ${term.category} term on a ${p.category} post`)
    }
  }
}

describe('quality corpus', () => {
  test('the forum-style corpus is well-formed and large enough', () => {
    checkTable(POSTS, TERMS)
    expect(POSTS.length).toBeGreaterThanOrEqual(400)
    expect(TERMS.length).toBeGreaterThanOrEqual(150)
    for (const c of CATEGORIES) expect(POSTS.some((p) => p.category === c)).toBe(true)
    // Every term kind is represented, and every term is wanted by at least one post (else its recall is undefined).
    for (const k of TERM_KINDS) expect(TERMS.some((t) => t.kind === k)).toBe(true)
    const wanted = new Set(POSTS.flatMap((p) => p.want))
    expect(TERMS.filter((t) => !wanted.has(t.id)).map((t) => t.id)).toEqual([])
  })

  test('each real set is well-formed and names its source', () => {
    expect(REAL_SETS.length).toBeGreaterThan(0)
    const ids = new Set<string>()
    for (const s of REAL_SETS) {
      expect(s.source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/)
      expect(s.source.commit).toMatch(/^[0-9a-f]{40}$/)
      checkTable(s.posts, s.terms)
      for (const p of s.posts) {
        expect(ids.has(p.id)).toBe(false)
        ids.add(p.id)
      }
    }
  })
})
