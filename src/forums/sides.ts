// What the [H]/[W] (have/want) sides of a buy/sell title say about the post, as hardwareswap,
// mechmarket, watchexchange and GAFS posters write them. Pure; table-tested through
// tests/unit/forums/classify.test.ts and, with matching, tests/unit/matching/title-grammar.test.ts.
//
// The sides themselves — markers "[H]" "(H)" "{H}" "[Have]" "H:" "Have:" and the same for W / Want,
// each side running to the next marker — are read by the one title grammar
// (src/matching/title-grammar.ts), the same reading matching uses. Location tags inside a side are
// dropped when its kind is read.
//
// A side is read as
//   payment — only payment words ("PayPal", "PP G&S", "local cash", "EMT", "Venmo", "Zelle",
//             "money", "$400", "Cash App", …) and fillers ("or", "local", "shipped", "OBO", "offers");
//   mixed   — payment words and goods ("PayPal or trade for a 6800 XT", "3080 + cash");
//   goods   — words but no payment word ("RTX 3080", "trades");
//   empty   — nothing but fillers.
// The post is then
//   wts  — the want side is payment, or mixed while the have side is goods (the poster sells what
//          they have, a trade is welcome);
//   wtb  — the have side is payment, or mixed while the want side is goods;
//   wtt  — goods on both sides (a trade);
//   null — no sides, or they do not decide (payment both ways, an empty side): the flair decides.
// A title with one side only ("[W] Glock 19 mags", "[H] RMR") says it by that side: goods wanted → wtb,
// goods had → wts (payment alone the other way round: "[H] PayPal" → wtb).

import { isLocation, readTitleGrammar, sideTexts, type TradeTag } from '../matching/title-grammar'

export type Sides = { have: string; want: string }
export type SideKind = 'payment' | 'mixed' | 'goods' | 'empty'

// Multi-word payment names first (read before the text is split into words).
const PAYMENT_PHRASES =
  /\b(?:local cash|cash app|apple (?:pay|cash)|google pay|bank transfer|wire transfer|money order|e-?transfer|interac|goods (?:and|&) services|friends (?:and|&) family|g ?& ?s|f ?& ?f)\b/giu
const PAYMENT_WORDS = new Set([
  'paypal',
  'pp',
  'ppgs',
  'ppff',
  'cash',
  'cashapp',
  'venmo',
  'zelle',
  'emt',
  'etransfer',
  'money',
  'monies',
  'funds',
  'payment',
  'usd',
  'cad',
  'eur',
  'gbp',
  'btc',
  'bitcoin',
  'crypto',
  'wise',
  'revolut',
  'payid',
  'paysafe',
])
const FILLERS = new Set([
  'or',
  'and',
  'local',
  'locally',
  'only',
  'preferred',
  'pref',
  'prefer',
  'via',
  'thru',
  'through',
  'plus',
  'w',
  'with',
  'your',
  'my',
  'some',
  'the',
  'a',
  'in',
  'person',
  'shipped',
  'shipping',
  'included',
  'incl',
  'obo',
  'ono',
  'offer',
  'offers',
  'best',
  'firm',
  'fees',
  'fee',
  'covered',
  'conus',
  'to',
  'me',
  'pay',
  'paid',
])
const MONEY_AMOUNT = /^[$€£¥]|^\d[\d,.]*(?:usd|cad|eur|€|\$)$/i

/** The have and want texts of a title ('' for a side it does not have), or null when it has no marker. */
export function titleSides(title: string): Sides | null {
  return sideTexts(title)
}

const GROUP = /[[({]([^\])}[({]{1,40})[\])}]/g

/** What one side offers (see the header); location tags in it ("Money [USA-CA]") say nothing. */
export function sideKind(text: string): SideKind {
  const cleaned = text.replace(GROUP, (m, inner: string) => (isLocation(inner) ? ' ' : m)).replace(PAYMENT_PHRASES, ' paypal ')
  let payment = false
  let goods = false
  for (const word of cleaned.toLowerCase().match(/[$€£¥]?[\p{L}\p{N}][\p{L}\p{N}.,]*|[$€£¥]+/gu) ?? []) {
    const w = word.replace(/[.,]+$/, '')
    if (PAYMENT_WORDS.has(w) || MONEY_AMOUNT.test(w)) payment = true
    else if (!FILLERS.has(w)) goods = true
  }
  return payment ? (goods ? 'mixed' : 'payment') : goods ? 'goods' : 'empty'
}

/** The tag the sides give a title (wts / wtb / wtt), or null when there are no deciding sides. */
export function sidesTag(title: string): TradeTag | null {
  const g = readTitleGrammar(title)
  const sides = sideTexts(title, g)
  if (sides === null) return null
  const have = sideKind(sides.have)
  const want = sideKind(sides.want)
  // one side only: what it offers says who sells
  if (!g.sides.some((s) => s.side === 'want')) return have === 'empty' ? null : have === 'payment' ? 'wtb' : 'wts'
  if (!g.sides.some((s) => s.side === 'have')) return want === 'empty' ? null : want === 'payment' ? 'wts' : 'wtb'
  if (have === 'empty' || want === 'empty') return null
  if (want === 'payment') return have === 'payment' ? null : 'wts'
  if (have === 'payment') return 'wtb'
  if (want === 'mixed' && have === 'goods') return 'wts'
  if (have === 'mixed' && want === 'goods') return 'wtb'
  if (have === 'goods' && want === 'goods') return 'wtt'
  return null
}
