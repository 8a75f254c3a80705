// One title grammar (issue 24 §5): classification (src/forums) and matching (src/matching) read a title's
// tags and [H]/[W] sides through src/matching/title-grammar.ts, so for every title below they agree:
// the same side texts, the classification those sides give, the location tag, the item segments, and
// WTS/WTB terms that read only their own side. Titles are shaped after real r/hardwareswap, r/mechmarket,
// r/watchexchange and GAFS titles (the hardwareswap ones from the Atom sample in /work/shared/feeds).
import { describe, expect, test } from 'bun:test'
import { classify } from '../../../src/forums/classify'
import { titleSides } from '../../../src/forums/sides'
import { compileTerm, matchesPost, preparePost } from '../../../src/matching/compile'
import { canonical } from '../../../src/matching/dictionary'
import { normalize } from '../../../src/matching/normalize'
import { parseTerm } from '../../../src/matching/parse'
import { isLocation, readTitleGrammar, titleLocation } from '../../../src/matching/title-grammar'

const forums = { accessories: 'hardwareswap', deals: 'gundeals' }

type Row = {
  title: string
  /** classification without flair (the Atom feed has none) */
  tag: 'wts' | 'wtb' | null
  location: string | null
  /** the side texts, or null without markers */
  sides: { have: string; want: string } | null
  /** number of item segments the matcher reads in the title */
  items: number
  /** a word on the have side: a WTS term finds it, a WTB term does not */
  have?: string
  /** a word on the want side: a WTB term finds it, a WTS term does not */
  want?: string
}

const rows: Row[] = [
  // the case: [Have]/[Want] read by classification and matching alike
  { title: '[Have] RMR [Want] T2', tag: null, location: null, sides: { have: 'RMR', want: 'T2' }, items: 2, have: 'rmr', want: 't2' },
  { title: '[Have] RMR [Want] T2 or PayPal', tag: 'wts', location: null, sides: { have: 'RMR', want: 'T2 or PayPal' }, items: 2, have: 'rmr', want: 't2' },
  { title: '[Have] Geissele SSA-E [Want] Money', tag: 'wts', location: null, sides: { have: 'Geissele SSA-E', want: 'Money' }, items: 2, have: 'geissele' },
  { title: '{Has} Surefire X300U {Wants} PayPal', tag: 'wts', location: null, sides: { have: 'Surefire X300U', want: 'PayPal' }, items: 2, have: 'x300u' },
  // r/hardwareswap (Atom sample shapes)
  { title: '[USA-FL] [H] Paypal [W] Noctua c14', tag: 'wtb', location: 'USA-FL', sides: { have: 'Paypal', want: 'Noctua c14' }, items: 2, want: 'noctua' },
  {
    title: '[USA-SC] [H] Ryzen 5 1600 and MSI B350 Gaming Plus [W] PayPal',
    tag: 'wts',
    location: 'USA-SC',
    sides: { have: 'Ryzen 5 1600 and MSI B350 Gaming Plus', want: 'PayPal' },
    items: 2,
    have: 'ryzen',
  },
  {
    title: '[USA-IL][H]LOCAL cash, Paypal[W]GPU, SSD',
    tag: 'wtb',
    location: 'USA-IL',
    sides: { have: 'LOCAL cash, Paypal', want: 'GPU, SSD' },
    items: 3,
    want: 'ssd',
  },
  {
    title: '[USA-CA]-[H] PayPal [W] EVGA GTX 780Ti SC w/ ACX Cooler, Mini-ITX Stuff, SSDs',
    tag: 'wtb',
    location: 'USA-CA',
    sides: { have: 'PayPal', want: 'EVGA GTX 780Ti SC w/ ACX Cooler, Mini-ITX Stuff, SSDs' },
    items: 5,
    want: 'evga',
  },
  {
    title: '[USA-NY] [H] Acer Predator X34 [W] Monitors, Computers',
    tag: null,
    location: 'USA-NY',
    sides: { have: 'Acer Predator X34', want: 'Monitors, Computers' },
    items: 3,
    have: 'predator',
    // (not "monitor": the Predator X34 on the have side is one, dictionary/hardware.json)
    want: 'computer',
  },
  {
    title: '[USA-MO] [H] HyperX alloy with blue switches [W] Verified PayPal or black gateron keyboard.',
    tag: 'wts',
    location: 'USA-MO',
    sides: { have: 'HyperX alloy with blue switches', want: 'Verified PayPal or black gateron keyboard.' },
    items: 2,
    have: 'hyperx',
    want: 'gateron',
  },
  {
    title: '[US-CA] [H] GMK Olivia++ base, Keychron Q1 [W] PayPal',
    tag: 'wts',
    location: 'US-CA',
    sides: { have: 'GMK Olivia++ base, Keychron Q1', want: 'PayPal' },
    items: 3,
    have: 'keychron',
  },
  {
    title: '[CAN-ON] [H] RTX 3070 [W] EMT, Local Cash',
    tag: 'wts',
    location: 'CAN-ON',
    sides: { have: 'RTX 3070', want: 'EMT, Local Cash' },
    items: 2,
    have: 'rtx',
  },
  {
    title: '[EU-DE] [H] Ryzen 7 7800X3D [W] PayPal G&S',
    tag: 'wts',
    location: 'EU-DE',
    sides: { have: 'Ryzen 7 7800X3D', want: 'PayPal G&S' },
    items: 2,
    have: 'ryzen',
  },
  { title: '[UK] [H] HHKB Pro 2 [W] PayPal', tag: 'wts', location: 'UK', sides: { have: 'HHKB Pro 2', want: 'PayPal' }, items: 2, have: 'hhkb' },
  // a want side ends with its sentence; the rest is on no side
  {
    title: '[USA-TX] [H] Steam Deck 512GB [W] PayPal. Local pickup in Austin',
    tag: 'wts',
    location: 'USA-TX',
    sides: { have: 'Steam Deck 512GB', want: 'PayPal.' },
    items: 3,
    have: 'steam',
  },
  // one side only: [W] is a buyer, [H] a seller
  { title: '[W] Glock 19 Gen 5 mags', tag: 'wtb', location: null, sides: { have: '', want: 'Glock 19 Gen 5 mags' }, items: 1, want: 'glock' },
  {
    title: '[USA-TX] [H] Aimpoint T2 w/ LaRue mount',
    tag: 'wts',
    location: 'USA-TX',
    sides: { have: 'Aimpoint T2 w/ LaRue mount', want: '' },
    items: 1,
    have: 'aimpoint',
  },
  { title: 'H: Holosun 508T W: PayPal', tag: 'wts', location: null, sides: { have: 'Holosun 508T', want: 'PayPal' }, items: 2, have: 'holosun' },
  { title: 'Have: Glock 19 mags x4 Want: Venmo', tag: 'wts', location: null, sides: { have: 'Glock 19 mags x4', want: 'Venmo' }, items: 2, have: 'glock' },
  // trade codes decide first; the sides still say which words a term reads
  { title: '[WTS] [H] PayPal [W] Aimpoint T2', tag: 'wts', location: null, sides: { have: 'PayPal', want: 'Aimpoint T2' }, items: 2, want: 'aimpoint' },
  { title: '[WTT] [H] RMR [W] Aimpoint T2', tag: null, location: null, sides: { have: 'RMR', want: 'Aimpoint T2' }, items: 2, have: 'rmr', want: 'aimpoint' },
  // GAFS / watchexchange tags without sides, with locations in every shape
  { title: '[WTS] [USA-TX] Aimpoint T2 - $600', tag: 'wts', location: 'USA-TX', sides: null, items: 1 },
  { title: '[WTS][TX] Trijicon RMR RM06 - $420', tag: 'wts', location: 'TX', sides: null, items: 1 },
  { title: '[WTB] [US-CA] Glock 19 Gen 5 mags', tag: 'wtb', location: 'US-CA', sides: null, items: 1 },
  { title: '[WTS/WTT] [CAN-ON] Eotech EXPS3-2', tag: 'wts', location: 'CAN-ON', sides: null, items: 1 },
  { title: '[WTS] [San Juan, PR] Holosun 507C - $250', tag: 'wts', location: 'San Juan, PR', sides: null, items: 1 },
  { title: '[FS] Surefire X300U [UK]', tag: 'wts', location: 'UK', sides: null, items: 1 },
  { title: '[WTS] Tudor Black Bay 58 Navy [AUS-NSW]', tag: 'wts', location: 'AUS-NSW', sides: null, items: 1 },
  { title: '[FSOT] Nightforce NX8 1-8x', tag: 'wts', location: null, sides: null, items: 1 },
  { title: '[WTB] Staccato P magazines', tag: 'wtb', location: null, sides: null, items: 1 },
  // groups that are not locations
  { title: '[WTS] [AR-15] BCM upper - $500', tag: 'wts', location: null, sides: null, items: 1 },
  { title: '[WTS] [SIG-MCX] handguard', tag: 'wts', location: null, sides: null, items: 1 },
  { title: '[WTS] Aimpoint T2 (OBO) [NIB]', tag: 'wts', location: null, sides: null, items: 1 },
]

/** Canonical tokens of a text, as the matcher compares them. */
const words = (text: string) => canonical(normalize(text)).join(' ')

/** The tokens the matcher puts on a side (1 have, 2 want), in order, without the marker's own word ("[H]", "Want:"). */
function matcherSide(title: string, code: 1 | 2): string {
  const p = preparePost({ title })
  return p.tokens
    .filter((_, i) => p.side[i] === code)
    .join(' ')
    .replace(/^(have|has|h|wants|want|w)\b ?/, '')
}

function matches(term: string, title: string, category: 'wts' | 'wtb'): boolean {
  const q = parseTerm(term)
  if (!q.ok) throw new Error(q.error)
  return matchesPost(compileTerm(q.query), preparePost({ title }), category)
}

describe('one title grammar: classification and matching read the same tags and sides', () => {
  test('the table has at least 30 titles', () => expect(rows.length).toBeGreaterThanOrEqual(30))
  for (const r of rows)
    test(r.title, () => {
      expect(classify({ title: r.title, subreddit: 'hardwareswap', flair: null }, forums)?.classification).toBe(r.tag)
      expect(titleLocation(r.title)).toBe(r.location)
      expect(titleSides(r.title)).toEqual(r.sides)
      // matching puts on each side exactly the words classification read there
      expect(matcherSide(r.title, 1)).toBe(words(r.sides?.have ?? ''))
      expect(matcherSide(r.title, 2)).toBe(words(r.sides?.want ?? ''))
      expect(preparePost({ title: r.title }).sided).toBe(r.sides !== null)
      expect(preparePost({ title: r.title }).segments.length - 1).toBe(r.items)
      if (r.have) {
        expect(matches(r.have, r.title, 'wts')).toBe(true)
        expect(matches(r.have, r.title, 'wtb')).toBe(false)
      }
      if (r.want) {
        expect(matches(r.want, r.title, 'wtb')).toBe(true)
        expect(matches(r.want, r.title, 'wts')).toBe(false)
      }
    })
})

describe('the grammar itself', () => {
  test('tags are read with their kinds', () => {
    const g = readTitleGrammar('[WTS/WTT] [USA-TX] [Optic] Aimpoint T2 [H] x [W] y')
    expect(g.tags.map((t) => [t.kind, t.text])).toEqual([
      ['code', 'WTS/WTT'],
      ['location', 'USA-TX'],
      ['other', 'Optic'],
      ['side', 'H'],
      ['side', 'W'],
    ])
    expect(g.codes).toEqual(['wts', 'wtt'])
  })
  test('locations and not', () => {
    for (const yes of [
      'USA-TX',
      'US-CA',
      'CAN-ON',
      'EU-DE',
      'AUS-NSW',
      'UK',
      'USA',
      'usa',
      'TX',
      'San Juan, PR',
      'Austin, TX',
      'Toronto, ON',
      ' UK-LDN ',
      'USA NC',
      'US-NY-NYC',
      'US-E',
      'CT-USA',
    ])
      expect([yes, isLocation(yes)]).toEqual([yes, true])
    for (const no of [
      'AR-15',
      'AK-47',
      'SIG-MCX',
      'WTS-WTT',
      'ok',
      'or',
      'Optic',
      'NIB',
      'OBO',
      'Holster, Mags',
      'Glock 19, RMR',
      'H',
      'W',
      'AR 15',
      'SIG MCX',
      'FDE USA',
      'MK-18',
      'XX-USA',
    ])
      expect([no, isLocation(no)]).toEqual([no, false])
  })
  test('the first location wins and keeps its text', () => {
    expect(titleLocation('[USA-CA] [H] RTX 3080 [W] PayPal [TX]')).toBe('USA-CA')
    expect(titleLocation('[WTS] [ San  Juan, PR ] x')).toBe('San Juan, PR')
  })
  test('a very long title is read up to its limit, in time linear in its length', () => {
    const g = readTitleGrammar('[USA-TX] [H] ' + 'RMR, '.repeat(50_000) + ' [W] PayPal')
    expect(g.location).toBe('USA-TX')
    expect(g.sides[0]!.side).toBe('have')
  })
})

describe('forum classifieds and r/photomarket forms (issue 25 §4)', () => {
  const codes: [string, string[]][] = [
    ['WTS: Aimpoint T2', ['wts']],
    ['FS Surefire X300U-A $200', ['wts']],
    ['For Sale: Trijicon ACOG TA31', ['wts']],
    ['FS/FT: Glock 19 Gen 5 slide', ['wts', 'wtt']],
    ['WTS/WTT: Surefire Scout M600', ['wts', 'wtt']],
    ['For Sale or Trade: Aimpoint PRO', ['wts', 'wtt']],
    ['FT: BCM upper', ['wtt']],
    ['ISO Holosun 508T', ['wtb']],
    ['SOLD - WTS: Aimpoint T2', ['wts']],
    ['[SOLD] FS Surefire X300U', ['wts']],
    ['[FS/FT] Eotech EXPS3-2', ['wts', 'wtt']],
    ['[S][USA-CA] Mamiya 7ii', ['wts']],
    ['[B] [USA-MO] Panasonic Lumix GH5', ['wtb']],
    ['[S/T][USA-CA] rb67 pro s', ['wts', 'wtt']],
    // not codes: a size run, a word that only starts like one
    ['[Uniqlo] Oxford shirts (S/M/L) $20', []],
    ['Fsx 2 optic', []],
  ]
  for (const [title, want] of codes) test(`codes of "${title}"`, () => expect(readTitleGrammar(title).codes).toEqual(want as never))

  const states: [string, string | null][] = [
    ['[WTS] Aimpoint T2 [SOLD]', 'sold'],
    ['[Closed] WTS: Larue mount', 'sold'],
    ['SOLD - WTS: Aimpoint T2', 'sold'],
    ['SOLD! WTS Holosun 507C', 'sold'],
    ['WTS: Aimpoint T2 - SOLD', 'sold'],
    ['WTS Glock mags *SOLD*', 'sold'],
    ['WTS: Aimpoint T2 SOLD!', 'sold'],
    ['WTS: Holosun 507C - SOLD, pls remove', 'sold'],
    ['FS: Magpul PRS stock - Please remove', 'sold'],
    ['[WTS] RMR [SOLD - pls remove]', 'sold'],
    ['FS: Nightforce NX8 1-8 (SPF)', 'pending'],
    ['WTS: Trijicon RMR SPF', 'pending'],
    ['WTS: Eotech EXPS3-0 - Pending', 'pending'],
    ['[Sale Pending] WTS: Eotech', 'pending'],
    ['[PENDING] WTS RMR - SOLD', 'sold'],
    // running text is not a mark
    ['WTS: Seiko SKX007 sold as a set with box', null],
    ['WTS: LaRue mount, pending a trade for a T2 too', null],
    ['[GPU] RTX 3080 - $699 (sold out at Best Buy, in stock at Newegg)', null],
    ['WTS: Aimpoint T2 Sold', null],
  ]
  for (const [title, want] of states) test(`state of "${title}"`, () => expect(readTitleGrammar(title).state).toBe(want as never))

  test('state groups are tagged as such, not as other', () => {
    expect(readTitleGrammar('[WTS] [SPF] [USA-TX] RMR').tags.map((t) => t.kind)).toEqual(['code', 'state', 'location'])
  })
  test('a place written last after a dash, when no tag gives one', () => {
    expect(titleLocation('For Sale: Trijicon ACOG TA31 - Dallas, TX')).toBe('Dallas, TX')
    expect(titleLocation('[USA-CA] WTS: ACOG - Dallas, TX')).toBe('USA-CA')
    expect(titleLocation('WTS: ACOG - Fort Worth, TX')).toBe('Fort Worth, TX')
    expect(titleLocation('WTS: ACOG - red, black')).toBe(null)
  })
})
