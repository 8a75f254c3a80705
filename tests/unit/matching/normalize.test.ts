import { describe, expect, test } from 'bun:test'
import { fold, foldPlural, normalize, normalizeWithOffsets, tokenSpans } from '../../../src/matching/normalize'

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
    ['styled (mathematical bold) letters: NFKD before lowercase', '𝗧𝗿𝗶𝗷𝗶𝗰𝗼𝗻 𝗥𝗠𝗥', ['trijicon', 'rmr']],
    ['styled italic letters and bold digits', '𝘈𝘪𝘮𝘱𝘰𝘪𝘯𝘵 𝐓𝟐', ['aimpoint', 't', '2']],
    ['circled letters', 'ⓇⓂⓇ', ['rmr']],
  ]
  for (const [name, input, want] of cases) {
    test(name, () => expect(normalize(input)).toEqual(want))
  }

  // (its speed is measured in bench/matcher.ts, 'prepare post': a timed assertion here flaked on a loaded CI machine)
  test('a 10k-character body normalises fully', () => {
    const body = 'trijicon rmr '.repeat(800)
    const toks = normalize(body)
    expect(toks.length).toBe(1600)
    expect(toks.slice(-2)).toEqual(['trijicon', 'rmr'])
  })
})

describe('foldPlural: one rule per ending, singular and plural agree', () => {
  const cases: [string, string, string][] = [
    ['-ies → y', 'batteries', 'battery'],
    ['-ies singular keeps y', 'battery', 'battery'],
    ['-ies → y (accessories)', 'accessories', 'accessory'],
    ['-ie words of 5+ letters end in y too', 'hoodie', 'hoody'],
    ['… so their plural agrees', 'hoodies', 'hoody'],
    ['4-letter -ies just loses s', 'ties', 'tie'],
    ['-xes', 'boxes', 'box'],
    ['-sses', 'glasses', 'glass'],
    ['-ches', 'watches', 'watch'],
    ['-shes', 'brushes', 'brush'],
    ['-zzes', 'buzzes', 'buzz'],
    ['-ses after a vowel is -se + s', 'cases', 'case'],
    ['-zes after a vowel is -ze + s', 'sizes', 'size'],
    ['-pes is -pe + s (scopes)', 'scopes', 'scope'],
    ['-ves from -fe (table)', 'knives', 'knife'],
    ['-ves from -f (table)', 'halves', 'half'],
    ['-ves not in the table is -ve + s', 'sleeves', 'sleeve'],
    ['gloves', 'gloves', 'glove'],
    ['plain -s', 'mags', 'mag'],
    ['ss stays', 'glass', 'glass'],
    ['3 letters stay', 'gas', 'gas'],
    ['4-letter -es loses only s', 'axes', 'axe'],
  ]
  for (const [name, input, want] of cases) test(`${name}: ${input} → ${want}`, () => expect(foldPlural(input)).toBe(want))

  test('folding is idempotent on every case', () => {
    for (const [, input] of cases) expect(foldPlural(foldPlural(input))).toBe(foldPlural(input))
  })
})

describe('normalizeWithOffsets: the same tokens, with where each starts and ends', () => {
  for (const text of ['[WTS] Trijicon RMR - $450', 'P365XL, 9mm mags', '𝗧𝗿𝗶𝗷𝗶𝗰𝗼𝗻 𝗥𝗠𝗥 ＄４００', 'Señor’s knives', '']) {
    test(JSON.stringify(text), () => {
      const r = normalizeWithOffsets(text)
      expect(r.tokens).toEqual(normalize(text))
      expect(r.starts.length).toBe(r.tokens.length)
      expect(r.ends.length).toBe(r.tokens.length)
      for (let i = 0; i < r.tokens.length; i++) {
        expect(r.ends[i]!).toBeGreaterThan(r.starts[i]!)
        if (i > 0) expect(r.starts[i]!).toBeGreaterThanOrEqual(r.ends[i - 1]!)
      }
    })
  }
  test('ASCII offsets point at the original characters', () => {
    const text = 'Holster for Glock-19s'
    const r = normalizeWithOffsets(text)
    expect(r.tokens.map((t, i) => [t, text.slice(r.starts[i], r.ends[i])])).toEqual([
      ['holster', 'Holster'],
      ['for', 'for'],
      ['glock', 'Glock'],
      ['19', '19'],
      ['s', 's'],
    ])
  })
})

describe('normalize: the ASCII fast path gives the Unicode steps’ tokens', () => {
  // The steps of the file header, spelled out: what normalize must return for any text.
  const byTheSteps = (text: string) => {
    const runs = [...fold(text).matchAll(/\p{L}+|\p{N}+/gu)].map((m) => ({ t: foldPlural(m[0]), start: m.index, end: m.index + m[0].length }))
    // step 5: two letter runs of at most 2 letters glued by one "&" are one word ("s&w"); a joined word joins no more
    const out: typeof runs = []
    for (const r of runs) {
      const p = out.at(-1)
      const prev = out.at(-2)
      const letters = (x: string) => /^\p{L}{1,2}$/u.test(x)
      if (p && letters(p.t) && letters(r.t) && r.start - p.end === 1 && fold(text)[p.end] === '&' && (!prev || prev.end !== p.start))
        out[out.length - 1] = { t: `${p.t}&${r.t}`, start: p.start, end: r.end }
      else out.push(r)
    }
    return out.map((r) => r.t)
  }

  test('every ASCII character, alone and between words', () => {
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c)
      for (const text of [ch, `ab${ch}cd`, `9${ch}mags`, `${ch}${ch}s`]) expect(normalize(text)).toEqual(byTheSteps(text))
    }
  })

  test('random ASCII texts, and the same with one non-ASCII character', () => {
    let seed = 3
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const alphabet = 'aAbBsSzZ09 5-./$"*|<>_&&\t\n'
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 30) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
      expect(normalize(text)).toEqual(byTheSteps(text))
      const mixed = text + 'É'
      expect(normalize(mixed)).toEqual(byTheSteps(mixed))
    }
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
