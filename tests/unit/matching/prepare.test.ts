import { describe, expect, test } from 'bun:test'
import { distinctTokens, normalizeAuthor, preparePost, readTrades } from '../../../src/matching/prepare'

describe('preparePost: the whole contract', () => {
  const post = {
    title: '[WTS] G19 Gen 5 $450, Holster for Glock 19 $40',
    content: 'Would take in trade: Aimpoint T2',
    author: 'u/SomeSeller',
    flair: 'WTS - Optics',
    authorFlair: 'Trades: 12',
  }
  const p = preparePost(post)

  test('tokens: title, a "" seam, body — after aliases', () => {
    expect(p.tokens).toEqual([
      'wts',
      'glock',
      '19',
      'gen',
      '5',
      '450',
      'holster',
      'for',
      'glock',
      '19',
      '40',
      '',
      'would',
      'take',
      'in',
      'trade',
      'aimpoint',
      't',
      '2',
    ])
    expect(p.bodyStart).toBe(12)
  })
  test('every per-position array has one entry per token', () => {
    for (const a of [p.seg, p.fits, p.side]) expect(a.length).toBe(p.tokens.length)
  })
  test('positions and distinct agree with the tokens; category tokens at their member’s first token', () => {
    for (const [tok, list] of p.positions) {
      if (tok.startsWith('@')) continue
      expect(list).toEqual(p.tokens.flatMap((t, i) => (t === tok ? [i] : [])))
    }
    expect(p.positions.get('@red-dot')).toEqual([17])
    expect(p.positions.get('@holster')).toEqual([6])
    expect(new Set(p.distinct)).toEqual(p.tokenSet)
    expect(p.tokenSet.has('')).toBe(false)
  })
  test('segments: ranges cover their positions, prices per item, the want line sided', () => {
    expect(p.segments.map((s) => [s.id, s.side, s.prices.map((x) => x.amount)])).toEqual([
      [0, null, []],
      [1, null, [450]],
      [2, null, [40]],
      [3, 'want', []],
    ])
    for (const s of p.segments) for (const [a, b] of s.ranges) for (let i = a; i < b; i++) expect(p.seg[i]).toBe(s.id)
    expect(p.prices).toEqual([450, 40])
    expect(p.sided).toBe(true)
    expect([...p.side.slice(12)]).toEqual([2, 2, 2, 2, 2, 2, 2])
  })
  test('accessory-for marks', () => {
    expect(p.tokens.filter((_, i) => p.fits[i])).toEqual(['glock', '19'])
    expect(p.fits[1]).toBe(0) // the G19 sold is not a mention
  })
  test('author, flair, trades', () => {
    expect(p.author).toBe('someseller')
    expect(p.flair).toEqual(['wts', 'optic'])
    expect(p.trades).toBe(12)
  })
  test('a post with a title only', () => {
    const q = preparePost({ title: 'Trijicon RMR' })
    expect(q.tokens).toEqual(['trijicon', 'rmr'])
    expect(q.bodyStart).toBe(2)
    expect(q.sided).toBe(false)
    expect(q.author).toBe('')
    expect(q.flair).toEqual([])
    expect(q.trades).toBeNull()
  })
})

describe('distinctTokens: the same set as preparePost(post).distinct', () => {
  const posts = [
    { title: '[WTS] EO Tech EXPS3 + G33', content: 'Comes with 5.56 mags' },
    { title: '[H] RTX 4070 [W] PayPal', content: null },
    { title: '𝗧𝗿𝗶𝗷𝗶𝗰𝗼𝗻 𝗥𝗠𝗥', content: 'batteries included' },
    { title: '', content: '' },
  ]
  for (const post of posts) test(JSON.stringify(post.title), () => expect(new Set(distinctTokens(post))).toEqual(new Set(preparePost(post).distinct)))
})

describe('trades and author', () => {
  const trades: [string | null, number | null][] = [
    ['Trades: 12', 12],
    ['Confirmed trades: 12', 12],
    ['12 trades', 12],
    ['12 confirmed trades', 12],
    ['Swaps: 3', 3],
    ['Trades: 0', 0],
    ['Verified', null],
    ['', null],
    [null, null],
  ]
  for (const [flair, want] of trades) test(`${JSON.stringify(flair)} → ${want}`, () => expect(readTrades(flair)).toBe(want))
  test('author: lowercase, no u/ prefix', () => {
    expect(normalizeAuthor('/u/Foo_Bar')).toBe('foo_bar')
    expect(normalizeAuthor('u/x')).toBe('x')
    expect(normalizeAuthor(' Name ')).toBe('name')
    expect(normalizeAuthor(null)).toBe('')
  })
})

describe('speed', () => {
  test('3,000 ordinary posts prepare in well under a second', () => {
    const posts = Array.from({ length: 3000 }, (_, i) => ({
      title: `[WTS] Trijicon RMR Type ${i % 3} RM06 - $${400 + i} shipped, Holosun 507C $250`,
      content: 'Check my confirmed trades in the flair. Local pickup possible. Would take in trade: Aimpoint T2.',
    }))
    const t0 = performance.now()
    for (const p of posts) preparePost(p)
    expect(performance.now() - t0).toBeLessThan(3000)
  })
})
