// `loc:` (issue 25 §5): the seller's location, read from the title's location tag (title-grammar.ts) into place
// keys (location.ts, table locations.json), and the term side's codes. Parse table, post side, matching through
// the reference and the index, and the explainer's words.
import { describe, expect, test } from 'bun:test'
import { compileTerm, matchesPost, preparePost } from '../../../src/matching/compile'
import { explainTerm } from '../../../src/matching/explain'
import { LOCATION_HELP, parsePlace, placeCode, placeKeys, placeName } from '../../../src/matching/location'
import { MESSAGES, parseTerm } from '../../../src/matching/parse'
import { TermIndex } from '../../../src/matching/term-index'
import type { Category } from '../../../src/access/categories'

const places = (t: string) => {
  const r = parseTerm(t)
  if (!r.ok) throw new Error(r.error)
  return r.query.alternatives.map((a) => ({ places: a.places ?? null, notPlaces: a.notPlaces ?? null }))
}
const error = (t: string) => {
  const r = parseTerm(t)
  return r.ok ? null : r.error
}

describe('parse: loc: forms and their place keys', () => {
  const cases: [string, string[] | null, string[] | null][] = [
    ['gpu loc:TX', ['US-TX'], null],
    ['gpu loc:tx', ['US-TX'], null],
    ['gpu loc:US', ['US'], null],
    ['gpu loc:usa', ['US'], null],
    ['gpu loc:"US-CA"', ['US-CA'], null],
    ['gpu loc:us-ca', ['US-CA'], null],
    ['gpu loc:"USA - CA"', ['US-CA'], null],
    // CA alone is California (r/hardwareswap writes [USA-CA]); Canada is CAN, or CA before a province
    ['gpu loc:CA', ['US-CA'], null],
    ['gpu loc:CAN', ['CA'], null],
    ['gpu loc:"CA-ON"', ['CA-ON'], null],
    ['gpu loc:"can-on"', ['CA-ON'], null],
    ['gpu loc:ON', ['CA-ON'], null],
    // DE alone is Delaware; Germany in the long forms
    ['gpu loc:de', ['US-DE'], null],
    ['gpu loc:ger', ['DE'], null],
    ['gpu loc:"eu-de"', ['DE'], null],
    ['gpu loc:eu', ['EU'], null],
    ['gpu loc:uk', ['GB'], null],
    ['gpu loc:gb', ['GB'], null],
    ['gpu loc:"aus-nsw"', ['AU-NSW'], null],
    // full names, one word or quoted
    ['gpu loc:texas', ['US-TX'], null],
    ['gpu loc:"new york"', ['US-NY'], null],
    ['gpu loc:canada', ['CA'], null],
    ['gpu loc:ontario', ['CA-ON'], null],
    ['gpu -loc:CA', null, ['US-CA']],
    ['gpu -loc:can -loc:uk', null, ['CA', 'GB']],
    ['gpu loc:us -loc:ca', ['US'], ['US-CA']],
    // capital OR inside a field value is a state (Oregon), not an operator
    ['gpu loc:OR', ['US-OR'], null],
  ]
  for (const [text, want, notWant] of cases) test(text, () => expect(places(text)).toEqual([{ places: want, notPlaces: notWant }]))

  test('one per alternative: (loc:tx | loc:ok) gpu', () =>
    expect(places('(loc:tx | loc:ok) gpu')).toEqual([
      { places: ['US-TX'], notPlaces: null },
      { places: ['US-OK'], notPlaces: null },
    ]))
  test('a term of only a location is valid: every post of the category from there', () => {
    expect(places('loc:TX')).toEqual([{ places: ['US-TX'], notPlaces: null }])
    expect(places('loc:us loc:"us-ca"')).toEqual([{ places: ['US', 'US-CA'], notPlaces: null }])
  })
  test('the other fields are unchanged', () => {
    const r = parseTerm('rmr flair:wts author:bob')
    expect(r.ok && r.query.alternatives[0]).toEqual({
      include: [{ tokens: ['rmr'], prefix: false }],
      exclude: [],
      prices: [],
      authors: ['bob'],
      flair: [{ tokens: ['wts'], prefix: false }],
    })
  })
})

describe('parse: loc: refusals name what was written', () => {
  const cases: [string, string, string][] = [
    ['an unknown code', 'gpu loc:zz', `Unknown location "zz" in loc:zz: ${LOCATION_HELP}`],
    ['an unknown name in quotes', 'gpu loc:"san juan"', `Unknown location "san juan" in loc:"san juan": ${LOCATION_HELP}`],
    ['an unknown state', 'gpu loc:"us-zz"', `"ZZ" is not a state or province of United States in loc:"US-ZZ": ${LOCATION_HELP}`],
    ['an unknown province', 'gpu loc:can-xx', `"XX" is not a state or province of Canada in loc:"CAN-XX": ${LOCATION_HELP}`],
    ['an unknown country', 'gpu loc:"xx-yy"', `Unknown country "XX" in loc:"XX-YY": ${LOCATION_HELP}`],
    ['a prefix', 'gpu loc:tx*', 'A location is a code, not a prefix: write loc:TX'],
    ['no value', 'gpu loc:', MESSAGES.fieldEmpty],
    ['empty quotes', 'gpu loc:""', MESSAGES.emptyQuotes],
    ['an unclosed quote', 'gpu loc:"us-ca', MESSAGES.unbalanced],
    ['a tilde', 'gpu ~loc:tx', MESSAGES.fieldScope],
    ['only an exclusion', '-loc:ca', 'A term needs at least one word to look for; "-loc:ca" only excludes'],
  ]
  for (const [name, text, message] of cases) test(name, () => expect(error(text)).toBe(message))
  test('the help says which CA is which', () => expect(LOCATION_HELP).toContain('loc:CA is California, Canada is loc:CAN'))
})

describe('post side: a title location tag → place keys', () => {
  const cases: [string, string | null, string[]][] = [
    ['[USA-TX] [H] RTX 3080 [W] PayPal', 'USA-TX', ['US-TX', 'US']],
    ['[WTS][TX] Trijicon RMR RM06 - $420', 'TX', ['US-TX', 'US']],
    ['[WTB] [US-CA] Glock 19 Gen 5 mags', 'US-CA', ['US-CA', 'US']],
    ['[CA] [H] 3090 [W] cash', 'CA', ['US-CA', 'US']],
    ['[WTS/WTT] [CAN-ON] Eotech EXPS3-2', 'CAN-ON', ['CA-ON', 'CA']],
    ['[CA-ON] [H] 3090 [W] cash', 'CA-ON', ['CA-ON', 'CA']],
    ['[EU-DE] [H] Keychron Q1 [W] PayPal', 'EU-DE', ['DE', 'EU']],
    ['[FS] Surefire X300U [UK]', 'UK', ['GB']],
    ['[WTS] [San Juan, PR] Holosun 507C - $250', 'San Juan, PR', ['US-PR', 'US']],
    ['[WTS] Tudor Black Bay 58 Navy [AUS-NSW]', 'AUS-NSW', ['AU-NSW', 'AU']],
    ['[WTS] [Usa] Aimpoint T2', 'Usa', ['US']],
    ['[WTS] Aimpoint T2 (OBO) [NIB]', null, []],
    ['[WTS] [AR-15] BCM upper - $500', null, []],
  ]
  for (const [title, location, keys] of cases)
    test(title, () => {
      const post = preparePost({ title })
      expect(post.location).toBe(location)
      expect(post.places).toEqual(keys)
    })
  test('a region the table does not list still names its country', () => expect(placeKeys('USA-XX')).toEqual(['US']))
  test('codes the table does not know name no place', () => expect(placeKeys('ZZ')).toEqual([]))
  test('the written forms re-parse to the same key', () => {
    for (const key of ['US', 'US-TX', 'CA', 'CA-ON', 'GB', 'DE', 'EU', 'AU-NSW', 'US-CA']) {
      const r = parsePlace(placeCode(key))
      expect(r.ok && r.key).toBe(key)
    }
  })
  test('names', () => {
    expect(placeName('US-TX')).toBe('Texas')
    expect(placeName('CA-ON')).toBe('Ontario, Canada')
    expect(placeName('CA')).toBe('Canada')
    expect(placeName('AU-NSW')).toBe('NSW, Australia')
  })
})

describe('matching: reference and index agree', () => {
  const titles = [
    '[USA-TX] [H] RTX 3080 FE [W] PayPal',
    '[US-CA] [H] RTX 3080 [W] PayPal',
    '[CAN-ON] [H] RTX 3080 [W] Cash, ETransfer',
    '[CA] [H] RTX 3080 [W] PayPal',
    '[EU-DE] [H] RTX 3080 [W] PayPal',
    '[H] RTX 3080 [W] PayPal',
  ]
  const cases: [string, boolean[]][] = [
    ['3080 loc:TX', [true, false, false, false, false, false]],
    ['3080 loc:texas', [true, false, false, false, false, false]],
    ['3080 loc:US', [true, true, false, true, false, false]],
    ['3080 loc:"US-CA"', [false, true, false, true, false, false]],
    ['3080 loc:CA', [false, true, false, true, false, false]],
    ['3080 loc:CAN', [false, false, true, false, false, false]],
    ['3080 loc:eu', [false, false, false, false, true, false]],
    // a post without a location is never excluded by -loc:
    ['3080 -loc:CA', [true, false, true, false, true, true]],
    ['3080 -loc:us', [false, false, true, false, true, true]],
    ['loc:tx', [true, false, false, false, false, false]],
    ['3080 loc:tx | 3080 loc:can', [true, false, true, false, false, false]],
    ['3090 loc:tx', [false, false, false, false, false, false]],
  ]
  const category: Category = 'wts'
  for (const [term, want] of cases)
    test(term, () => {
      const parsed = parseTerm(term)
      if (!parsed.ok) throw new Error(parsed.error)
      const compiled = compileTerm(parsed.query)
      const idx = new TermIndex()
      expect(idx.add({ termId: 1, userId: 1, category, text: term }).ok).toBe(true)
      const posts = titles.map((title) => preparePost({ title }))
      expect(posts.map((p) => matchesPost(compiled, p, category))).toEqual(want)
      expect(posts.map((p) => idx.match(p, category).length === 1)).toEqual(want)
    })
  test('the same words with different places are different index groups', () => {
    const idx = new TermIndex()
    idx.add({ termId: 1, userId: 1, category, text: '3080 loc:tx' })
    idx.add({ termId: 2, userId: 2, category, text: '3080 loc:ca' })
    idx.add({ termId: 3, userId: 3, category, text: '3080' })
    expect(idx.groupCount).toBe(3)
    expect(
      idx
        .match(preparePost({ title: titles[0]! }), category)
        .map((r) => r.termId)
        .sort((a, b) => a - b),
    ).toEqual([1, 3])
  })
})

describe('explain: why loc: matched or not', () => {
  const explain = (term: string, title: string) => {
    const parsed = parseTerm(term)
    if (!parsed.ok) throw new Error(parsed.error)
    return explainTerm(compileTerm(parsed.query), preparePost({ title }), 'wts')
  }
  test('no location in the title', () => {
    const e = explain('3080 loc:tx', '[H] RTX 3080 [W] PayPal')
    expect(e.matched).toBe(false)
    expect(e.reasons).toEqual(['the post names no location (loc:USA-TX: Texas)'])
    expect(e.alternatives[0]!.reasons[0]!.code).toBe('location')
    expect(e.alternatives[0]!.text).toBe('3080 loc:USA-TX')
  })
  test('elsewhere', () =>
    expect(explain('3080 loc:CAN', '[USA-TX] [H] RTX 3080 [W] PayPal').reasons).toEqual(['the seller is in USA-TX, not Canada (loc:CAN)']))
  test('a location tag Dibs does not place', () =>
    expect(explain('3080 loc:us', '[PR-SJ] [H] RTX 3080 [W] PayPal').reasons).toEqual([
      "the post's location 'PR-SJ' is not a place Dibs knows (loc:USA: United States)",
    ]))
  test('excluded', () => {
    const e = explain('3080 -loc:CA', '[US-CA] [H] RTX 3080 [W] PayPal')
    expect(e.reasons).toEqual(['excluded by -loc:USA-CA: the seller is in US-CA (California)'])
    expect(e.alternatives[0]!.reasons[0]!.code).toBe('not-location')
  })
  test('matched, with where the seller is', () =>
    expect(explain('3080 loc:us', '[USA-TX] [H] RTX 3080 [W] PayPal').reasons).toEqual(["matched '3080' in item 1 (the seller is in USA-TX)"]))
  test('a term of only a location', () => expect(explain('loc:tx', '[WTS][TX] Trijicon RMR').reasons).toEqual(['matched the fields (the seller is in TX)']))
})
