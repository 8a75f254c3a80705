import { expect, test } from 'bun:test'
import { makePost, makeTerm, rng } from '../../../bench/vocabulary'
import { compileTerm, matchesPost, preparePost, type CompiledTerm } from '../../../src/matching/compile'
import { parseTerm } from '../../../src/matching/parse'
import type { Category } from '../../../src/access/categories'
import { TermIndex, type TermRef } from '../../../src/matching/term-index'

test('after random adds and removes, the index returns exactly what matchesPost accepts', () => {
  const r = rng(7)
  const idx = new TermIndex()
  const sample = rng(8)
  for (let i = 0; i < 200; i++) idx.observe(preparePost(makePost(sample)))
  const live = new Map<number, { ref: TermRef; term: CompiledTerm }>()
  const cats: Category[] = ['wts', 'wtb', 'gd']
  const extra = ['trij* | holo*', 'x*', 'rmr -"type 2"', 'glock 19 | glock 17 | glock', 'p365* >$400 <=$700', '9mm >=$200']
  for (let id = 1; id <= 3000; id++) {
    const text = id % 10 === 0 ? extra[id % extra.length]! : makeTerm(r)
    const ref: TermRef = { termId: id, userId: id % 97, category: cats[id % 3]!, text }
    const parsed = parseTerm(text)
    expect(idx.add(ref).ok).toBe(parsed.ok)
    if (parsed.ok) live.set(id, { ref, term: compileTerm(parsed.query) })
    if (id % 4 === 0) {
      const victim = 1 + Math.floor(r() * id)
      idx.remove(victim)
      live.delete(victim)
    }
  }
  expect(idx.size).toBe(live.size)
  let total = 0
  for (let i = 0; i < 300; i++) {
    const p = makePost(r)
    const prepared = preparePost(p)
    const got = idx
      .match(prepared, p.category)
      .map((x) => x.termId)
      .sort((a, b) => a - b)
    const want = [...live.values()]
      .filter((x) => x.ref.category === p.category && matchesPost(x.term, prepared))
      .map((x) => x.ref.termId)
      .sort((a, b) => a - b)
    expect(got).toEqual(want)
    total += got.length
  }
  expect(total).toBeGreaterThan(300) // the data really exercises matching
})

test('a malformed replacement leaves the saved term untouched', () => {
  const idx = new TermIndex()
  idx.add({ termId: 1, userId: 1, category: 'wts', text: 'rmr' })
  expect(idx.add({ termId: 1, userId: 1, category: 'wts', text: 'rmr |' }).ok).toBe(false)
  expect(idx.match(preparePost({ title: 'RMR' }), 'wts').map((x) => x.termId)).toEqual([1])
})

test('many users sharing few texts: random adds, removes and re-adds agree with matchesPost', () => {
  const r = rng(11)
  const idx = new TermIndex()
  const texts = Array.from({ length: 40 }, () => makeTerm(r)).concat(['rmr | rmr', 'trij* | holo*', 'glock -airsoft | glock 19'])
  const cats: Category[] = ['wts', 'wtb', 'gd']
  const live = new Map<number, { ref: TermRef; term: CompiledTerm }>()
  const put = (ref: TermRef) => {
    const parsed = parseTerm(ref.text)
    expect(idx.add(ref).ok).toBe(parsed.ok)
    if (parsed.ok) live.set(ref.termId, { ref, term: compileTerm(parsed.query) })
  }
  for (let step = 0; step < 6000; step++) {
    const x = r()
    const id = 1 + Math.floor(r() * 1500)
    const text = texts[Math.floor(r() * texts.length)]!
    const category = cats[Math.floor(r() * 3)]!
    if (x < 0.6) put({ termId: id, userId: id % 300, category, text })
    else if (x < 0.7 && live.has(id))
      put({ ...live.get(id)!.ref }) // the same term again (its own text)
    else if (x < 0.75 && live.has(id))
      put({ ...live.get(id)!.ref, category }) // moved to another category
    else {
      idx.remove(id)
      live.delete(id)
    }
  }
  expect(idx.size).toBe(live.size)
  expect([...idx.ids()]).toEqual([...live.keys()].sort((a, b) => a - b))
  let total = 0
  for (let i = 0; i < 300; i++) {
    const p = makePost(r)
    const prepared = preparePost(p)
    const got = idx.match(prepared, p.category).map((x) => x.termId)
    expect(new Set(got).size).toBe(got.length) // each term once
    const want = [...live.values()].filter((x) => x.ref.category === p.category && matchesPost(x.term, prepared)).map((x) => x.ref.termId)
    expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b))
    total += got.length
  }
  expect(total).toBeGreaterThan(300)
})
