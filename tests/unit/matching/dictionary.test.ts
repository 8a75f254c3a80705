import { describe, expect, test } from 'bun:test'
import {
  BUILTIN,
  BUILTIN_DICTIONARY,
  builtinDictionary,
  canonical,
  canonicalWithOffsets,
  categoryNames,
  compileDictionary,
  findCategories,
  mergeDictionary,
  parseDictionaryJson,
} from '../../../src/matching/dictionary'
import { normalize, normalizeWithOffsets } from '../../../src/matching/normalize'
import { readdirSync, readFileSync } from 'node:fs'

const canon = (text: string) => canonical(normalize(text)).join(' ')
const cats = (text: string) => [...new Set(findCategories(canonical(normalize(text))).map((c) => c.token))].sort()

describe('aliases: one canonical spelling on both sides', () => {
  const cases: [string, string][] = [
    ['EO Tech EXPS3', 'eotech exp 3'],
    ['EOTech', 'eotech'],
    ['Sure Fire X300', 'surefire x 300'],
    ['G-Shock', 'gshock'],
    ['G Shock', 'gshock'],
    ['GShock', 'gshock'],
    ['Night Force NX8', 'nightforce nx 8'],
    ['NF ATACR', 'nightforce atacr'],
    ['S&B PMII', 'schmidt bender pmii'],
    ['S and B short dot', 'schmidt bender short dot'],
    ['Schmidt & Bender', 'schmidt bender'],
    ['Schmidt and Bender', 'schmidt bender'],
    ['Sig Sauer P365', 'sig p 365'],
    ['SigSauer', 'sig'],
    ['G19', 'glock 19'],
    ['G-19 Gen5', 'glock 19 gen 5'],
    ['Glock G19', 'glock 19'],
    ['G43X', 'glock 43 x'],
    ['G48', 'glock 48'],
    ['G26', 'glock 26'],
    ['G45', 'glock 45'],
    ['EOTech G45 magnifier', 'eotech g 45 magnifier'],
    ['G33 magnifier', 'g 33 magnifier'],
    ['5.56 M855', '556 m 855'],
    ['556 M855', '556 m 855'],
    ['7.62x39', '762 x 39'],
    ['762x39', '762 x 39'],
    ['5.45x39', '545 x 39'],
    ['.223 Rem', '223'],
    ['6.5 Creedmoor', '65 creedmoor'],
    ['6.5CM', '65 creedmoor'],
    ['300 BLK', '300 blackout'],
    ['300 AAC Blackout', '300 blackout'],
    ['P-Mag', 'pmag'],
    ['Trij RMR', 'trijicon rmr'],
    ['nightvision', 'night vision'],
    ['Swatch x Omega Mission to Mars', 'moonswatch mission to mar'],
    ['Omega Speedy Tuesday', 'omega speedmaster tuesday'],
    ['Casioak GA2100', 'gshock ga 2100 ga 2100'],
    ['ASRock mobo', 'asrock motherboard'],
    ['plain words stay', 'plain word stay'],
  ]
  for (const [text, want] of cases) test(`${text} → ${want}`, () => expect(canon(text)).toBe(want))

  test('every row is canonical after one pass (canonical ∘ canonical = canonical)', () => {
    for (const row of BUILTIN_DICTIONARY.aliases) {
      for (const text of [row.from, row.to, `x ${row.from} y`]) {
        const once = canonical(normalize(text))
        expect(canonical(once)).toEqual(once)
      }
    }
  })

  test('a text with no alias comes back as the same array', () => {
    const toks = normalize('trijicon rmr type 2')
    expect(canonical(toks)).toBe(toks)
  })

  test('rows never cross the title/body seam', () => {
    expect(canonical(['eo', '', 'tech'])).toEqual(['eo', '', 'tech'])
  })

  test('offsets: a joined compound spans its words; a same-length rewrite keeps each span', () => {
    const text = 'EO Tech and G19'
    const n = normalizeWithOffsets(text)
    const r = canonicalWithOffsets(n.tokens, n.starts, n.ends)
    expect(r.tokens).toEqual(['eotech', 'and', 'glock', '19'])
    expect(r.tokens.map((_, i) => text.slice(r.starts[i], r.ends[i]))).toEqual(['EO Tech', 'and', 'G', '19'])
  })
})

describe('categories: a post carries the category token of each member it names', () => {
  const cases: [string, string[]][] = [
    ['Trijicon RMR Type 2', ['@red-dot']],
    ['Holosun 507C X2', ['@red-dot']],
    ['Holosun 508T', ['@red-dot']],
    ['Aimpoint T-2', ['@red-dot']],
    ['Aimpoint Micro T1', ['@red-dot']],
    ['Aimpoint ACRO P-2', ['@red-dot']],
    ['Sig Romeo Zero', ['@red-dot']],
    ['Sig Romeo5', ['@red-dot']],
    ['Leupold Delta Point Pro', ['@red-dot']],
    ['Trijicon MRO', ['@red-dot']],
    ['Aimpoint Comp M4', ['@red-dot']],
    ['cheap red dot', ['@red-dot']],
    ['Holosun 509T X2', ['@red-dot']],
    ['Shield RMSc 4 MOA', ['@red-dot']],
    ['Holosun HS503R', ['@red-dot']],
    ['Swampfox Kingslayer', ['@red-dot']],
    // EOTech sights are holographic, not red dots; "rds" in a post is rounds
    ['EOTech EXPS2-2', ['@holographic']],
    ['EOTech 518', ['@holographic']],
    ['Federal 9mm 1000 rds', []],
    ['Zotac 4070 Ti Super', ['@gpu']],
    ['Intel i7-12700K', ['@cpu']],
    ['Lenovo ThinkPad T14', ['@laptop']],
    ['Gigabyte B650 Aorus', ['@motherboard']],
    ['NZXT Kraken 360', ['@aio']],
    ['Vortex Razor Gen III 1-10x24', ['@lpvo']],
    ['Nightforce NX8 1-8x24', ['@lpvo']],
    ['Primary Arms 1-6x', ['@lpvo']],
    ['Leupold VX-6HD 1-6', []],
    ['Trijicon VCOG', ['@lpvo']],
    ['Trijicon ACOG TA31', ['@acog', '@prism']],
    ['PVS-14 with Gen 3 tube', ['@nods']],
    ['L3 BNVD', ['@nods']],
    ['Rugged Obsidian 45', ['@suppressor']],
    ['SureFire SOCOM 556', ['@suppressor']],
    ['Sig SRD 762', ['@suppressor']],
    ['Surefire X300U', ['@weapon-light']],
    ['Streamlight TLR-1 HL', ['@weapon-light']],
    ['EVGA RTX 4070 Ti', ['@gpu']],
    ['Radeon RX 7900 XTX', ['@gpu']],
    ['Magpul 30rd Gen M3', ['@pmag']],
    ['Safariland 6390 holster', ['@holster']],
    ['Glock 19 Gen 5', []],
    ['rtx', []],
  ]
  for (const [text, want] of cases) test(`${text} → ${want.join(' ') || 'none'}`, () => expect(cats(text)).toEqual(want))

  test('the token sits at the position of the member’s first token', () => {
    expect(findCategories(canonical(normalize('selling holosun 507c')))).toEqual([{ token: '@red-dot', pos: 2 }])
  })
  test('category tokens cannot be typed: normalize never yields "@"', () => {
    expect(normalize('@red-dot')).toEqual(['red', 'dot'])
  })
  test('names for the term side: canonical words with their token', () => {
    const names = categoryNames()
    expect(names).toContainEqual({ id: 'red-dot', token: '@red-dot', words: ['red', 'dot'] })
    expect(names).toContainEqual({ id: 'lpvo', token: '@lpvo', words: ['lpvo'] })
    expect(names).toContainEqual({ id: 'nods', token: '@nods', words: ['nod'] })
    expect(names).toContainEqual({ id: 'suppressor', token: '@suppressor', words: ['can'] })
    expect(names).toContainEqual({ id: 'gpu', token: '@gpu', words: ['graphic', 'card'] })
  })
  test('term-only names ("can") do not mark posts', () => {
    expect(cats('I can ship today')).toEqual([])
  })
})

describe('an admin dictionary file', () => {
  test('a valid file merges: new alias, new category, more members for a known one', () => {
    const r = parseDictionaryJson(
      JSON.stringify({
        aliases: [{ from: 'bcm', to: 'bravo company' }],
        categories: [
          { id: 'red-dot', names: [], members: ['vortex defender'] },
          { id: 'watch-strap', names: ['watch strap'], members: ['nato strap', 'barton #'] },
        ],
      }),
    )
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const dict = compileDictionary(mergeDictionary(BUILTIN_DICTIONARY, r.dictionary))
    expect(canonical(normalize('BCM upper'), dict)).toEqual(['bravo', 'company', 'upper'])
    expect(findCategories(canonical(normalize('Vortex Defender CCW'), dict), dict).map((c) => c.token)).toEqual(['@red-dot'])
    expect(findCategories(canonical(normalize('Barton 20 mm'), dict), dict).map((c) => c.token)).toEqual(['@watch-strap'])
    // the built-in rows are still there, the built-in data untouched
    expect(canonical(normalize('G19'), dict)).toEqual(['glock', '19'])
    expect(BUILTIN_DICTIONARY.categories.find((c) => c.id === 'red-dot')!.members).not.toContain('vortex defender')
    expect(canonical(normalize('BCM'), BUILTIN)).toEqual(['bcm'])
  })

  const bad: [string, string, RegExp][] = [
    ['not JSON', '{', /not JSON/],
    ['a list', '[]', /must be an object/],
    ['unknown key', '{"alias": []}', /unknown key "alias"/],
    ['aliases not a list', '{"aliases": {}}', /"aliases" must be a list/],
    ['alias without to', '{"aliases": [{"from": "x"}]}', /aliases\[0\] must be/],
    ['alias from with no word', '{"aliases": [{"from": "!!", "to": "x"}]}', /has no word/],
    ['bad category id', '{"categories": [{"id": "Red Dot", "names": [], "members": []}]}', /categories\[0\]\.id/],
    ['members not a list', '{"categories": [{"id": "x", "names": [], "members": "rmr"}]}', /members must be a list/],
    ['empty member', '{"categories": [{"id": "x", "names": [], "members": [""]}]}', /non-empty texts/],
  ]
  for (const [name, text, error] of bad) {
    test(`refused: ${name}`, () => {
      const r = parseDictionaryJson(text)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toMatch(error)
    })
  }
  test('an empty object is a valid (empty) dictionary', () => {
    expect(parseDictionaryJson('{}')).toEqual({ ok: true, dictionary: { aliases: [], categories: [] } })
  })
})

describe('the built-in data files (src/matching/dictionary/*.json, one per market)', () => {
  const file = (market: string, body: object) => ({ market, about: 'test', aliases: [], categories: [], ...body })
  test('every file names its market and says what it covers; the built-in dictionary is their rows in file order', () => {
    const dir = new URL('../../../src/matching/dictionary/', import.meta.url).pathname
    const files = Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(dir + f, 'utf8'))]),
    )
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['guns', 'hardware', 'watches']))
    const joined = builtinDictionary(files)
    expect(joined.aliases.length).toBe(BUILTIN_DICTIONARY.aliases.length)
    expect(new Set(joined.categories.map((c) => c.id))).toEqual(new Set(BUILTIN_DICTIONARY.categories.map((c) => c.id)))
  })
  test('a file whose market is not its name, or without "about", stops the import naming the file', () => {
    expect(() => builtinDictionary({ guns: file('hardware', {}) })).toThrow(/dictionary\/guns\.json: needs "market": "guns"/)
    expect(() => builtinDictionary({ guns: { market: 'guns', aliases: [] } })).toThrow(/an "about" text/)
  })
  test('a bad row is reported with the file and the row', () => {
    expect(() => builtinDictionary({ audio: file('audio', { aliases: [{ from: 'modi' }] }) })).toThrow(/dictionary\/audio\.json: aliases\[0\] must be/)
  })
  test('a category belongs to one market', () => {
    const gpu = { id: 'gpu', names: ['gpu'], members: ['rtx #'] }
    expect(() => builtinDictionary({ hardware: file('hardware', { categories: [gpu] }), guns: file('guns', { categories: [gpu] }) })).toThrow(
      /dictionary\/guns\.json: category "gpu" is already in dictionary\/hardware\.json/,
    )
  })
  test('"why" on a row or a category is for people: the rows read the same with or without it', () => {
    const d = builtinDictionary({ watches: file('watches', { aliases: [{ from: 'speedy', to: 'speedmaster', why: 'nickname' }] }) })
    expect(d.aliases).toEqual([{ from: 'speedy', to: 'speedmaster' }])
  })
})

describe('markets beyond guns: audio, watches, hardware (dictionary/*.json)', () => {
  const cases: [string, string[]][] = [
    // audio: DACs, headphone amps (DAC/amps are both), IEMs by maker and model, speakers by line
    ['Schiit Modi 3', ['@dac']],
    ['Grace SDac', ['@dac']],
    ['Fiio Q1', ['@dac', '@headphone-amp']],
    ['SMSL IQ portable dac/amp', ['@dac', '@headphone-amp']],
    ['Schiit Magni 3', ['@headphone-amp']],
    ['Fiio A5 Portable Amp', ['@headphone-amp']],
    ['Tin HiFi T4', ['@iem']],
    ['Etymotic ER4B', ['@iem']],
    ['Moondrop Blessing 2', ['@iem']],
    ['Vanatoo T0', ['@speakers']],
    // a bare "amp" (a car amp, a speaker amp) is no headphone amp
    ['Alpine car amp', []],
    // watches: chronograph and quartz calibres; "mechaquartz" is quartz (battery timekeeping, mechanical chronograph)
    ['Seiko 7A28-7079', ['@chronograph', '@quartz']],
    ['Seiko 7T92-0DW0', ['@chronograph', '@quartz']],
    ['Seiko 6139 Bruce Lee', ['@chronograph']],
    ['Seiko SBTR027 mechaquartz', ['@chronograph', '@quartz']],
    ['Seiko 7N42', ['@quartz']],
    ['Citizen AQ6100 Chronomaster', ['@quartz']],
    // an automatic calibre is not quartz
    ['Seiko 7S26 SKX007', []],
    // hardware: memory kits, AMD X3D processors
    ['Corsair Vengeance 32GB DDR5', ['@ram']],
    ['7800X3D', ['@cpu', '@ryzen']],
    // hardware: cards by model, Xeons by model, screens by size and resolution, drives, servers, computers
    ['Nvidia 1080Ti', ['@gpu']],
    ['Sapphire R9 390 8gb', ['@gpu']],
    ['Xeon E5-2620', ['@cpu', '@xeon']],
    ['Omen 32" 1440p', ['@monitor']],
    ['4TB x 5 Seagate NAS drives', ['@hdd']],
    ['HP Proliant DL380P G8', ['@server']],
    ['Dell OptiPlex 7050', ['@computer']],
    // a bare resolution is what a card is for, not a screen
    ['RTX 3070 for 1440p gaming', ['@gpu']],
    // keyboards: boards by line, keycap sets by maker and profile, switches, artisans, Topre lines
    ['HHKB Pro 2', ['@keyboard', '@topre']],
    ['Winkeyless b.mini', ['@keyboard']],
    ['GMK Olivia base kit', ['@keycaps']],
    ['ePBT Sushi', ['@keycaps']],
    ['Cherry MX Blues', ['@switches']],
    ['HKP Raven', ['@artisan']],
    // audio: a player is a DAP
    ['COWON Plenue L', ['@dap']],
  ]
  for (const [text, want] of cases) test(`${text} → ${want.join(' ') || 'no category'}`, () => expect(cats(text)).toEqual(want))
  test('"Baby Grand Seiko" is the Grand Quartz, not a Grand Seiko; the VRTX is a PowerEdge', () => {
    expect(canon('Baby Grand Seiko')).toBe('grand quartz')
    expect(canon('Dell VRTX')).toBe('dell poweredge vrtx')
  })
  test('brands named by model only: the LCD-X is an Audeze, the Aeolus a ZMF', () => {
    expect(canon('Aeolus LTD Cocobolo, LCD-X')).toBe('zmf aeolu ltd cocobolo audeze lcd x') // ("aeolus" folds like a plural, on both sides)
    expect(canon('Audeze LCD-X')).toBe('audeze lcd x')
    expect(canon('ZMF Aeolus')).toBe('zmf aeolu')
  })
  test('the category words are names a term can use', () => {
    const names = new Set(categoryNames().map((n) => n.words.join(' ')))
    for (const n of ['dac', 'headphone amp', 'iem', 'speaker', 'chronograph', 'quartz', 'ram']) expect(names.has(n)).toBe(true)
  })
})
