import { expect, test } from 'bun:test'
import { makePost, makeTerm, rng } from '../../../bench/vocabulary'
import { compileTerm, matchesPost, preparePost, type CompiledTerm } from '../../../src/matching/compile'
import { parseTerm } from '../../../src/matching/parse'
import type { Category } from '../../../src/access/categories'
import { TermIndex, type TermRef } from '../../../src/matching/term-index'
import { explainTerm } from '../../../src/matching/explain'
import type { Price } from '../../../src/matching/post-model'
import { fixture, type Part } from './post-fixture'
import { MARK_EXTRA, MARK_REPLICA, MARK_SOLD } from '../../../src/matching/post-model'

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
      .filter((x) => x.ref.category === p.category && matchesPost(x.term, prepared, p.category))
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
    const want = [...live.values()].filter((x) => x.ref.category === p.category && matchesPost(x.term, prepared, p.category)).map((x) => x.ref.termId)
    expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b))
    total += got.length
  }
  expect(total).toBeGreaterThan(300)
})

// Listings with structure: random item segments, sides, accessory-for marks, prices of every role
// and unit, authors, flairs and trades (post-fixture.ts), against random terms of the whole
// language. The index, the reference and explain must agree on every pair.
const WORDS = [
  'rmr',
  'trijicon',
  't2',
  'aimpoint',
  'holosun',
  '507c',
  'glock',
  '19',
  'mount',
  'holster',
  'red',
  'dot',
  'lpvo',
  'vortex',
  '1-6',
  'airsoft',
  'sold',
  'gbb',
  'wtt',
  'g19',
  'pmag',
  '9mm',
]
const PARTS = [
  'Trijicon RMR',
  'Aimpoint T2',
  'Holosun 507C',
  'Glock 19',
  'holster for Glock 19',
  'RMR mount',
  'red dot',
  'Vortex Strike Eagle 1-6',
  'airsoft',
  'PMAG',
  '9mm ammo',
  'lpvo',
  'sold',
]
const pickR = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

/** Location tags as titles write them (title-grammar.ts), and none. */
const LOCATIONS = ['USA-TX', 'US-CA', 'TX', 'CA', 'CAN-ON', 'EU-DE', 'UK', 'San Juan, PR', 'AUS-NSW', 'Usa']
const LOC_TERMS = ['loc:tx', 'loc:us', 'loc:"us-ca"', 'loc:ca', 'loc:can', 'loc:on', 'loc:eu', 'loc:uk', 'loc:texas', 'loc:aus']

/** `locations`: a location tag in about two posts of three (so both a location and none meet every term). */
function randomListing(r: () => number, locations = false) {
  const n = 1 + Math.floor(r() * 5)
  const sidedPost = r() < 0.3
  const parts: Part[] = [{ text: pickR(r, ['[WTS]', '[WTB]', '[H]', 'WTT']) }]
  for (let i = 0; i < n; i++) {
    const prices: Price[] = []
    const k = Math.floor(r() * 3)
    for (let j = 0; j < k; j++)
      prices.push({
        amount: pickR(r, [0.25, 0.35, 12, 20, 80, 300, 450, 500, 900]),
        role: pickR(r, ['item', 'item', 'item', 'shipping', 'was'] as const),
        unit: pickR(r, ['total', 'total', 'each', 'round'] as const),
      })
    parts.push({
      text: pickR(r, PARTS),
      seg: r() < 0.2 ? 0 : 1 + Math.floor(r() * 4),
      side: sidedPost ? (r() < 0.5 ? 'have' : 'want') : undefined,
      fits: r() < 0.15,
      // replica, sold and extra marks (item-marks.ts); extras often, alone, so plain posts with extras occur
      mark: r() < 0.2 ? MARK_EXTRA : r() < 0.06 ? MARK_REPLICA : r() < 0.05 ? MARK_SOLD : 0,
      prices,
      body: r() < 0.25,
    })
  }
  const location = locations && r() < 0.66 ? pickR(r, LOCATIONS) : undefined
  return fixture(parts, {
    author: pickR(r, ['bob', 'alice', '']),
    flair: pickR(r, ['WTS', 'WTT', 'Trades: 12', '']),
    trades: pickR(r, [null, 0, 3, 12, 50]),
    ...(location ? { location } : {}),
  })
}

/** `locations`: `loc:` and `-loc:` in some alternatives, and `loc:` alone (keyed by its place) in some terms. */
function randomTerm(r: () => number, locations = false): string {
  const alt = () => {
    const parts: string[] = []
    const n = 1 + Math.floor(r() * 3)
    for (let i = 0; i < n; i++) {
      const x = r()
      const w = pickR(r, WORDS)
      parts.push(x < 0.55 ? w : x < 0.65 ? '~' + w : x < 0.72 ? 'title:' + w : x < 0.78 ? '"red dot"' : x < 0.82 ? w.slice(0, 2) + '*' : x < 0.86 ? 't2/h2' : w)
    }
    const y = r()
    if (y < 0.15) parts.push('-' + pickR(r, WORDS))
    else if (y < 0.22) parts.push('-~' + pickR(r, WORDS))
    else if (y < 0.3) parts.push(pickR(r, ['<$500', '>$100', '>=$300 <=$500', '<$0.30/rd', '<$15/ea', '<30cpr']))
    else if (y < 0.36) parts.push(pickR(r, ['author:bob', '-author:bob', 'flair:wts', '-flair:wts', 'trades>=10', 'trades<5']))
    else if (y < 0.4) parts.push('-title:' + pickR(r, WORDS))
    if (locations && r() < 0.5) parts.push((r() < 0.3 ? '-' : '') + pickR(r, LOC_TERMS))
    return parts.join(' ')
  }
  const z = r()
  if (z < 0.1) return `(${pickR(r, WORDS)} OR ${pickR(r, WORDS)}) ${alt()}`
  if (z < 0.12) return 'author:' + pickR(r, ['bob', 'alice'])
  if (locations && z < 0.18) return pickR(r, LOC_TERMS) + (r() < 0.3 ? ' ' + pickR(r, LOC_TERMS) : '')
  if (z < 0.3) return `${alt()} | ${alt()}`
  return alt()
}

function indexAgreesWithReference(seed: number, locations: boolean): void {
  const r = rng(seed)
  const idx = new TermIndex()
  for (let i = 0; i < 50; i++) idx.observe(randomListing(r, locations))
  const live: { ref: TermRef; term: CompiledTerm }[] = []
  const cats: Category[] = ['wts', 'wtb', 'gd']
  for (let id = 1; live.length < 1500; id++) {
    const text = randomTerm(r, locations)
    const parsed = parseTerm(text)
    const ref: TermRef = { termId: id, userId: id, category: cats[id % 3]!, text }
    expect(idx.add(ref).ok).toBe(parsed.ok)
    if (parsed.ok) live.push({ ref, term: compileTerm(parsed.query) })
    // removals swap groups inside their buckets (a category group sits in two)
    if (id % 5 === 0 && live.length > 0) {
      const k = Math.floor(r() * live.length)
      idx.remove(live[k]!.ref.termId)
      live.splice(k, 1)
    }
  }
  expect(idx.size).toBe(live.length)
  let total = 0
  let explained = 0
  for (let i = 0; i < 400; i++) {
    const post = randomListing(r, locations)
    const category = cats[i % 3]!
    const got = idx
      .match(post, category)
      .map((x) => x.termId)
      .sort((a, b) => a - b)
    const want: number[] = []
    for (const x of live) {
      if (x.ref.category !== category) continue
      const m = matchesPost(x.term, post, category)
      if (m) want.push(x.ref.termId)
      if (explained++ % 7 === 0) expect(explainTerm(x.term, post, category).matched).toBe(m)
    }
    expect(got).toEqual(want)
    total += got.length
  }
  expect(total).toBeGreaterThan(400)
}

test('listings with items, sides, accessory marks, prices and fields: index ≡ reference ≡ explain', () => indexAgreesWithReference(99, false))

test('the same with location tags and loc: / -loc: terms (issue 25 §5): index ≡ reference ≡ explain', () => indexAgreesWithReference(25, true))
