// Presets (issue 25 §4): the shipped catalog is valid and holds the markets the issue names; a bad catalog is
// refused naming its first bad field; and every preset's title grammar is table-tested on titles of its market
// (tests/fixtures/presets/titles.json: recorded titles with their sources, a few marked real: false where no
// recording was found). Each row: title → code, sides, location, state, as classification reads it (no flair:
// the Atom feed and forum feeds have none) — and for a deals preset, every post is the deals forum's.
import { describe, expect, test } from 'bun:test'
import { classify, postTag } from '../../../src/forums/classify'
import { detectPostState } from '../../../src/forums/post-state'
import { titleSides } from '../../../src/forums/sides'
import { titleLocation } from '../../../src/matching/title-grammar'
import { defaultPair, pairByName, parsePresets, PRESETS, presetByName, type Preset } from '../../../src/sources/presets'
import catalog from '../../../src/sources/presets.json'
import { TITLE_ROWS as ROWS, TITLE_SOURCES as SOURCES, titleOf } from '../../fixtures/presets/titles'

describe('the shipped catalog', () => {
  test('holds every market the issue names, each with its forum', () => {
    const want: [string, 'accessories' | 'deals'][] = [
      ['hardwareswap', 'accessories'],
      ['CanadianHardwareSwap', 'accessories'],
      ['homelabsales', 'accessories'],
      ['mechmarket', 'accessories'],
      ['AVexchange', 'accessories'],
      ['photomarket', 'accessories'],
      ['Watchexchange', 'accessories'],
      ['gundeals', 'deals'],
      ['buildapcsales', 'deals'],
      ['frugalmalefashion', 'deals'],
      ['GameDeals', 'deals'],
    ]
    for (const [sub, forum] of want) {
      const p = PRESETS.presets.find((x) => x.kind === 'reddit' && x.subreddit.toLowerCase() === sub.toLowerCase())
      expect([sub, p?.forum]).toEqual([sub, forum])
    }
    const classifieds = presetByName('forum-classifieds')!
    expect([classifieds.kind, classifieds.forum, classifieds.grammar]).toEqual(['feed', 'accessories', 'classifieds'])
  })
  test("the default pair is the spec's forums", () => {
    const d = defaultPair()
    expect([d.pair.name, d.accessories.kind === 'reddit' && d.accessories.subreddit, d.deals.kind === 'reddit' && d.deals.subreddit]).toEqual([
      'spec',
      'GunAccessoriesForSale',
      'gundeals',
    ])
    expect(PRESETS.pairs.filter((p) => p.default)).toHaveLength(1)
  })
  test('a ready hardware pair: r/hardwareswap with r/buildapcsales, found by name in any case', () => {
    const p = pairByName(' Hardware ')!
    expect([p.accessories.name, p.deals.name]).toEqual(['hardwareswap', 'buildapcsales'])
    expect(pairByName('nope')).toBeNull()
    expect(presetByName('MECHMARKET')?.name).toBe('mechmarket')
  })
  test('labels and categories: the names shown', () => {
    const hws = presetByName('hardwareswap')!
    expect([hws.label, hws.short, hws.categories]).toEqual(['Hardwareswap', 'HWS', { wts: 'HWS WTS', wtb: 'HWS WTB' }])
    expect(presetByName('buildapcsales')!.categories).toEqual({ gd: 'BAPCS' })
  })
})

describe('a bad catalog is refused, naming the first bad field', () => {
  const base = () => structuredClone(catalog) as { presets: Record<string, unknown>[]; pairs: Record<string, unknown>[] }
  const cases: [string, (c: ReturnType<typeof base>) => void, RegExp][] = [
    ['not a catalog', (c) => ((c as unknown as { presets: unknown }).presets = 'x'), /\(root\)/],
    ['an unknown kind', (c) => (c.presets[1]!.kind = 'push'), /presets\[1\]\.kind must be one of reddit, feed/],
    ['an unknown grammar', (c) => (c.presets[1]!.grammar = 'reddit'), /presets\[1\]\.grammar must be one of/],
    ['a deals grammar on the accessories forum', (c) => (c.presets[1]!.grammar = 'deals'), /presets\[1\]\.grammar cannot be deals/],
    ['a bad subreddit', (c) => (c.presets[1]!.subreddit = 'r/hardware swap'), /presets\[1\]\.subreddit must be a subreddit name/],
    ['a feed without its address pattern', (c) => delete c.presets.find((p) => p.kind === 'feed')!.urlPattern, /urlPattern must be a text/],
    ['a feed pattern that is not http(s)', (c) => (c.presets.find((p) => p.kind === 'feed')!.urlPattern = 'ftp://{board}/x'), /urlPattern must be an http/],
    ['a field that is not a preset field', (c) => (c.presets[1]!.url = 'https://x'), /presets\[1\]\.url is not a preset field/],
    ['a missing wtb name', (c) => delete (c.presets[1]!.categories as Record<string, unknown>).wtb, /presets\[1\]\.categories\.wtb must be a text/],
    ['a gd name on the accessories forum', (c) => ((c.presets[1]!.categories as Record<string, unknown>).gd = 'X'), /categories\.gd is not a preset field/],
    ['a short name with a space', (c) => (c.presets[1]!.short = 'H WS'), /presets\[1\]\.short must be 2–16 letters or digits/],
    ['a repeated name', (c) => (c.presets[2]!.name = c.presets[1]!.name), /presets\[2\]\.name repeats "hardwareswap"/],
    ['a pair naming no preset', (c) => (c.pairs[2]!.deals = 'slickdeals'), /pairs\[2\]\.deals names no preset/],
    ['a pair with its forums crossed', (c) => (c.pairs[2]!.deals = 'hardwareswap'), /pairs\[2\]\.deals names a preset of the accessories forum/],
    ['two default pairs', (c) => (c.pairs[2]!.default = true), /exactly one default pair \(has 2\)/],
    ["a default that is not the spec's pair", (c) => ((c.pairs[0]!.default = false), (c.pairs[2]!.default = true)), /must be the spec's pair/],
  ]
  for (const [name, spoil, message] of cases)
    test(name, () => {
      const c = base()
      spoil(c)
      expect(() => parsePresets(c)).toThrow(message)
    })
  test('the shipped file parses to the exported catalog', () => expect(parsePresets(catalog)).toEqual(PRESETS))
})

describe('table tests per preset, from titles of its market', () => {
  test('every preset has at least 3 rows, every row a known source', () => {
    for (const p of PRESETS.presets) expect([p.name, (ROWS[p.name] ?? []).length >= 3]).toEqual([p.name, true])
    for (const [name, rows] of Object.entries(ROWS)) {
      expect(presetByName(name)?.name).toBe(name)
      for (const r of rows) expect([name, r.src, SOURCES[r.src] !== undefined]).toEqual([name, r.src, true])
    }
  })
  test('the markets the issue names are tested on real titles (all but r/frugalmalefashion, none recorded)', () => {
    const realOnly = Object.entries(ROWS).filter(([, rows]) => rows.some((r) => SOURCES[r.src]!.real))
    expect(realOnly.map(([n]) => n).sort()).toEqual(
      [
        'avexchange',
        'buildapcsales',
        'canadianhardwareswap',
        'gamedeals',
        'gundeals',
        'hardwareswap',
        'homelabsales',
        'mechmarket',
        'photomarket',
        'watchexchange',
      ].sort(),
    )
  })
  for (const [name, rows] of Object.entries(ROWS)) {
    const preset = presetByName(name) as Preset
    describe(`${name} (${preset.grammar})`, () => {
      for (const r of rows) {
        const title = titleOf(r)
        test(title, () => {
          expect({ code: postTag(title, null), sides: titleSides(title), location: titleLocation(title), state: detectPostState({ title }) }).toEqual({
            code: r.code,
            sides: r.sides,
            location: r.location,
            state: r.state,
          })
          const sub = preset.kind === 'reddit' ? preset.subreddit : 'classifieds'
          const forums = preset.forum === 'deals' ? { accessories: 'elsewhere', deals: sub } : { accessories: sub, deals: 'elsewhere' }
          const c = classify({ title, subreddit: sub, flair: null }, forums)!
          if (preset.forum === 'deals') expect([c.forum, r.code]).toEqual(['gd', null])
          else expect([c.forum, c.classification]).toEqual(['product', r.code === 'wts' || r.code === 'wtb' ? r.code : null])
        })
      }
    })
  }
})
