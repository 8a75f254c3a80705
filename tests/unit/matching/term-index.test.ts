import { describe, expect, test } from 'bun:test'
import { preparePost } from '../../../src/matching/compile'
import type { Category } from '../../../src/access/categories'
import { TermIndex, type TermRef } from '../../../src/matching/term-index'

let nextId = 1
function ref(text: string, category: Category = 'wts', userId = 1): TermRef {
  return { termId: nextId++, userId, category, text }
}
const post = (title: string, content = '') => preparePost({ title, content })
const ids = (refs: TermRef[]) => refs.map((r) => r.termId).sort((a, b) => a - b)

describe('TermIndex', () => {
  test('add rejects a malformed term with the parser message and stores nothing', () => {
    const idx = new TermIndex()
    expect(idx.add(ref('"red dot'))).toEqual({ ok: false, error: 'Unbalanced quote: add the closing "' })
    expect(idx.size).toBe(0)
  })

  test('finds every matching term, and only those', () => {
    const idx = new TermIndex()
    const a = ref('trijicon rmr')
    const b = ref('rmr <$500')
    const c = ref('holosun')
    const d = ref('trij*')
    const e = ref('p365')
    for (const r of [a, b, c, d, e]) expect(idx.add(r)).toEqual({ ok: true })
    expect(ids(idx.match(post('[WTS] Trijicon RMR RM06 - $450 shipped'), 'wts'))).toEqual(ids([a, b, d]))
    expect(ids(idx.match(post('[WTS] Sig P-365 XL'), 'wts'))).toEqual([e.termId])
  })

  test('a removed term no longer matches, the others still do', () => {
    const idx = new TermIndex()
    const a = ref('rmr')
    const b = ref('rmr', 'wts', 2) // same words, another user: they share one group
    const c = ref('trij*')
    for (const r of [a, b, c]) idx.add(r)
    idx.remove(a.termId)
    expect(idx.size).toBe(2)
    expect(ids(idx.match(post('Trijicon RMR'), 'wts'))).toEqual(ids([b, c]))
    idx.remove(c.termId)
    expect(ids(idx.match(post('Trijicon RMR'), 'wts'))).toEqual([b.termId])
    idx.remove(b.termId)
    expect(idx.match(post('Trijicon RMR'), 'wts')).toEqual([])
    idx.remove(12345) // unknown id is a no-op
  })

  test('removing from the middle of a shared group keeps the rest intact', () => {
    const idx = new TermIndex()
    const refs = Array.from({ length: 50 }, (_, i) => ref('glock 19', 'wts', i))
    for (const r of refs) idx.add(r)
    for (let i = 0; i < 50; i += 3) idx.remove(refs[i]!.termId)
    const want = refs.filter((_, i) => i % 3 !== 0)
    expect(ids(idx.match(post('Glock 19 gen5'), 'wts'))).toEqual(ids(want))
    expect(idx.groupCount).toBe(1)
  })

  test('re-adding a term id replaces the old text', () => {
    const idx = new TermIndex()
    const a = ref('rmr')
    idx.add(a)
    idx.add({ ...a, text: 'holosun' })
    expect(idx.size).toBe(1)
    expect(idx.match(post('RMR'), 'wts')).toEqual([])
    expect(ids(idx.match(post('Holosun'), 'wts'))).toEqual([a.termId])
  })

  test('categories are isolated: a wtb term never sees a wts post', () => {
    const idx = new TermIndex()
    const wts = ref('rmr', 'wts')
    const wtb = ref('rmr', 'wtb')
    const gd = ref('rmr', 'gd')
    for (const r of [wts, wtb, gd]) idx.add(r)
    expect(ids(idx.match(post('RMR'), 'wts'))).toEqual([wts.termId])
    expect(ids(idx.match(post('RMR'), 'wtb'))).toEqual([wtb.termId])
    expect(ids(idx.match(post('RMR'), 'gd'))).toEqual([gd.termId])
  })

  test('a term whose several alternatives match is returned once', () => {
    const idx = new TermIndex()
    const a = ref('rmr | trijicon | trij* | rmr')
    idx.add(a)
    expect(ids(idx.match(post('Trijicon RMR'), 'wts'))).toEqual([a.termId])
  })

  test('short prefixes (1–2 characters) are found', () => {
    const idx = new TermIndex()
    const a = ref('x*')
    const b = ref('rm*')
    const c = ref('9*')
    for (const r of [a, b, c]) idx.add(r)
    expect(ids(idx.match(post('XPS2 RMR'), 'wts'))).toEqual(ids([a, b]))
    expect(ids(idx.match(post('9mm'), 'wts'))).toEqual([c.termId])
  })

  test('exclusions are verified by the index', () => {
    const idx = new TermIndex()
    const a = ref('glock -airsoft')
    idx.add(a)
    expect(idx.match(post('Glock airsoft'), 'wts')).toEqual([])
    expect(ids(idx.match(post('Glock 17'), 'wts'))).toEqual([a.termId])
  })

  test('observed rarity changes the key but never the result', () => {
    const plain = new TermIndex()
    const fed = new TermIndex()
    for (let i = 0; i < 20; i++) fed.observe(post(`Glock ${i} for sale, glock mags`))
    const a = ref('glock 19 gen5')
    plain.add(a)
    fed.add(a)
    const p = post('Glock 19 Gen5 like new')
    expect(ids(fed.match(p, 'wts'))).toEqual([a.termId])
    expect(ids(plain.match(p, 'wts'))).toEqual([a.termId])
  })

  test('clear empties the index', () => {
    const idx = new TermIndex()
    idx.add(ref('rmr'))
    idx.clear()
    expect(idx.size).toBe(0)
    expect(idx.match(post('RMR'), 'wts')).toEqual([])
  })

  test('the index agrees with matchesPost on a mixed set of terms and posts', async () => {
    const { compileTerm, matchesPost } = await import('../../../src/matching/compile')
    const { parseTerm } = await import('../../../src/matching/parse')
    const texts = ['rmr', 'trij*', '"red dot" -airsoft', 'p365* <$600', 'glock 19 | glock 17', 'mag* -pmag', '9mm >=$200', 'x*', 'h*']
    const titles = ['Trijicon RMR $450', 'Red dot airsoft', 'Sig P365XL $550', 'Glock 17 mags', 'PMAG 30 mags', '9mm 1000rds $300', 'Holosun red dot $200']
    const idx = new TermIndex()
    const refs = texts.map((t) => ref(t))
    refs.forEach((r) => idx.add(r))
    for (const title of titles) {
      const p = post(title)
      const naive = refs.filter((r) => {
        const q = parseTerm(r.text)
        return q.ok && matchesPost(compileTerm(q.query), p)
      })
      expect(ids(idx.match(p, 'wts'))).toEqual(ids(naive))
    }
  })
})
