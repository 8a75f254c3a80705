// Dollar amounts in a post title, for price bounds (`<$500`).
// Recognised (after NFKD, so "＄５００" works): a number with "$" right before or right after it,
// a space allowed between: "$450", "$ 450", "450$", "450 $", "$1,200", "$1,200.50", "$1.2k" (= 1200).
// "k" only counts when glued to the number and not followed by a letter ("$450 kydex" is 450).
// A number without "$" is not a price ("450 shipped", "p365", "9mm" are not prices).

const NUM = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(k(?![a-z]))?`
const LEAD = String.raw`(?<![\w.,])`
// Tried in this order; a later form never reuses characters of an earlier hit, so the glued forms
// win: "450$ 500$" is 450 and 500 (not "$ 500"), "Glock 19 $450" is 450 (not "19 $").
const FORMS = [
  new RegExp(String.raw`\$` + NUM, 'gi'),
  new RegExp(LEAD + NUM + String.raw`\$`, 'gi'),
  new RegExp(String.raw`\$\s` + NUM, 'gi'),
  new RegExp(LEAD + NUM + String.raw`\s\$`, 'gi'),
]

function amount(int: string, dec: string | undefined, k: string | undefined): number {
  const n = Number(int.replace(/,/g, '') + (dec ?? ''))
  return k ? Math.round(n * 1000 * 100) / 100 : n
}

/** Every dollar amount in the text, in order of appearance. */
export function extractPrices(text: string): number[] {
  if (!text || (text.indexOf('$') < 0 && text.indexOf('＄') < 0)) return []
  const s = text.normalize('NFKD')
  const found: { at: number; end: number; value: number }[] = []
  for (const re of FORMS) {
    for (const m of s.matchAll(re)) {
      const at = m.index!
      const end = at + m[0].length
      if (found.some((f) => at < f.end && end > f.at)) continue
      found.push({ at, end, value: amount(m[1]!, m[2], m[3]) })
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.value)
}

/** Parses the amount of a price bound: "500", "1,200", "1.5k". Null when it is not a number. */
export function parseAmount(text: string): number | null {
  const m = new RegExp('^' + NUM + '$', 'i').exec(text)
  return m ? amount(m[1]!, m[2], m[3]) : null
}

export type PriceOp = '<' | '<=' | '>' | '>='
export type PriceBound = { op: PriceOp; amount: number }

export function satisfies(price: number, b: PriceBound): boolean {
  switch (b.op) {
    case '<':
      return price < b.amount
    case '<=':
      return price <= b.amount
    case '>':
      return price > b.amount
    case '>=':
      return price >= b.amount
  }
}

/** True when ONE amount of the title satisfies every bound (so `>$100 <$500` is a range). */
export function pricesSatisfy(prices: number[], bounds: PriceBound[]): boolean {
  if (bounds.length === 0) return true
  outer: for (const p of prices) {
    for (const b of bounds) if (!satisfies(p, b)) continue outer
    return true
  }
  return false
}
