import { describe, expect, test } from 'bun:test'
import { MESSAGES, parseTerm, rewriteOperators } from '../../../src/matching/parse'

describe('parseTerm rejects malformed terms with a clear message', () => {
  const cases: [string, string, string][] = [
    ['empty term', '   ', MESSAGES.empty],
    ['unbalanced quote', '"red dot', 'Unbalanced quote: add the closing "'],
    ['unbalanced quote after a phrase', '"red dot" "holo', MESSAGES.unbalanced],
    ['empty alternative at the end', 'rmr |', 'Empty alternative around "|": put words on both sides of it'],
    ['empty alternative at the start', '| rmr', MESSAGES.emptyAlternative],
    ['empty alternative in the middle', 'rmr || holosun', MESSAGES.emptyAlternative],
    ['empty quotes', 'rmr ""', MESSAGES.emptyQuotes],
    ['a bare minus', 'rmr -', MESSAGES.bareMinus],
    ['a minus followed by a space', 'rmr - airsoft', MESSAGES.bareMinus],
    ['a bare star', 'rmr *', MESSAGES.bareStar],
    ['price bound without a number', 'rmr <$', 'A price bound needs an amount, like <$500: "<$" has none'],
    ['price bound with words instead of a number', 'rmr <$cheap', 'A price bound needs an amount, like <$500: "<$cheap" has none'],
    ['a stray ">" names itself', 'eotech >x', '">" is only allowed in a price bound, like >$500: remove it from ">x"'],
    ['excluded price bound', 'rmr -<$500', MESSAGES.priceExcluded],
    ['longer than 200 characters', 'a'.repeat(201), 'Too long: a term can have at most 200 characters'],
    // issue 15: other tools' syntax, prices without a bound, new operators
    ['a price without a bound', 'rmr $400', 'A price needs a bound: write <$400 (under) or >$400 (over)'],
    ['a price with a trailing dollar', 'rmr 400$', MESSAGES.priceNoBound('400')],
    ['a dollar sign then a space', 'rmr $ 400', MESSAGES.priceNoBound('400')],
    ['an unknown per-unit', 'ammo <$0.40/box', 'A per-unit price is written like <$15/ea (each) or <$0.30/rd (per round), not "<$0.40/box"'],
    ['an unclosed parenthesis', '(rmr | sro', 'Unbalanced parenthesis: add the closing )'],
    ['a stray closing parenthesis', 'rmr)', MESSAGES.strayParen],
    ['empty parentheses', 'rmr ()', MESSAGES.emptyParens],
    ['OR at the end is an empty alternative', 'rmr OR', MESSAGES.emptyAlternative],
    ['NOT at the end is a bare minus', 'rmr NOT', MESSAGES.bareMinus],
    ['a negated AND group', 'rmr -(a b)', MESSAGES.negatedGroup],
    ['too many combinations', '(a|b) (c|d) (e|f) (g|h) (i|j)', 'Too many combinations: parentheses may expand a term into at most 16 alternatives'],
    ['a bare tilde', 'rmr ~ sro', MESSAGES.bareTilde],
    ['a field without a value', 'rmr title:', MESSAGES.fieldEmpty],
    ['an author with spaces in quotes', 'author:"a b"', MESSAGES.authorName],
    ['a trades bound that is not a number', 'rmr trades>=many', MESSAGES.tradesNumber],
    ['an excluded trades bound', 'rmr -trades>=5', MESSAGES.tradesExcluded],
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

// Issue 30 §5: a message must name what the user actually wrote wrong — not a price unit for a
// pasted HTML tag, not "an alternative" where no "|" was written. Bad input → the message shown.
describe('each message names what the user wrote wrong', () => {
  const cases: [string, string][] = [
    ['<b>bold</b>', 'Terms are plain words; "<" and ">" are only for prices like <$15: remove the tags from "<b>bold</b>"'],
    ['glock </b>', 'Terms are plain words; "<" and ">" are only for prices like <$15: remove the tags from "</b>"'],
    ['rmr <b>', 'Terms are plain words; "<" and ">" are only for prices like <$15: remove the tags from "<b>"'],
    ['eotech >x', '">" is only allowed in a price bound, like >$500: remove it from ">x"'],
    ['<a/b>', '"<" is only allowed in a price bound, like <$500: remove it from "<a/b>"'],
    ['ammo <$0.40/box', MESSAGES.priceUnit('<$0.40/box')],
    ['rmr $150', 'A price needs a bound: write <$150 (under) or >$150 (over)'],
    ['rmr >', 'A price bound needs an amount, like >$500: ">" has none'],
    ['rmr "🔥"', 'The phrase "🔥" has no letters or digits to look for'],
    ['-airsoft', 'A term needs at least one word to look for; "-airsoft" only excludes'],
    ['NOT airsoft', 'A term needs at least one word to look for; "NOT airsoft" only excludes'],
    ['-"red dot"', 'A term needs at least one word to look for; "-"red dot"" only excludes'],
    ['-author:bob', 'A term needs at least one word to look for; "-author:bob" only excludes'],
    ['rmr | -airsoft', 'Each side of "|" needs a word to look for; "-airsoft" only excludes'],
    ['rmr | -airsoft -replica', 'Each side of "|" needs a word to look for; "-airsoft -replica" only excludes'],
    ['(-airsoft | rmr)', 'Each side of "|" needs a word to look for; "-airsoft" only excludes'],
    ['<$500', 'A term needs at least one word to look for; a price bound like "<$500" alone matches nothing'],
    ['<$0.30/rd', 'A term needs at least one word to look for; a price bound like "<$0.30/rd" alone matches nothing'],
    ['rmr | <$500', 'Each side of "|" needs a word to look for; a price bound like "<$500" alone matches nothing'],
    ['trades>=10', 'A term needs at least one word to look for; a trades bound like "trades>=10" alone matches nothing'],
    ['🔥🔥', 'A term needs at least one word to look for; "🔥🔥" has no letters or digits'],
    ['rmr | 🔥', 'Each side of "|" needs a word to look for; "🔥" has no letters or digits'],
    ['rmr 3/4"', 'Unbalanced quote after "3/4": add the closing ", or write 3/4 without the inch mark'],
    ['"red dot', MESSAGES.unbalanced],
  ]
  for (const [text, error] of cases) test(JSON.stringify(text), () => expect(parseTerm(text)).toEqual({ ok: false, error }))
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
