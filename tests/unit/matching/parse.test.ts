import { describe, expect, test } from 'bun:test'
import { MESSAGES, parseTerm } from '../../../src/matching/parse'

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
