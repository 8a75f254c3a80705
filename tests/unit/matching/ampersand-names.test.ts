// "&" inside a brand's name joins, it does not split items (issue 24 §5): every spelling of Schmidt & Bender,
// Smith & Wesson, Brügger & Thomet and Heckler & Koch finds every other, in titles and bodies, while an "&"
// between two items ("holster & mag") still separates them. (A term's words are read one by one, so the
// "and" spelling is written as a phrase: "schmidt and bender" in quotes.)
import { describe, expect, test } from 'bun:test'
import { compileTerm, matchesPost, preparePost } from '../../../src/matching/compile'
import { BUILTIN_DICTIONARY, canonical, compileDictionary, mergeDictionary, type CompiledDictionary } from '../../../src/matching/dictionary'
import { normalize } from '../../../src/matching/normalize'
import { parseTerm } from '../../../src/matching/parse'

function matches(term: string, post: { title: string; content?: string }, dict?: CompiledDictionary): boolean {
  const q = parseTerm(term)
  if (!q.ok) throw new Error(q.error)
  return matchesPost(compileTerm(q.query, dict), preparePost(post, dict), 'wts')
}

const brands: { spellings: string[]; titles: string[]; body: { title: string; content: string } }[] = [
  {
    spellings: ['schmidt bender', 'schmidt & bender', '"schmidt and bender"', 's&b', 'S&B'],
    titles: ['[WTS] Schmidt & Bender PM II 5-25x56', '[WTS] S&B PMII 5-25x56 - $2,400 shipped', '[WTS] [USA-TX] Schmidt and Bender PM II Ultra Short'],
    body: {
      title: '[WTS] Precision scope, rings included',
      content: 'Schmidt & Bender PM II 5-25x56, P4FL reticle. Glass is perfect.\n\nAsking $2,400 shipped.',
    },
  },
  {
    spellings: ['smith wesson', 'smith & wesson', 's&w', '"smith and wesson"'],
    titles: ['[WTS] Smith & Wesson M&P 2.0 Compact 4"', '[WTS] S&W Shield Plus w/ 3 mags - $400', '[WTS] Smith and Wesson 686 box'],
    body: { title: '[WTS] Revolver grips', content: '- Smith & Wesson K/L frame grips, round butt - $60\n- Hogue monogrip - $25' },
  },
  {
    spellings: ['brugger thomet', 'brügger & thomet', 'b&t', 'bruegger & thomet'],
    titles: ['[WTS] B&T APC9 Pro K', '[WTS] Brügger & Thomet TP9 with 3 mags', '[WTS] Bruegger & Thomet GHM9 upper'],
    body: { title: '[WTS] PCC and suppressor mount', content: 'Brügger & Thomet APC9K, about 300 rounds through it.\nPrice: $1,900' },
  },
  {
    spellings: ['heckler koch', 'heckler & koch', 'h&k', 'hk'],
    titles: ['[WTS] Heckler & Koch P30 LEM', '[WTS] H&K VP9 Tactical - $650', '[WTS] HK416 upper, 14.5"'],
    body: { title: '[WTS] Pistol', content: 'Heckler & Koch USP Compact 9mm, two mags.\n\n$700 shipped' },
  },
]

describe('every spelling of a brand written with "&" finds every other', () => {
  for (const b of brands) {
    for (const title of b.titles)
      for (const term of b.spellings) test(`${term} finds ${JSON.stringify(title)}`, () => expect(matches(term, { title })).toBe(true))
    for (const term of b.spellings)
      test(`${term} finds the body ${JSON.stringify(b.body.content.split('\n')[0])}`, () => expect(matches(term, b.body)).toBe(true))
  }
  test('all spellings read as the same words (both sides go through the same dictionary)', () => {
    const read = (t: string) => canonical(normalize(t)).join(' ')
    expect(new Set(['S&B', 'Schmidt & Bender', 'schmidt and bender', 'S and B'].map(read))).toEqual(new Set(['schmidt bender']))
    expect(new Set(['S&W', 'Smith & Wesson', 'Smith and Wesson'].map(read))).toEqual(new Set(['smith wesson']))
    expect(new Set(['B&T', 'Brügger & Thomet', 'Bruegger & Thomet'].map(read))).toEqual(new Set(['brugger thomet']))
    expect(new Set(['H&K', 'Heckler & Koch', 'HK'].map(read))).toEqual(new Set(['heckler koch']))
  })
  test('the brand with its model, as one item', () => {
    expect(matches('schmidt bender pm ii', { title: '[WTS] Schmidt & Bender PM II 5-25x56' })).toBe(true)
    expect(matches('s&w shield', { title: '[WTS] Smith & Wesson Shield Plus' })).toBe(true)
    expect(matches('h&k p30', { title: '[WTS] Heckler & Koch P30 LEM, night sights - $600' })).toBe(true)
  })
})

describe('an "&" between two items still separates them', () => {
  const cases: [string, string, boolean][] = [
    ['safariland magpul', '[WTS] Safariland holster & Magpul mags', false],
    ['holster magpul', '[WTS] Safariland holster & Magpul mags', false],
    ['safariland holster', '[WTS] Safariland holster & Magpul mags', true],
    ['glock pouch', '[WTS] Glock 19 holster & mag pouch', false],
    ['trijicon holosun', '[WTS] Trijicon RMR & Holosun 507C', false],
    ['holosun 507c', '[WTS] Trijicon RMR & Holosun 507C', true],
    // another maker's name after "&" is not part of a brand
    ['bender holosun', '[WTS] Schmidt & Bender PM II & Holosun 507C', false],
  ]
  for (const [term, title, expected] of cases)
    test(`${term} ${expected ? 'finds' : 'does not find'} ${JSON.stringify(title)}`, () => expect(matches(term, { title })).toBe(expected))
})

describe('joined letters are read only as the brands the dictionary names', () => {
  test('"S&W" is one word: "19s w/" is not Smith & Wesson', () => {
    expect(matches('s&w', { title: '[WTS] Glock 19s w/ RMR cut - $550' })).toBe(false)
    expect(matches('smith wesson', { title: '[WTS] Glock 19s w/ RMR cut - $550' })).toBe(false)
  })
  test('any other joined word reads as its parts, as before', () => {
    expect(canonical(normalize('M&P 2.0'))).toEqual(['m', 'p', '2', '0'])
    expect(canonical(normalize('PayPal G&S'))).toEqual(['paypal', 'g', 's'])
    expect(matches('m&p', { title: '[WTS] M&P 15 lower' })).toBe(true)
    expect(matches('m p 15', { title: '[WTS] M&P 15 lower' })).toBe(true)
  })
  test('".40 S&W" stays the calibre', () => {
    expect(canonical(normalize('.40 S&W 180gr'))).toEqual(['40', 'sw', '180', 'gr'])
    expect(matches('smith wesson', { title: '[WTS] .40 S&W 180gr FMJ, 500 rds' })).toBe(false)
  })
  test('an admin dictionary adds a brand written with "&" as data, with its " & " joining', () => {
    const dict = compileDictionary(mergeDictionary(BUILTIN_DICTIONARY, { aliases: [{ from: 'd&h', to: 'daniel haley' }], categories: [] }))
    const title = '[WTS] Daniel & Haley 10x42 binoculars, Leupold mount'
    expect(matches('daniel haley', { title }, dict)).toBe(true)
    expect(matches('d&h', { title }, dict)).toBe(true)
    expect(matches('daniel haley', { title })).toBe(false) // without the row, two items
  })
})
