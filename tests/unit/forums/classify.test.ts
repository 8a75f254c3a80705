import { describe, expect, test } from 'bun:test'
import { classify, flairTag, titleTag } from '../../../src/forums/classify.ts'
import { parseListing } from '../../../src/forums/listing.ts'
import { sideKind, titleSides, type SideKind } from '../../../src/forums/sides.ts'

const forums = { accessories: 'GunAccessoriesForSale', deals: 'gundeals' }
const GAFS = 'GunAccessoriesForSale'

// [title, flair, expected classification on the accessories forum]
const cases: [string, string | null, 'wts' | 'wtb' | null][] = [
  ['[WTS] Aimpoint T-2 - $650', null, 'wts'],
  ['[wts] lowercase tag still sells', null, 'wts'],
  ['[WTS/WTT] Trijicon RMR RM06 - $420', null, 'wts'],
  ['[WTT/WTS] order of a trade code does not matter', null, 'wts'],
  ['[WTS][WTT] Unity FAST mount + Aimpoint PRO', null, 'wts'],
  ['(WTS) Geissele SSA-E', null, 'wts'],
  ['{WTS} Radian Raptor charging handle', null, 'wts'],
  ['WTS: Safariland 6354DO holster', null, 'wts'],
  ['WTS - Surefire X300U', null, 'wts'],
  ['WTS Holosun 508T, green', null, 'wts'],
  ['[FS] Cloud Defensive REIN', null, 'wts'],
  ['[For Sale] Magpul PMAGs', null, 'wts'],
  ['[Selling] Vortex Razor', null, 'wts'],
  ['[TX][WTS] location tag first', null, 'wts'],
  ['Aimpoint ACRO P-2, barely used [WTS]', null, 'wts'],
  ['[WTS] item with (OBO) and [NIB] groups', null, 'wts'],
  ['[WTB] Glock 19 Gen 5 mags', null, 'wtb'],
  ['(WTB) Modlite PLHv2', null, 'wtb'],
  ['WTB: Staccato P magazines', null, 'wtb'],
  ['WTB - Aimpoint ACRO', null, 'wtb'],
  ['[wtb] lower case buy', null, 'wtb'],
  ['[ISO] Staccato P magazines', null, 'wtb'],
  ['[LF] Trijicon Credo 1-6', null, 'wtb'],
  ['[Looking For] Eotech EXPS3', null, 'wtb'],
  ['[WTT/WTB] trade or buy an LPVO', null, 'wtb'],
  ['[WTS/WTB] first sell or buy code wins', null, 'wts'],
  ['[WTT] Eotech EXPS3-2 for LPVO', null, null],
  ['[WTT] trade tag wins over a selling flair', 'WTS', null],
  ['Aimpoint T-2 no tag, flair says WTS', 'WTS', 'wts'],
  ['no tag, flair says Want to Sell', 'Want to Sell', 'wts'],
  ['no tag, flair says Selling', 'Selling', 'wts'],
  ['no tag, flair says WTB', 'WTB', 'wtb'],
  ['no tag, flair says Buying', 'Buying', 'wtb'],
  ['no tag, flair says Want to Buy', 'Want to Buy', 'wtb'],
  ['no tag, flair with decoration', ':wts: WTS - Optics', 'wts'],
  ['no tag, trade flair', 'WTT', null],
  ['no tag, unrelated flair', 'Meta', null],
  ['no tag and no flair', null, null],
  ['[Optic] category tag only', null, null],
  ['WTSX is not a tag', null, null],
  ['Swts is not a tag either', null, null],
  ['[WTS] title tag beats a buying flair', 'Buying', 'wts'],
]

describe('classifying accessories-forum posts', () => {
  test('the table has at least 30 cases', () => expect(cases.length).toBeGreaterThanOrEqual(30))
  for (const [title, flair, expected] of cases)
    test(`${JSON.stringify(title)}${flair ? ` flair ${JSON.stringify(flair)}` : ''} → ${expected}`, () => {
      expect(classify({ title, subreddit: GAFS, flair }, forums)).toEqual({
        forum: 'product',
        postType: expected,
        classification: expected,
      })
    })
})

// Titles in the styles of other buy/sell forums (hardwareswap, mechmarket, watchexchange, GAFS)
// that say what they are through [H]/[W] sides. Each is classified with no flair and with a flair
// that disagrees or is neutral: the sides decide, the flair only breaks ties.
const sided: [string, 'wts' | 'wtb' | null][] = [
  ['[USA-CA] [H] RTX 3080 FE [W] PayPal, Local Cash', 'wts'],
  ['[USA-TX][H] i9-13900K, Z790 Hero [W] PayPal', 'wts'],
  ['[USA-NY] [H] PayPal [W] RTX 4090', 'wtb'],
  ['[USA-FL] [H] Steam Deck 512GB [W] Nintendo Switch OLED', null],
  ['[CAN-ON] [H] RTX 3070 [W] EMT, Local Cash', 'wts'],
  ['[CAN-BC] [H] EMT [W] 5800X3D', 'wtb'],
  ['[EU-DE] [H] Ryzen 7 7800X3D [W] PayPal G&S', 'wts'],
  ['[USA-WA] [H] Local Cash, PayPal [W] 1440p 165Hz monitor', 'wtb'],
  ['[USA-GA] [H] RTX 3060 Ti [W] PayPal or trade for 6700 XT', 'wts'],
  ['[USA-OH] [H] PayPal + RX 6600 [W] RTX 3070', 'wtb'],
  ['[USA-MI] [H] 2x16GB DDR5 6000 [W] Venmo, Zelle', 'wts'],
  ['[USA-IL] [H] Zelle [W] Steam Deck OLED', 'wtb'],
  ['[US-CA] [H] GMK Olivia++ base, Keychron Q1 [W] PayPal', 'wts'],
  ['[US-NJ][H] Paypal [W] GMK Botanical', 'wtb'],
  ['[US-TX] [H] Tofu65, Gateron Yellows [W] Money', 'wts'],
  ['[US-MA] [H] NovelKeys Cream switches x90 [W] GMK Laser', null],
  ['[UK] [H] HHKB Pro 2 [W] PayPal', 'wts'],
  ['[H] Tudor Black Bay 58 Navy [W] $3,100 or trade', 'wts'],
  ['[H] Seiko SPB143 [W] Omega Aqua Terra', null],
  ['[H] Omega Speedmaster 3861 [W] Cash, Zelle', 'wts'],
  ['(H) Trijicon RMR (W) Aimpoint T2', null],
  ['(H) Aimpoint T2 (W) PayPal F&F', 'wts'],
  ['(H) $650 (W) Aimpoint T2', 'wtb'],
  ['H: Holosun 508T W: PayPal', 'wts'],
  ['H: Cash W: Surefire X300U', 'wtb'],
  ['Have: Glock 19 mags x4 Want: Venmo', 'wts'],
  ['[W] PayPal [H] Eotech EXPS3', 'wts'],
  ['[Have] Geissele SSA-E [Want] Money', 'wts'],
  ['[H] Local cash [W] Arisaka 300-CRZ, Modlite OKW', 'wtb'],
  ['[H] Cash App [W] Sig P365 mags', 'wtb'],
  ['[H] Nightforce NX8 [W] 4K monitor', null],
  ['[H] RMR [W] Aimpoint T2 + cash', 'wts'],
  ['[WTB] [H] PayPal [W] Aimpoint T2', 'wtb'],
  ['[WTS] [H] PayPal [W] Aimpoint T2 — a title code still wins', 'wts'],
  ['[WTT] [H] RMR [W] Aimpoint T2', null],
  ['[WTT] [H] RMR [W] PayPal or T2', 'wts'],
  ['[WTS/WTT] [H] Aimpoint T2 [W] RMR or $600', 'wts'],
]

describe('classifying titles with [H]/[W] sides (any buy/sell forum)', () => {
  test('the table has at least 35 titles', () => expect(sided.length).toBeGreaterThanOrEqual(35))
  for (const [title, expected] of sided)
    for (const flair of [null, 'Selling', 'Buying', 'Trading', 'CLOSED'])
      test(`${JSON.stringify(title)}${flair ? ` flair ${flair}` : ''} → ${expected}`, () => {
        expect(classify({ title, subreddit: GAFS, flair }, forums)?.classification).toBe(expected)
      })
  test('sided titles classify the same with and without flair (issue 15 item 10: once 2 of 25)', () => {
    const withFlair = sided.map(([title]) => classify({ title, subreddit: GAFS, flair: 'Selling' }, forums)!.classification)
    const without = sided.map(([title]) => classify({ title, subreddit: GAFS, flair: null }, forums)!.classification)
    expect(without).toEqual(withFlair)
    expect(without.filter((c) => c !== null).length).toBeGreaterThanOrEqual(28)
  })
})

describe('the flair breaks ties only', () => {
  const ties: [string, string | null, 'wts' | 'wtb' | null][] = [
    ['[USA-CA] [H] RTX 3080 [W] Offers', 'SELLING', 'wts'], // an empty want side does not decide
    ['[USA-CA] [H] RTX 3080 [W] Offers', null, null],
    ['[H] PayPal [W] PayPal', 'Buying', 'wtb'], // payment both ways does not decide
    ['[USA-CA] [H] RTX 3080', 'BUYING', 'wts'], // a have side alone says it: goods had are sold (issue 24: no flair in the Atom feed)
    ['[W] Glock 19 mags', 'SELLING', 'wtb'], // a want side alone: goods wanted are bought
    ['[H] PayPal', null, 'wtb'],
    ['[USA-CA] RTX 3080 FE, barely used', 'BUYING', 'wtb'],
    ['[USA-CA] [H] RTX 3080 [W] RX 6800 XT', 'SELLING', null], // a trade stays a trade
  ]
  for (const [title, flair, expected] of ties)
    test(`${JSON.stringify(title)} flair ${flair} → ${expected}`, () => {
      expect(classify({ title, subreddit: GAFS, flair }, forums)?.classification).toBe(expected)
    })
})

describe('sides', () => {
  test('titleSides splits on the markers in either order; one marker gives one side', () => {
    expect(titleSides('[USA-CA] [H] RTX 3080 FE [W] PayPal, Local Cash')).toEqual({ have: 'RTX 3080 FE', want: 'PayPal, Local Cash' })
    expect(titleSides('[W] PayPal [H] Eotech EXPS3')).toEqual({ have: 'Eotech EXPS3', want: 'PayPal' })
    expect(titleSides('H: Holosun 508T W: PayPal')).toEqual({ have: 'Holosun 508T', want: 'PayPal' })
    expect(titleSides('[H] RTX 3080')).toEqual({ have: 'RTX 3080', want: '' })
    expect(titleSides('[Have] RMR [USA-TX] [Want] T2')).toEqual({ have: 'RMR [USA-TX]', want: 'T2' })
    expect(titleSides('[WTS] Aimpoint T2 w/ mount (WTS)')).toBeNull()
    expect(titleSides('WTS: Rolex Sub, W/ box and papers')).toBeNull()
  })
  const kinds: [string, SideKind][] = [
    ['PayPal, Local Cash', 'payment'],
    ['PP G&S or Zelle', 'payment'],
    ['$450 shipped', 'payment'],
    ['€85,00', 'payment'],
    ['EMT / e-transfer', 'payment'],
    ['Money [USA-CA]', 'payment'],
    ['PayPal or trade for 6700 XT', 'mixed'],
    ['RTX 3080 + cash', 'mixed'],
    ['RTX 3080', 'goods'],
    ['trades', 'goods'],
    ['offers', 'empty'],
    ['', 'empty'],
  ]
  for (const [text, kind] of kinds) test(`side ${JSON.stringify(text)} is ${kind}`, () => expect(sideKind(text)).toBe(kind))
})

describe('forum membership', () => {
  test('a deals post is gd whatever its title says', () => {
    expect(classify({ title: '[WTS] looks like a sale', subreddit: 'gundeals', flair: null }, forums)).toEqual({
      forum: 'gd',
      postType: 'gd',
      classification: null,
    })
  })
  test('subreddit names compare case-insensitively and tolerate r/', () => {
    expect(classify({ title: '[WTB] x', subreddit: 'gunaccessoriesforsale' }, forums)?.classification).toBe('wtb')
    expect(classify({ title: '[Ammo] y', subreddit: 'GunDeals' }, forums)?.forum).toBe('gd')
    expect(classify({ title: '[WTB] x', subreddit: 'GunAccessoriesForSale' }, { accessories: 'r/gunaccessoriesforsale', deals: 'gundeals' })?.forum).toBe(
      'product',
    )
  })
  test('a post from any other subreddit is not ours', () => {
    expect(classify({ title: '[WTS] x', subreddit: 'guns' }, forums)).toBeNull()
  })
  test('configured forum names are honoured', () => {
    const mine = { accessories: 'AirsoftMarket', deals: 'airsoftdeals' }
    expect(classify({ title: '[WTS] x', subreddit: 'airsoftmarket' }, mine)?.classification).toBe('wts')
    expect(classify({ title: '[WTS] x', subreddit: GAFS }, mine)).toBeNull()
  })
})

describe('helpers', () => {
  test('titleTag reports a lone trade tag as wtt and no tag as null', () => {
    expect(titleTag('[WTT] thing')).toBe('wtt')
    expect(titleTag('thing')).toBeNull()
  })
  test('flairTag ignores empty flair', () => {
    expect(flairTag('')).toBeNull()
    expect(flairTag(null)).toBeNull()
  })
})

test('every post in the accessories fixture gets the class its tag says', async () => {
  const listing = parseListing(await Bun.file(new URL('../../fixtures/reddit/gafs-new.json', import.meta.url)).json())
  const counts = { wts: 0, wtb: 0, none: 0 }
  for (const post of listing.posts) {
    const c = classify(post, forums)!
    counts[c.classification ?? 'none']++
  }
  expect(counts).toEqual({ wts: 10, wtb: 5, none: 1 })
})
