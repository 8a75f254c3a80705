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
        return q.ok && matchesPost(compileTerm(q.query), p, 'wts')
      })
      expect(ids(idx.match(p, 'wts'))).toEqual(ids(naive))
    }
  })
})

describe('TermIndex: one compiled text shared by many terms', () => {
  test('users who saved the same text each get their own ref back', () => {
    const idx = new TermIndex()
    const a = ref('trijicon rmr', 'wts', 1)
    const b = ref('trijicon rmr', 'wts', 2)
    const c = ref('rmr trijicon', 'wts', 3) // another text, same alternative: same group
    for (const r of [a, b, c]) idx.add(r)
    const found = idx.match(post('Trijicon RMR RM06'), 'wts')
    expect(found.map((r) => [r.termId, r.userId]).sort((x, y) => x[0]! - y[0]!)).toEqual([
      [a.termId, 1],
      [b.termId, 2],
      [c.termId, 3],
    ])
    expect(found.find((r) => r.termId === b.termId)).toBe(b) // the very ref that was added
    expect(idx.groupCount).toBe(1)
  })

  test("removing one user's term leaves another user's identical term matching", () => {
    const idx = new TermIndex()
    const a = ref('glock 19 | glock 17', 'wts', 1)
    const b = ref('glock 19 | glock 17', 'wts', 2)
    const c = ref('rmr -airsoft', 'wts', 1)
    const d = ref('rmr -airsoft', 'wts', 2)
    for (const r of [a, b, c, d]) idx.add(r)
    idx.remove(a.termId)
    idx.remove(d.termId)
    expect(ids(idx.match(post('Glock 19 and Glock 17'), 'wts'))).toEqual([b.termId]) // once, though both alternatives match
    expect(ids(idx.match(post('RMR'), 'wts'))).toEqual([c.termId])
    expect(idx.match(post('RMR airsoft'), 'wts')).toEqual([])
  })

  test('a text removed from every user, then saved again, is parsed and filed again', () => {
    const idx = new TermIndex()
    const a = ref('holo* <$300', 'wts', 1)
    idx.add(a)
    idx.remove(a.termId)
    expect(idx.groupCount).toBe(0)
    const b = ref('holo* <$300', 'wts', 2)
    idx.add(b)
    expect(ids(idx.match(post('Holosun 507c $250'), 'wts'))).toEqual([b.termId])
    expect(idx.match(post('Holosun 507c $350'), 'wts')).toEqual([])
  })

  test('re-adding a term id with its own text (the last one with that text) keeps it matching', () => {
    const idx = new TermIndex()
    const a = ref('rmr | sro')
    idx.add(a)
    const b = ref('aimpoint')
    idx.add(b)
    expect(idx.add({ ...a })).toEqual({ ok: true })
    expect(idx.add({ ...b })).toEqual({ ok: true })
    expect(idx.size).toBe(2)
    expect(ids(idx.match(post('Trijicon SRO'), 'wts'))).toEqual([a.termId])
    expect(ids(idx.match(post('Aimpoint T2'), 'wts'))).toEqual([b.termId])
  })

  test('the same text in two categories: removing it from one leaves the other', () => {
    const idx = new TermIndex()
    const wts = ref('"red dot" <$200', 'wts', 1)
    const gd = ref('"red dot" <$200', 'gd', 1)
    idx.add(wts)
    idx.add(gd)
    idx.remove(wts.termId)
    expect(idx.match(post('Red dot $150'), 'wts')).toEqual([])
    expect(ids(idx.match(post('Red dot $150'), 'gd'))).toEqual([gd.termId])
    const again = ref('"red dot" <$200', 'wtb', 2) // known in gd: compiled once, filed in wtb
    idx.add(again)
    expect(ids(idx.match(post('Red dot $150'), 'wtb'))).toEqual([again.termId])
  })

  test('a term moved to another category by re-adding its id leaves the old category', () => {
    const idx = new TermIndex()
    const a = ref('rmr', 'wts')
    idx.add(a)
    idx.add({ ...a, category: 'gd' })
    expect(idx.match(post('RMR'), 'wts')).toEqual([])
    expect(ids(idx.match(post('RMR'), 'gd'))).toEqual([a.termId])
  })

  test('terms added after a build of many shared texts match like the rest', () => {
    const idx = new TermIndex()
    for (let u = 1; u <= 200; u++) idx.add(ref(u % 2 ? 'p365' : 'p365 | p320', 'wts', u))
    const late = ref('p365', 'wts', 999)
    const fresh = ref('sig p320 -x', 'wts', 999)
    idx.add(late)
    idx.add(fresh)
    const found = idx.match(post('Sig P365 and P320'), 'wts')
    expect(found).toHaveLength(202)
    expect(ids(found)).toContain(late.termId)
    expect(ids(found)).toContain(fresh.termId)
  })

  test('get and ids read a term back by id', () => {
    const idx = new TermIndex()
    const a = ref('rmr')
    const b = ref('rmr | sro')
    idx.add(a)
    idx.add(b)
    expect(idx.get(a.termId)).toBe(a)
    expect(idx.get(b.termId)).toBe(b)
    expect(idx.get(987654)).toBeUndefined()
    expect([...idx.ids()]).toEqual([a.termId, b.termId])
    idx.remove(a.termId)
    expect(idx.get(a.termId)).toBeUndefined()
    expect([...idx.ids()]).toEqual([b.termId])
  })

  test('ids may come in any order (a load sorted by text), far apart', () => {
    const idx = new TermIndex()
    const order = [500_000, 3, 250_000, 0, 499_999, 7]
    for (const termId of order) idx.add({ termId, userId: termId, category: 'wts', text: termId % 2 ? 'rmr' : 'sro' })
    expect([...idx.ids()]).toEqual([...order].sort((a, b) => a - b))
    expect(ids(idx.match(post('RMR'), 'wts'))).toEqual([3, 7, 499_999])
    idx.remove(3)
    idx.remove(500_000)
    expect(idx.get(7)?.userId).toBe(7)
    expect(ids(idx.match(post('RMR SRO'), 'wts'))).toEqual([0, 7, 250_000, 499_999])
  })

  test('a term id must be a non-negative integer', () => {
    const idx = new TermIndex()
    for (const termId of [-1, 1.5, Number.NaN]) expect(idx.add({ termId, userId: 1, category: 'wts', text: 'rmr' }).ok).toBe(false)
    expect(idx.size).toBe(0)
  })
})

describe('TermIndex keys beyond words (issue 15)', () => {
  test('a category term is found through the category token and through its own words, and removed from both', () => {
    const idx = new TermIndex()
    const a = ref('red dot')
    const b = ref('"red dot" <$400')
    idx.add(a)
    idx.add(b)
    expect(ids(idx.match(post('[WTS] Holosun 507C $300'), 'wts'))).toEqual(ids([a, b]))
    expect(ids(idx.match(post('[WTS] cheap red dot'), 'wts'))).toEqual([a.termId])
    idx.remove(a.termId)
    expect(ids(idx.match(post('[WTS] Holosun 507C $300'), 'wts'))).toEqual([b.termId])
    idx.remove(b.termId)
    expect(idx.groupCount).toBe(0)
    expect(idx.match(post('[WTS] Holosun 507C $300'), 'wts')).toEqual([])
  })
  test('author: alone is keyed by the author; flair: alone by the flair word', () => {
    const idx = new TermIndex()
    const a = ref('author:bob')
    const f = ref('flair:wts')
    idx.add(a)
    idx.add(f)
    const byBob = preparePost({ title: '[WTS] anything', author: 'Bob', flair: 'WTS' })
    expect(ids(idx.match(byBob, 'wts'))).toEqual(ids([a, f]))
    expect(idx.match(preparePost({ title: '[WTS] anything', author: 'alice' }), 'wts')).toEqual([])
    idx.remove(a.termId)
    idx.remove(f.termId)
    expect(idx.groupCount).toBe(0)
  })
  test('a flair prefix alone is checked for every post', () => {
    const idx = new TermIndex()
    const f = ref('flair:wt*')
    idx.add(f)
    expect(ids(idx.match(preparePost({ title: 'x', flair: 'WTS' }), 'wts'))).toEqual([f.termId])
    expect(idx.match(preparePost({ title: 'x', flair: 'Deal' }), 'wts')).toEqual([])
    idx.remove(f.termId)
    expect(idx.match(preparePost({ title: 'x', flair: 'WTS' }), 'wts')).toEqual([])
  })
})
