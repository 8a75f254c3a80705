import { describe, expect, test } from 'bun:test'
import { MESSAGES, parseTerm, rewriteOperators } from '../../../src/matching/parse'

describe('parseTerm rejects malformed terms with a clear message', () => {
  const cases: [string, string, string][] = [
    ['empty term', '   ', MESSAGES.empty],
    ['unbalanced quote', '"red dot', 'Unbalanced quote: add the closing "'],
    ['unbalanced quote after a phrase', '"red dot" "holo', MESSAGES.unbalanced],
    ['only exclusions', '-airsoft', 'An alternative needs at least one word to look for (it has only exclusions)'],
    ['only exclusions in the second alternative', 'rmr | -airsoft', MESSAGES.onlyExclusions],
    ['empty alternative at the end', 'rmr |', 'Empty alternative around "|": put words on both sides of it'],
    ['empty alternative at the start', '| rmr', MESSAGES.emptyAlternative],
    ['empty alternative in the middle', 'rmr || holosun', MESSAGES.emptyAlternative],
    ['empty quotes', 'rmr ""', MESSAGES.emptyQuotes],
    ['a bare minus', 'rmr -', MESSAGES.bareMinus],
    ['a minus followed by a space', 'rmr - airsoft', MESSAGES.bareMinus],
    ['a bare star', 'rmr *', MESSAGES.bareStar],
    ['price bound without a number', 'rmr <$', MESSAGES.priceNoNumber],
    ['price bound with words instead of a number', 'rmr <$cheap', MESSAGES.priceNoNumber],
    ['a pasted HTML tag names the character', 'rmr <b>', '"<" is only allowed in a price bound, like <$500: remove it from "<b>"'],
    ['a stray ">" names itself', 'eotech >x', '">" is only allowed in a price bound, like >$500: remove it from ">x"'],
    ['only a price bound', '<$500', 'Add at least one word to look for (a price bound alone matches nothing)'],
    ['excluded price bound', 'rmr -<$500', MESSAGES.priceExcluded],
    ['only emoji', '🔥🔥', MESSAGES.noWord],
    ['longer than 200 characters', 'a'.repeat(201), 'Too long: a term can have at most 200 characters'],
    // issue 15: other tools' syntax, prices without a bound, new operators
    ['a price without a bound', 'rmr $400', 'A price needs a bound: write <$400 (under) or >$400 (over)'],
    ['a price with a trailing dollar', 'rmr 400$', MESSAGES.priceNoBound],
    ['a dollar sign then a space', 'rmr $ 400', MESSAGES.priceNoBound],
    ['an unknown per-unit', 'ammo <$0.40/box', MESSAGES.priceUnit],
    ['an unclosed parenthesis', '(rmr | sro', 'Unbalanced parenthesis: add the closing )'],
    ['a stray closing parenthesis', 'rmr)', MESSAGES.strayParen],
    ['empty parentheses', 'rmr ()', MESSAGES.emptyParens],
    ['OR at the end is an empty alternative', 'rmr OR', MESSAGES.emptyAlternative],
    ['NOT at the end is a bare minus', 'rmr NOT', MESSAGES.bareMinus],
    ['NOT alone excludes only', 'NOT airsoft', MESSAGES.onlyExclusions],
    ['a negated AND group', 'rmr -(a b)', MESSAGES.negatedGroup],
    ['too many combinations', '(a|b) (c|d) (e|f) (g|h) (i|j)', 'Too many combinations: parentheses may expand a term into at most 16 alternatives'],
    ['a bare tilde', 'rmr ~ sro', MESSAGES.bareTilde],
    ['a field without a value', 'rmr title:', MESSAGES.fieldEmpty],
    ['an author with spaces in quotes', 'author:"a b"', MESSAGES.authorName],
    ['a trades bound that is not a number', 'rmr trades>=many', MESSAGES.tradesNumber],
    ['an excluded trades bound', 'rmr -trades>=5', MESSAGES.tradesExcluded],
    ['only a trades bound', 'trades>=10', MESSAGES.onlyTrades],
    ['only a per-unit bound', '<$0.30/rd', MESSAGES.onlyPrice],
    ['only an excluded author', '-author:bob', MESSAGES.onlyExclusions],
    ['a tilde on a field', '~title:rmr', MESSAGES.fieldScope],
  ]
  for (const [name, text, error] of cases) {
    test(`${name}: ${JSON.stringify(text.slice(0, 40))}`, () => expect(parseTerm(text)).toEqual({ ok: false, error }))
  }
  test('never throws, even on non-strings', () => {
    expect(parseTerm(undefined as unknown as string).ok).toBe(false)
  })
  test('exactly 200 characters is accepted', () => {
    expect(parseTerm('a'.repeat(200)).ok).toBe(true)
  })
})

describe('parseTerm builds the query', () => {
  test('words, phrase, prefix, exclusion, price and OR', () => {
    const r = parseTerm('  Trijicon "Red Dots" hol* -airsoft -"red dot sight" <= $1,200 | P365*')
    expect(r).toEqual({
      ok: true,
      query: {
        alternatives: [
          {
            include: [
              { tokens: ['trijicon'], prefix: false },
              { tokens: ['red', 'dot'], prefix: false },
              { tokens: ['hol'], prefix: true },
            ],
            exclude: [
              { tokens: ['airsoft'], prefix: false },
              { tokens: ['red', 'dot', 'sight'], prefix: false },
            ],
            prices: [{ op: '<=', amount: 1200 }],
          },
          { include: [{ tokens: ['p', '365'], prefix: true }], exclude: [], prices: [] },
        ],
      },
    })
  })
  test('price bounds accept a space, no dollar sign, a trailing dollar and k', () => {
    const prices = (t: string) => (parseTerm(t) as { ok: true; query: any }).query.alternatives[0].prices
    expect(prices('rmr < $500')).toEqual([{ op: '<', amount: 500 }])
    expect(prices('rmr >=100')).toEqual([{ op: '>=', amount: 100 }])
    expect(prices('rmr <500$')).toEqual([{ op: '<', amount: 500 }])
    expect(prices('rmr >$1.5k')).toEqual([{ op: '>', amount: 1500 }])
  })
  test('a word that is only punctuation is ignored', () => {
    expect(parseTerm('glock + light')).toEqual({
      ok: true,
      query: {
        alternatives: [
          {
            include: [
              { tokens: ['glock'], prefix: false },
              { tokens: ['light'], prefix: false },
            ],
            exclude: [],
            prices: [],
          },
        ],
      },
    })
  })
})

const q = (t: string) => {
  const r = parseTerm(t)
  if (!r.ok) throw new Error(`${t}: ${r.error}`)
  return r.query.alternatives
}
/** An alternative as the words it needs, for compact comparisons. */
const words = (t: string) =>
  q(t).map((a) => a.include.map((s) => (s.scope === 'post' ? '~' : s.scope === 'title' ? 'title:' : '') + s.tokens.join(' ')).join(' + '))

describe('familiar syntax (issue 15)', () => {
  const same: [string, string][] = [
    ['rmr OR sro', 'rmr | sro'],
    ['a AND b', 'a b'],
    ['rmr NOT airsoft', 'rmr -airsoft'],
    ['rmr NOT "for parts"', 'rmr -"for parts"'],
    ['(rmr OR sro) trijicon', 'rmr trijicon | sro trijicon'],
    ['(rmr | sro) trijicon', 'rmr trijicon | sro trijicon'],
    ['trijicon (rmr | sro) (type 2 | rm06)', 'trijicon rmr type 2 | trijicon sro type 2 | trijicon rmr rm06 | trijicon sro rm06'],
    ['rmr -(airsoft | replica)', 'rmr -airsoft -replica'],
    ['aimpoint t2/h2', 'aimpoint t2 | aimpoint h2'],
    ['holosun 507c/508t', 'holosun 507c | holosun 508t'],
    ['g19/g17', 'g19 | g17'],
    ['vortex 1-6/1-8', 'vortex 1-6 | vortex 1-8'],
    ['rmr -t2/h2', 'rmr -t2 -h2'],
    ['glock NOT(airsoft)', 'glock -(airsoft)'],
  ]
  for (const [written, dibs] of same) test(`${written} = ${dibs}`, () => expect(q(written)).toEqual(q(dibs)))

  test('lowercase or/and/not stay words', () => {
    expect(words('rmr or sro')).toEqual(['rmr + or + sro'])
    expect(words('not and')).toEqual(['not + and'])
  })
  test('capitals inside quotes stay words', () => expect(words('"black OR white"')).toEqual(['black or white']))
  test('a slash that is not between model numbers keeps its meaning (a phrase)', () => {
    expect(words('s/h')).toEqual(['s h'])
    expect(words('1/2 moa')).toEqual(['1 2 + moa'])
  })
  test('rewriteOperators gives the stored Dibs form', () => {
    expect(rewriteOperators('RMR OR SRO')).toBe('RMR | SRO')
    expect(rewriteOperators('(RMR OR SRO) AND trijicon NOT airsoft')).toBe('(RMR | SRO)  trijicon -airsoft')
    expect(rewriteOperators('"A OR B" OR c')).toBe('"A OR B" | c')
    expect(rewriteOperators('oregon ORDER')).toBe('oregon ORDER')
  })
  test('sixteen alternatives are allowed', () => expect(q('(a|b) (c|d) (e|f) (g|h)')).toHaveLength(16))
})

describe('scope, per-unit prices and fields (issue 15)', () => {
  test('~ marks a word or phrase that may occur anywhere; -~ excludes anywhere', () => {
    const [a] = q('t2 ~trijicon ~"red dot" -mount -~airsoft')
    expect(a!.include).toEqual([
      { tokens: ['t', '2'], prefix: false },
      { tokens: ['trijicon'], prefix: false, scope: 'post' },
      { tokens: ['red', 'dot'], prefix: false, scope: 'post' },
    ])
    expect(a!.exclude).toEqual([
      { tokens: ['mount'], prefix: false },
      { tokens: ['airsoft'], prefix: false, scope: 'post' },
    ])
  })
  test('per-unit bounds: /ea, /each, /rd, /round, cpr', () => {
    expect(q('ammo <$0.40/rd')[0]!.unitPrices).toEqual([{ op: '<', amount: 0.4, unit: 'round' }])
    expect(q('ammo <=$.30/round')[0]!.unitPrices).toEqual([{ op: '<=', amount: 0.3, unit: 'round' }])
    expect(q('ammo <30cpr')[0]!.unitPrices).toEqual([{ op: '<', amount: 0.3, unit: 'round' }])
    expect(q('pmag <$15/ea')[0]!.unitPrices).toEqual([{ op: '<', amount: 15, unit: 'each' }])
    expect(q('pmag >=12/each')[0]!.unitPrices).toEqual([{ op: '>=', amount: 12, unit: 'each' }])
    expect(q('pmag <$15/ea')[0]!.prices).toEqual([])
  })
  test('field filters', () => {
    const [a] = q('rmr title:trijicon title:"type 2" author:u/Bob_1 -author:spam-bot flair:wts -flair:sold trades>=10 trades<500')
    expect(a!.include.slice(1)).toEqual([
      { tokens: ['trijicon'], prefix: false, scope: 'title' },
      { tokens: ['type', '2'], prefix: false, scope: 'title' },
    ])
    expect(a!.authors).toEqual(['bob_1'])
    expect(a!.notAuthors).toEqual(['spam-bot'])
    expect(a!.flair).toEqual([{ tokens: ['wts'], prefix: false }])
    expect(a!.notFlair).toEqual([{ tokens: ['sold'], prefix: false }])
    expect(a!.trades).toEqual([
      { op: '>=', amount: 10 },
      { op: '<', amount: 500 },
    ])
  })
  test('a term of only an author is valid: every post by this author', () =>
    expect(q('author:bob')).toEqual([{ include: [], exclude: [], prices: [], authors: ['bob'] }]))
  test('-title: excludes from the title', () => expect(q('rmr -title:wtb')[0]!.exclude).toEqual([{ tokens: ['wtb'], prefix: false, scope: 'title' }]))
})
