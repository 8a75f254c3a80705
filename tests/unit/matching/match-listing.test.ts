// The term-side rules of issue 15 against hand-labelled posts (post-fixture.ts): item scope, ~,
// exclusions per item, sides, accessory-for mentions, categories, aliases, per-segment and per-unit
// prices, field filters. Each case is also checked through the index and explain (same verdict).
import { describe, expect, test } from 'bun:test'
import type { Category } from '../../../src/access/categories'
import { compileTerm, matchesPost, type PreparedPost } from '../../../src/matching/compile'
import { explainTerm } from '../../../src/matching/explain'
import { parseTerm } from '../../../src/matching/parse'
import { MARK_EXTRA, MARK_REPLICA, MARK_SOLD } from '../../../src/matching/post-model'
import { TermIndex } from '../../../src/matching/term-index'
import { fixture } from './post-fixture'

const compiled = (term: string) => {
  const parsed = parseTerm(term)
  if (!parsed.ok) throw new Error(`test term did not parse: ${term}: ${parsed.error}`)
  return compileTerm(parsed.query)
}

function verdict(term: string, post: PreparedPost, category: Category): boolean {
  const c = compiled(term)
  const ref = matchesPost(c, post, category)
  const idx = new TermIndex()
  idx.add({ termId: 1, userId: 1, category, text: term })
  expect(idx.match(post, category).length === 1).toBe(ref)
  expect(explainTerm(c, post, category).matched).toBe(ref)
  return ref
}

// "[WTS] Aimpoint T2 $500, Trijicon mount $80, Holosun 507C $300"
const multi = fixture([
  { text: '[WTS]' },
  { text: 'Aimpoint T2', seg: 1, prices: [500] },
  { text: 'Trijicon mount', seg: 2, prices: [80] },
  { text: 'Holosun 507C', seg: 3, prices: [300] },
])
// "[H] Trijicon RMR $400 [W] Aimpoint T2"
const sided = fixture([
  { text: 'H', side: 'have' },
  { text: 'Trijicon RMR', seg: 1, side: 'have', prices: [400] },
  { text: 'W', side: 'want' },
  { text: 'Aimpoint T2', seg: 2, side: 'want' },
])
// "[WTS] Safariland holster for Glock 19 - $60"
const holster = fixture([{ text: '[WTS] Safariland holster' }, { text: 'for Glock 19', fits: true }, { text: '- $60', prices: [60] }])
// "[WTS] Unity riser, RMR-style cut"
const riser = fixture([{ text: '[WTS]' }, { text: 'Unity riser', seg: 1, prices: [90] }, { text: 'RMR-style cut', seg: 1, fits: true }])
// "[WTS] Holosun 507C $280 + $20 shipping"
const shipping = fixture([{ text: '[WTS] Holosun 507C $280 + $20 shipping', seg: 1, prices: [280, { amount: 20, role: 'shipping', unit: 'total' }] }])
// "[WTS] 9mm 1000 rds $280 ($0.28/rd)"
const ammo = fixture([
  {
    text: '[WTS] 9mm 1000 rds $280 ($0.28/rd)',
    prices: [280, { amount: 0.28, role: 'item', unit: 'round' }],
  },
])
// "[WTS] PMAGs 10 for $120 ($12 each)"
const mags = fixture([{ text: '[WTS] PMAGs 10 for $120', prices: [120, { amount: 12, role: 'item', unit: 'each' }] }])
const byBob = fixture(
  [
    { text: '[WTS] Trijicon RMR $400', prices: [400] },
    { text: 'Local pickup only', body: true },
  ],
  {
    author: 'Bob_1',
    flair: 'WTS',
    trades: 12,
  },
)

// "[WTS] Springfield Hellcat GBB $150, Shield RMSc $220": the first item a replica (item-marks.ts)
const replica = fixture([
  { text: '[WTS]' },
  { text: 'Springfield Hellcat GBB $150', seg: 1, prices: [150], mark: MARK_REPLICA },
  { text: 'Shield RMSc $220', seg: 2, prices: [220] },
])
// "[WTS] ~~Romeo Zero~~ SOLD, Holosun 407K $200": the first item sold
const soldItem = fixture([{ text: '[WTS]' }, { text: 'Romeo Zero SOLD', seg: 1, mark: MARK_SOLD }, { text: 'Holosun 407K $200', seg: 2, prices: [200] }])
// "[WTS] Leupold Mark 5 w/ Spuhr mount $2000": the mount an extra
const withMount = fixture([
  { text: '[WTS] Leupold Mark 5 w/', seg: 1, prices: [2000] },
  { text: 'Spuhr mount', seg: 1, mark: MARK_EXTRA },
])
const wttFlair = fixture([{ text: '[WTS] Holosun 508T $300', seg: 1, prices: [300] }], { flair: 'WTT' })

// A long body of line items (more segments than the bit masks hold): "item 1" … "item 34", then an RMR
const long = fixture([
  { text: '[WTS] lot' },
  ...Array.from({ length: 34 }, (_, i) => ({ text: `widget ${i + 1}`, seg: i + 1, body: true })),
  { text: 'Trijicon RMR', seg: 35, prices: [400] },
])

// [rule, term, post, category, expected]
const cases: [string, string, PreparedPost, Category, boolean][] = [
  // item scope
  ['words of one item match', 'aimpoint t2', multi, 'wts', true],
  ['words in different items do not match', 'trijicon t2', multi, 'wts', false],
  ['~word may be in another item', '~trijicon t2', multi, 'wts', true],
  ['shared context joins every item', 'wts t2', multi, 'wts', true],
  ['-word excludes only the matched item', 't2 -mount', multi, 'wts', true],
  ['-word in the same item excludes', 'trijicon -mount', multi, 'wts', false],
  ['-~word excludes anywhere', 't2 -~mount', multi, 'wts', false],
  ['a price bound tests the matched item', 'holosun <$350', multi, 'wts', true],
  ['another item price does not satisfy the bound', 't2 <$100', multi, 'wts', false],
  ['price range on the item', 't2 >$400 <=$500', multi, 'wts', true],
  ['many items: words of one item', 'trijicon rmr <$500', long, 'wts', true],
  ['many items: words of two items', 'widget rmr', long, 'wts', false],
  ['many items: a phrase in one item', '"widget 34" lot', long, 'wts', true],
  // sides
  ['wts reads the have side', 'rmr', sided, 'wts', true],
  ['wts does not read the want side', 't2', sided, 'wts', false],
  ['wtb reads the want side', 't2', sided, 'wtb', true],
  ['wtb does not read the have side', 'rmr', sided, 'wtb', false],
  ['~ reads either side', '~t2', sided, 'wts', true],
  ['gd has no sides', 't2', sided, 'gd', true],
  // accessory-for
  ['a product named only as what an accessory fits does not match', 'glock 19', holster, 'wts', false],
  ['the term asks for the accessory', 'glock 19 holster', holster, 'wts', true],
  ['"for" in the term asks for it too', 'for glock', holster, 'wts', true],
  ['RMR-style cut does not match rmr', 'rmr', riser, 'wts', false],
  ['a cut asked for', 'rmr cut', riser, 'wts', true],
  ['the accessory itself matches', 'holster', holster, 'wts', true],
  ['an exclusion still sees an accessory-for word', 'holster -glock', holster, 'wts', false],
  // replica items, items marked sold, extras (item-marks.ts)
  ['a replica item does not match its model', 'hellcat', replica, 'wts', false],
  ['the other item of the listing still matches', 'rmsc <$250', replica, 'wts', true],
  ['a term naming airsoft / gbb asks for replicas', 'hellcat gbb', replica, 'wts', true],
  ['an item marked sold does not match', 'romeo zero', soldItem, 'wts', false],
  ['the unsold item still matches', '407k', soldItem, 'wts', true],
  ['an extra counts for the words', 'spuhr', withMount, 'wts', true],
  ['an item exclusion does not see an extra', 'leupold -mount', withMount, 'wts', true],
  ['a post-wide exclusion does', 'leupold -~mount', withMount, 'wts', false],
  ['a term naming an accessory does not read an extra', 'mount', withMount, 'wts', false],
  ['-~word also reads the flair', 'holosun -~wtt', wttFlair, 'wts', false],
  ['a plain exclusion does not read the flair', 'holosun -wtt', wttFlair, 'wts', true],
  // categories and aliases
  ['red dot finds a 507C', 'red dot', multi, 'wts', true],
  ['"red dot" quoted finds a T2', '"red dot" <$600', multi, 'wts', true],
  ['red dot with a price takes the model item price', 'red dot <$400', multi, 'wts', true],
  ['red dot does not find an accessory-for mention', 'red dot', riser, 'wts', false],
  ['the words of the category still match', 'red dot', fixture([{ text: 'cheap red dot' }]), 'wts', true],
  ['g19 is glock 19', 'g19', fixture([{ text: '[WTS] Glock 19 Gen 5', prices: [500] }]), 'wts', true],
  // prices
  ['shipping is not the item price', '507c <$100', shipping, 'wts', false],
  ['the item price', '507c <$300', shipping, 'wts', true],
  ['per round', '9mm <$0.30/rd', ammo, 'wts', true],
  ['per round above', '9mm <$0.25/rd', ammo, 'wts', false],
  ['cpr', '9mm <30cpr', ammo, 'wts', true],
  ['the total is not a unit price', '9mm <$300/rd', mags, 'wts', false],
  ['each', 'pmag <$15/ea', mags, 'wts', true],
  ['each above', 'pmag <$10/ea', mags, 'wts', false],
  ['no unit price, no match', 'holosun <$1000/ea', multi, 'wts', false],
  // fields
  ['author', 'author:bob_1', byBob, 'wts', true],
  ['author with a word', 'rmr author:u/bob_1', byBob, 'wts', true],
  ['another author', 'rmr author:alice', byBob, 'wts', false],
  ['-author', 'rmr -author:bob_1', byBob, 'wts', false],
  ['flair', 'rmr flair:wts', byBob, 'wts', true],
  ['flair missing', 'rmr flair:wtb', byBob, 'wts', false],
  ['-flair', 'rmr -flair:wts', byBob, 'wts', false],
  ['trades >=', 'rmr trades>=10', byBob, 'wts', true],
  ['trades too few', 'rmr trades>=20', byBob, 'wts', false],
  ['trades unknown fails a bound', 'aimpoint trades>=1', multi, 'wts', false],
  ['title: in the title', 'title:rmr', byBob, 'wts', true],
  ['title: not in the body', 'title:pickup', byBob, 'wts', false],
  ['a plain word in the body', 'rmr pickup', byBob, 'wts', true],
  ['-title:', 'rmr -title:wts', byBob, 'wts', false],
  // familiar syntax end to end
  ['OR', 'sro OR rmr', byBob, 'wts', true],
  ['NOT', 'rmr NOT local', byBob, 'wts', false],
  ['a/b', 'aimpoint h2/t2', multi, 'wts', true],
  ['(a|b) c', '(sro | rmr) trijicon', byBob, 'wts', true],
]

describe('term-side rules on labelled posts', () => {
  for (const [name, term, post, category, want] of cases) test(`${name}: ${term} (${category})`, () => expect(verdict(term, post, category)).toBe(want))
})
