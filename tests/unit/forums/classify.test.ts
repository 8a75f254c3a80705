import { describe, expect, test } from 'bun:test'
import { classify, flairTag, titleTag } from '../../../src/forums/classify.ts'
import { parseListing } from '../../../src/forums/listing.ts'

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
