import { describe, expect, test } from 'bun:test'
import { highlight } from '../../../src/matching/highlight'

const hits = (title: string, terms: string[]) =>
  highlight(title, terms)
    .filter((s) => s.hit)
    .map((s) => s.text)

describe('highlight marks the title words a term looks for', () => {
  test('segments rebuild the exact title', () => {
    const title = '[WTS] Trijicón RMR 🔥 - $450'
    expect(
      highlight(title, ['rmr'])
        .map((s) => s.text)
        .join(''),
    ).toBe(title)
  })
  test('plain words and accents', () => {
    expect(hits('[WTS] Trijicón RMR Type 2', ['trijicon rmr'])).toEqual(['Trijicón', 'RMR'])
  })
  test('a split word covers the punctuation inside it', () => {
    expect(hits('[WTS] Sig P-365XL', ['p365'])).toEqual(['P-365'])
  })
  test('prefixes mark the whole word, plurals the whole word', () => {
    expect(hits('Trijicon mags', ['trij* mag'])).toEqual(['Trijicon', 'mags'])
  })
  test('exclusions, price bounds and invalid terms mark nothing', () => {
    expect(hits('RMR used $450', ['-airsoft rmr <$500', '"unbalanced'])).toEqual(['RMR'])
  })
  test('phrases are marked only where adjacent', () => {
    expect(hits('red holo, red dot', ['"red dot"'])).toEqual(['red dot'])
  })
  test('several terms and alternatives', () => {
    expect(hits('Holosun 507c and Aimpoint T2', ['holosun | aimpoint', 't2'])).toEqual(['Holosun', 'Aimpoint', 'T2'])
  })
  test('empty title gives no segments', () => {
    expect(highlight('', ['rmr'])).toEqual([])
  })
  test('a title and a term read before are marked as the first time (the memo is per title and per term)', () => {
    const title = '[WTS] Holosun 507c and Aimpoint T2'
    expect(hits(title, ['holosun'])).toEqual(['Holosun'])
    expect(hits(title, ['t2'])).toEqual(['T2'])
    expect(hits('[WTS] Aimpoint T2 with caps', ['t2'])).toEqual(['T2'])
    expect(hits(title, ['"unbalanced', 'aimpoint'])).toEqual(['Aimpoint'])
    expect(hits(title, ['"unbalanced'])).toEqual([])
    // past the memo's size, the oldest entries go and are read again
    for (let i = 0; i < 300; i++) expect(hits(`[WTS] Glock ${i} mag`, ['glock'])).toEqual(['Glock'])
    expect(hits(title, ['holosun | aimpoint'])).toEqual(['Holosun', 'Aimpoint'])
  })
})

describe('highlight reads the title as the matcher does (issue 15)', () => {
  test('alias hits', () => expect(hits('[WTS] G19 Gen 5', ['glock 19'])).toEqual(['G19']))
  test('category hits mark the model', () => expect(hits('[WTS] Holosun 507C $300', ['red dot'])).toEqual(['507C']))
  test('a word only in an accessory-for mention is not marked', () => {
    expect(hits('[WTS] Safariland holster for Glock 19', ['glock 19'])).toEqual([])
    // `holster` is also a category: Safariland makes holsters
    expect(hits('[WTS] Safariland holster for Glock 19', ['holster'])).toEqual(['Safariland', 'holster'])
  })
  test('it is marked when the term asks for the accessory', () => {
    expect(hits('[WTS] Kydex holster for Glock 19', ['glock 19 holster'])).toEqual(['holster', 'Glock', '19'])
  })
  test('~words, title: words and OR forms are marked; field filters are not', () => {
    expect(hits('[WTS] Aimpoint T2, Trijicon mount', ['~trijicon title:aimpoint author:bob'])).toEqual(['Aimpoint', 'Trijicon'])
    expect(hits('[WTS] Aimpoint H2', ['aimpoint t2/h2'])).toEqual(['Aimpoint', 'H2'])
  })
})
