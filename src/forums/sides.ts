// [H]/[W] (have/want) sides of a buy/sell title, as hardwareswap, mechmarket, watchexchange and
// GAFS posters write them, and what they say about the post. Pure; table-tested through
// tests/unit/forums/classify.test.ts.
//
// Markers: "[H]" "(H)" "{H}" "[Have]" "H:" "Have:" and the same for W / Want. Both a have and a
// want marker must be present; each side runs to the next marker (or the end), in either order.
// Location tags ("[USA-CA]", "[US-TX]", "[CAN-ON]", "[EU-DE]") inside a side are dropped.
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

export type Sides = { have: string; want: string }
/** The same codes as classify.ts's TradeTag (kept here so the two files do not import each other). */
type SidesTag = 'wts' | 'wtb' | 'wtt'
export type SideKind = 'payment' | 'mixed' | 'goods' | 'empty'

const MARKER = /[[({]\s*(h|have|has|w|want|wants)\s*[\])}]|(?<![\p{L}\p{N}])(h|have|w|want|wants)\s*:/giu
const LOCATION = /[[({]\s*[a-z]{2,3}\s*-\s*[a-z0-9]{2,4}\s*[\])}]|[[({]\s*(?:usa|us|can|ca|eu|uk|aus|au)\s*[\])}]/giu

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

/** The have and want texts of a title, or null when it does not have both markers. */
export function titleSides(title: string): Sides | null {
  const marks: { side: 'have' | 'want'; start: number; end: number }[] = []
  for (const m of title.matchAll(MARKER)) {
    const word = (m[1] ?? m[2]!).toLowerCase()
    marks.push({ side: word.startsWith('h') ? 'have' : 'want', start: m.index!, end: m.index! + m[0].length })
  }
  if (!marks.some((m) => m.side === 'have') || !marks.some((m) => m.side === 'want')) return null
  const out: Sides = { have: '', want: '' }
  marks.forEach((m, i) => {
    const text = title.slice(m.end, marks[i + 1]?.start ?? title.length)
    out[m.side] = out[m.side] ? `${out[m.side]} ${text}` : text
  })
  out.have = out.have.trim()
  out.want = out.want.trim()
  return out
}

/** What one side offers (see the header). */
export function sideKind(text: string): SideKind {
  const cleaned = text.replace(LOCATION, ' ').replace(PAYMENT_PHRASES, ' paypal ')
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
export function sidesTag(title: string): SidesTag | null {
  const sides = titleSides(title)
  if (sides === null) return null
  const have = sideKind(sides.have)
  const want = sideKind(sides.want)
  if (have === 'empty' || want === 'empty') return null
  if (want === 'payment') return have === 'payment' ? null : 'wts'
  if (have === 'payment') return 'wtb'
  if (want === 'mixed' && have === 'goods') return 'wts'
  if (have === 'mixed' && want === 'goods') return 'wtb'
  if (have === 'goods' && want === 'goods') return 'wtt'
  return null
}
