import { describe, expect, test } from 'bun:test'
import { normalize, tokenSpans } from '../../../src/matching/normalize'

describe('normalize: tokens of a post or term', () => {
  const cases: [string, string, string[]][] = [
    ['lowercases', 'Trijicon RMR', ['trijicon', 'rmr']],
    ['splits letter→digit→letter', 'P365XL', ['p', '365', 'xl']],
    ['punctuation separates', 'AR-15', ['ar', '15']],
    ['digit→letter splits', '9mm', ['9', 'mm']],
    ['calibre with a dot', '5.56 M855', ['5', '56', 'm', '855']],
    ['removes accents', 'Trijicón Señor', ['trijicon', 'senor']],
    ['full-width letters and digits fold via NFKD', 'ＲＭＲ０６', ['rmr', '06']],
    ['emoji are ignored', '🔥 glock 🔥19', ['glock', '19']],
    ['plural s folded on 4+ letters', 'mags optics', ['mag', 'optic']],
    ['ss is not a plural', 'glass class', ['glass', 'class']],
    ['3-letter words keep their s', 'gas bus', ['gas', 'bus']],
    ['4-letter word ending in s is folded', 'lens', ['len']],
    ['digits are never folded', '45s', ['45', 's']],
    ['empty text has no tokens', '', []],
    ['only punctuation has no tokens', ' - / !! ', []],
    ['non-Latin letters are tokens', 'Москва 東京', ['москва', '東京']],
  ]
  for (const [name, input, want] of cases) {
    test(name, () => expect(normalize(input)).toEqual(want))
  }

  test('a 10k-character body normalises quickly and fully', () => {
    const body = 'trijicon rmr '.repeat(800)
    const t0 = performance.now()
    const toks = normalize(body)
    expect(toks.length).toBe(1600)
    expect(performance.now() - t0).toBeLessThan(50)
  })
})

describe('tokenSpans: offsets into the original text', () => {
  test('spans point at the original characters, accents and plurals included', () => {
    const text = 'Trijicón P-365 mags'
    const spans = tokenSpans(text)
    expect(spans.map((s) => s.token)).toEqual(['trijicon', 'p', '365', 'mag'])
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Trijicón', 'P', '365', 'mags'])
  })
  test('tokens agree with normalize on mixed text', () => {
    const text = '[WTS] ＳＩＧ P365XL — Señor’s 🔥 9mm $450'
    expect(tokenSpans(text).map((s) => s.token)).toEqual(normalize(text))
  })
})
