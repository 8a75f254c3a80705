// explain.ts: the reason of each verdict, in words, on hand-labelled posts. The verdict itself is
// the reference's (the fuzz test in term-index-random.test.ts checks explain ≡ matchesPost).
import { expect, test } from 'bun:test'
import type { Category } from '../../../src/access/categories'
import { compileTerm, type PreparedPost } from '../../../src/matching/compile'
import { explainTerm } from '../../../src/matching/explain'
import { parseTerm } from '../../../src/matching/parse'
import { MARK_MAKER_PART, MARK_REPLICA, MARK_SOLD } from '../../../src/matching/post-model'
import { fixture } from './post-fixture'

function explain(term: string, post: PreparedPost, category: Category = 'wts') {
  const parsed = parseTerm(term)
  if (!parsed.ok) throw new Error(parsed.error)
  return explainTerm(compileTerm(parsed.query), post, category)
}

const multi = fixture([
  { text: '[WTS]' },
  { text: 'Aimpoint T2', seg: 1, prices: [520] },
  { text: 'Trijicon mount', seg: 2, prices: [80] },
  { text: 'airsoft Holosun 507C', seg: 3 },
])
const riser = fixture([{ text: '[WTS] Unity riser' }, { text: 'T2 cut', fits: true }])
const sided = fixture([
  { text: 'H', side: 'have' },
  { text: 'Trijicon RMR', seg: 1, side: 'have', prices: [400] },
  { text: 'W', side: 'want' },
  { text: 'Aimpoint T2', seg: 2, side: 'want' },
])
const gbb = fixture([{ text: '[WTS]' }, { text: 'Beretta M9 GBB', seg: 1, mark: MARK_REPLICA }, { text: 'Holosun 403B', seg: 2 }])
const soldOne = fixture([{ text: '[WTS]' }, { text: 'Beretta M9 SOLD', seg: 1, mark: MARK_SOLD }, { text: 'Holosun 403B', seg: 2 }])
const oemKit = fixture([{ text: '[Parts]' }, { text: 'Glock OEM trigger kit', seg: 1, mark: MARK_MAKER_PART, prices: [49] }])
const bob = fixture([{ text: '[WTS] RMR', prices: [400] }], { author: 'bob', trades: 3 })

// [term, post, category, matched, the one reason]
const cases: [string, PreparedPost, Category, boolean, string][] = [
  ['rmr', multi, 'wts', false, "needs the word 'rmr' — not in the title or body"],
  ['t2 <$500', multi, 'wts', false, 'price $520 is above <$500'],
  ['t2 >$600', multi, 'wts', false, 'price $520 is below >$600'],
  ['holosun <$500', multi, 'wts', false, 'no price found for the item (<$500)'],
  ['holosun -airsoft', multi, 'wts', false, 'excluded by -airsoft'],
  ['t2 -~airsoft', multi, 'wts', false, 'excluded by -~airsoft'],
  ['t2', riser, 'wts', false, "'t2' only appears as what an accessory fits ('t2 cut')"],
  ['m9', gbb, 'wts', false, "'m9' only appears in an airsoft / replica item (add airsoft or replica to the term to include them) ('beretta m9 gbb')"],
  ['m9', soldOne, 'wts', false, "'m9' only appears in an item marked sold ('beretta m9 sold')"],
  [
    'glock <$500',
    oemKit,
    'gd',
    false,
    "'glock' only appears as the maker of a part, and a price bound on a maker's name prices its guns (name the part to price it, like glock mag <$30) ('glock oem trigger kit')",
  ],
  ['glock <$100', oemKit, 'gd', true, "matched 'glock'"],
  ['trijicon t2', multi, 'wts', false, "'trijicon' and 't2' are in different items (write ~trijicon to allow that)"],
  ['t2', sided, 'wts', false, "'t2' is on the poster's want side"],
  ['rmr', sided, 'wtb', false, "'rmr' is on the poster's have side"],
  ['rmr author:x', bob, 'wts', false, "author is not 'x'"],
  ['rmr -author:bob', bob, 'wts', false, 'excluded by -author:bob'],
  ['rmr trades>=10', bob, 'wts', false, 'the seller has 3 confirmed trades, fewer than trades>=10'],
  ['t2 trades>=1', multi, 'wts', false, "the seller's flair shows no confirmed trades (trades>=1)"],
  ['title:rmr', fixture([{ text: 'WTS optic' }, { text: 'an rmr', body: true }]), 'wts', false, "'rmr' is not in the title (only in the body)"],
  ['t2 <$600', multi, 'wts', true, "matched 't2' in item 1"],
  ['~trijicon t2', multi, 'wts', true, "matched 'trijicon', 't2' in item 1"],
]

for (const [term, post, category, matched, reason] of cases)
  test(`${term} (${category}): ${reason}`, () => {
    const e = explain(term, post, category)
    expect(e.matched).toBe(matched)
    expect(e.reasons).toEqual([reason])
  })

test('every alternative is explained, each with its own reason and words', () => {
  const e = explain('rmr | t2 <$500', multi)
  expect(e.matched).toBe(false)
  expect(e.alternatives.map((a) => [a.text, a.matched, a.reasons[0]!.code, a.words])).toEqual([
    ['rmr', false, 'missing', ['rmr']],
    ['t2 <$500', false, 'price', ['t2']],
  ])
  expect(e.reasons).toEqual(["rmr: needs the word 'rmr' — not in the title or body", 't2 <$500: price $520 is above <$500'])
})

test('a category word explains itself', () => {
  const e = explain('red dot <$100', multi)
  expect(e.matched).toBe(false)
  expect(e.alternatives[0]!.reasons[0]!.code).toBe('price')
  expect(explain('nods', multi).reasons).toEqual(["needs the word 'nod' (or a product of that category) — not in the title or body"])
})
