// Prices in a post's text, each with its role (the item's price, or shipping / was / discount / gift
// card) and its unit (total, each, per round); and price-bound checks.
//
// A number is a price when a currency is written with it — "$450", "$ 450", "450$", "$1,200.50",
// "$.40", "$1.2k", "75 USD", "75 dollars", "€85,00", "85€", "40¢" (= 0.40), "28 cpr" (= 0.28 a round) —
// or, without one, when a price word follows or precedes it: "420 shipped", "300 obo", "300 firm",
// "asking 300", "price: 300"; a bare "1.2k" (a decimal before k) counts too; so does a bare number after a
// spaced dash that ends its item ("Holosun 507C - 240", "- 629.00, shipped") unless it could be a range ("size 9 -
// 10") or a year, and a small decimal before "/rd" ("(.22/rd)"). Styled digits ("𝟒𝟕𝟓") read as digits. Never a
// price: a number glued to letters ("p365", "9mm", "1000rd", "g19"), "1000 rounds", "10k gold".
// Roles, read from the words right around the figure (same line):
//   was       "was $420", "MSRP $500", "retails for $500", "paid $500", "$500 new", "~~$500~~", "$430 after $50 rebate" / "after MIR" (a mail-in rebate price is not paid)
//   shipping  "$20 shipping", "shipping $20", "+ $20 shipped" / "+ $20" after an earlier price;
//             "$450 shipped" is the item's price (shipping included)
//   discount  "$20 off", "save $50", "$10 rebate", "get $25 back"
//   giftcard  "$25 gift card", "$25 GC", "$10 store credit"
//   item      everything else
// Units: "$0.25/rd", "28 cpr", "28¢/rd" are per round; "$12 each", "$12/ea", "$12 a piece" each;
// "$280/1000" and "$6.36/box of 20" are totals that also give a per-round figure (280/1000 = 0.28);
// "5 for $50" is a total of 50 and 10 each; a round count before a total on its line ("1000rd - $239",
// "1k rds, 280 shipped") gives its per-round figure too, and a pack ("5-pack - $59.95", "mags x5 $60") its price each.
// Everything is a single left-to-right scan; the words around a figure are read from windows of at
// most 48 characters, so the cost is linear in the text length whatever the text.

import type { Price, PriceRole, PriceUnit } from './post-model'

export type FoundPrice = Price & { start: number; end: number }

const WINDOW = 48
const HAS_DIGIT = /[0-9\uff10-\uff19]|\ud835[\udfce-\udfff]/

/**
 * The text with full-width ASCII forms ("＄５００") folded to ASCII and A–Z lowercased, same length; styled
 * letters and digits ("𝟒𝟕𝟓", "𝗥𝗠𝗥": Mathematical Alphanumeric Symbols, two UTF-16 units each) fold to one
 * ASCII character each, and `at` then maps every index of the folded text (and its end) back to the text.
 */
function flatten(text: string): { s: string; at: Int32Array | null } {
  let ascii = true
  let styled = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xff01 && c <= 0xff5e) ascii = false
    else if (c === 0xd835) styled = true
  }
  if (styled) return unstyle(text)
  if (ascii) {
    const low = text.toLowerCase()
    return { s: low.length === text.length ? low : lowerAscii(text), at: null }
  }
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    out += String.fromCharCode(c >= 0xff01 && c <= 0xff5e ? c - 0xfee0 : c)
  }
  return { s: lowerAscii(out), at: null }
}

function unstyle(text: string): { s: string; at: Int32Array | null } {
  let out = ''
  const at = new Int32Array(text.length + 1)
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    let ch = String.fromCharCode(c >= 0xff01 && c <= 0xff5e ? c - 0xfee0 : c)
    const cp = c === 0xd835 ? text.codePointAt(i)! : 0
    if (cp >= 0x1d400 && cp <= 0x1d7ff) {
      // digits: five styles of 0–9 from U+1D7CE; letters: NFKD gives the plain letter (Greek ones stay as they are)
      const folded = cp >= 0x1d7ce ? String.fromCharCode(48 + ((cp - 0x1d7ce) % 10)) : String.fromCodePoint(cp).normalize('NFKD')
      ch = folded.length === 1 ? folded : '\ufffd'
      at[n++] = i
      out += ch
      i++
      continue
    }
    at[n++] = i
    out += ch
  }
  at[n] = text.length
  return { s: lowerAscii(out), at: at.subarray(0, n + 1) }
}

function lowerAscii(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    out += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c)
  }
  return out
}

const isDigit = (c: number) => c >= 48 && c <= 57
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c > 127 && c !== 0x20ac && c !== 0xa2 && c !== 0xa3 && c !== 0xff04)

type Num = { value: number; start: number; end: number; decimals: boolean }

/** Reads a number at i (digits, optional thousands commas, decimals by '.' or a 2-digit ',', glued k). */
function readNumber(s: string, i: number): Num {
  const start = i
  let j = i
  while (j < s.length && isDigit(s.charCodeAt(j))) j++
  let int = s.slice(i, j)
  // thousands groups: ",ddd" not followed by another digit
  while (
    s.charCodeAt(j) === 44 &&
    isDigit(s.charCodeAt(j + 1)) &&
    isDigit(s.charCodeAt(j + 2)) &&
    isDigit(s.charCodeAt(j + 3)) &&
    !isDigit(s.charCodeAt(j + 4))
  ) {
    int += s.slice(j + 1, j + 4)
    j += 4
  }
  let dec = ''
  if (s.charCodeAt(j) === 46 && isDigit(s.charCodeAt(j + 1))) {
    let k = j + 1
    while (k < s.length && isDigit(s.charCodeAt(k))) k++
    dec = s.slice(j, k)
    j = k
  } else if (s.charCodeAt(j) === 44 && isDigit(s.charCodeAt(j + 1)) && isDigit(s.charCodeAt(j + 2)) && !isDigit(s.charCodeAt(j + 3))) {
    dec = '.' + s.slice(j + 1, j + 3) // "85,00" (a decimal comma)
    j += 3
  }
  let value = Number((int || '0') + dec)
  if ((s.charCodeAt(j) === 107 || s.charCodeAt(j) === 75) && !isLetter(s.charCodeAt(j + 1))) {
    value = Math.round(value * 1000 * 100) / 100
    j++
  }
  return { value, start, end: j, decimals: dec !== '' }
}

// Words around a figure. The windows are short and the patterns anchored, so each test is bounded.
const AFTER_CURRENCY = /^ ?(usd|dollars?|bucks|eur|euros?)\b/
const AFTER_CENTS = /^ ?(¢|cents?\b|c(?=\s*\/\s*(rd|round)))/
const AFTER_CPR = /^ ?(cpr|cents? ?(per|\/) ?(rd|round))\b/
const AFTER_BARE = /^ ?(shipped|obo|ono|otbo|firm|shipped\b|ship(ped)? ?(to|conus)|tyd|ppff|pp ?ff|plus ship|\+ ?ship|or best)/
const BEFORE_BARE = /(asking|ask|price|priced at|sell for|selling for|sale price)\s*:?\s*(is\s*)?$/
// "Holosun 507C - 240", "Glock 19 Gen 5 - 475, ships free": a bare number after a spaced dash that ends its item
// (not "size 9 - 10" or "20 - 30": after a number the figure must be ten times it; not a year; not "17 + 1")
const BEFORE_DASH = /(\S)\s+[-–—]\s*$/
const AFTER_DASH_END = /^\s*($|[\n,;|(]|\+(?!\s*\d)|\/\s|\.(\s|$)|or\b|each\b|ea\b)/
// "(.22/rd)", "0.27/rd": a small decimal per round is a price without its sign
const AFTER_ROUND_BARE = /^ ?\/ ?(rd|rnd|round)s?\b/
const BEFORE_WAS =
  /(\bwas|\bwere|msrp|\bretails?( for| at)?|\brrp|\boriginally|\borig|\bpaid|\blist( price)?|\breg(ular)?( price)?|\bnormally|\bcompare( at)?|\bvalued? at|\bbought( it)? (for|at)|(^|[^a-z])(?<!brand |like )new( for| at| is|:)?)\s*:?\s*[-=]?\s*(~~)?$/
const AFTER_WAS = /^ ?(msrp|retail|rrp|new\s*($|[,;)|.]))/
// "$429.99 after $50 rebate", "$89 after MIR": a price after a mail-in rebate is not what the buyer pays (an
// instant rebate's or a code's price is)
const AFTER_REBATE_PRICE = /^ ?(after|w\/|with)\s+(an?\s+)?(\$?\d[\d.,]*\s+)?(mail.?in\s+)?(rebate|mir)\b/
const AFTER_SHIPPING = /^ ?(\+ ?)?(shipping|ship\b|s\/h|sh\b|to ship|for ship|postage|delivery)/
const BEFORE_SHIPPING = /(shipping|ships? (for|at)|s\/h|postage|delivery)\s*(is|:|=|of|for)?\s*(~|about|around)?\s*$/
const BEFORE_PLUS = /(\+|\bplus)\s*$/
const AFTER_GIFT = /^ ?(gift ?cards?|gc\b|e-?gift|(in )?store credit|in credit|bonus card|in rewards|rewards?\b|in points)/
const AFTER_DISCOUNT = /^ ?(off\b|discount|rebate|mir\b|mail.?in|back\b|cash ?back|coupon|savings?\b)/
const BEFORE_DISCOUNT = /(\bsave|\bsaving|\bdiscount|\bcoupon|\brebate|\bminus|\bless|\bget)\s*(of|:|an extra|extra)?\s*$/
const AFTER_ROUND = /^ ?(\/ ?|per |a |an )(rd|rnd|round|shot|shell)s?\b/
const AFTER_EACH = /^ ?(\/ ?|per )?(ea|each|pc|pcs|piece|apiece|unit)\b|^ ?a piece\b/
const AFTER_PER_N = /^ ?(\/|per|for)\s*((box|case|can|pack|bag|tin)( of)?\s*)?(\d{1,5})(\s*(rd|rnd|round|ct|count|shell)s?)?\b/
const BEFORE_N_FOR = /(^|[^a-z0-9.])(\d{1,2}) ?(for|\/)\s*$/
// A count of rounds before a total on its line ("9mm 115gr 1000rd - $239", "1k rds, 280 shipped"): the last one,
// with nothing but separators and words (no other figure) between it and the price
const BEFORE_ROUNDS = /(?:^|[^a-z0-9.,])(\d{1,2}(?:,\d{3})|\d{2,5}|\d(?:\.\d)?k) ?(?:rd|rds|rnd|rnds|rounds?|ct|count)\b[^0-9$\n]{0,24}$/
// A pack before a total ("5-pack - $59.95", "mags x5 $60", "pack of 3 $36"): the total is also a price each
const BEFORE_PACK = /(?:\b(\d{1,2}) ?-? ?(?:pack|pk)\b|\b(?:pack|set|lot|bundle) of (\d{1,2})\b|(?:^|\s)x ?(\d{1,2})\b)[^0-9$\n]{0,12}$/
const BEFORE_MODEL = /(gen|type|mk|mark|mod|model|version|v|series|size|no|#)\s+\d{1,2} ?(for|\/)\s*$/

/** Every price in the text (in order), with role and unit. */
export function readPrices(text: string): FoundPrice[] {
  const out: FoundPrice[] = []
  if (!text || !HAS_DIGIT.test(text)) return out
  const { s, at } = flatten(text)
  const n = s.length
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    let startsNumber = isDigit(c) && !isDigit(s.charCodeAt(i - 1))
    // "$.40": a '.' starting a number right after a currency sign, or before "/rd" ("(.22/rd)")
    if (!startsNumber && c === 46 && isDigit(s.charCodeAt(i + 1)) && !isDigit(s.charCodeAt(i - 1)) && (isCurrencyBefore(s, i) || decimalPerRound(s, i)))
      startsNumber = true
    if (!startsNumber) continue
    if (i > 0 && s.charCodeAt(i - 1) === 46 && isDigit(s.charCodeAt(i - 2))) continue // the decimals of "5.56"
    const num = readNumber(s, i)
    const next = num.end
    const p = classify(s, num, out)
    if (p) out.push(...p)
    i = Math.max(i, next - 1)
  }
  if (at)
    for (const p of out) {
      p.start = at[p.start]!
      p.end = at[p.end]!
    }
  return out
}

/** "… 507C - 240": a spaced dash before the figure, not after a number it could be a range with, and not a year. */
function dashPrice(before: string, value: number, decimals: boolean): boolean {
  const m = BEFORE_DASH.exec(before)
  if (!m) return false
  if (!decimals && value >= 1950 && value <= 2035) return false
  if (isDigit(m[1]!.charCodeAt(0))) {
    const prev = /(?:^|[^a-z0-9.])(\d+)\s+[-–—]\s*$/.exec(before) // a model number ("X300 - 150") is no range
    if (prev && value < 10 * Number(prev[1])) return false
  }
  return true
}

/** ".22/rd" at i: a decimal of at most 2 digits right before "/rd" (".22 LR" is a calibre, not this). */
function decimalPerRound(s: string, i: number): boolean {
  let j = i + 1
  while (j < s.length && j - i <= 3 && isDigit(s.charCodeAt(j))) j++
  return j - i <= 3 && AFTER_ROUND_BARE.test(s.slice(j, j + 12))
}

function isDigitOrDot(s: string, i: number): boolean {
  const c = s.charCodeAt(i)
  return isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))
}

function isCurrencyBefore(s: string, i: number): boolean {
  let j = i - 1
  if (s.charCodeAt(j) === 32) j--
  const c = s.charCodeAt(j)
  return c === 36 /* $ */ || c === 0x20ac /* € */ || c === 0xa3 /* £ */
}

function classify(s: string, num: Num, prior: FoundPrice[]): FoundPrice[] | null {
  const { start, end } = num
  let value = num.value
  const currencyBefore = isCurrencyBefore(s, start)
  const prevGlued = start > 0 && isLetter(s.charCodeAt(start - 1))
  // most numbers are model numbers ("p365", "g19"): no window is read for them
  if (prevGlued && !currencyBefore) return null
  if (!currencyBefore && s.charCodeAt(end - 1) !== 107 /* k */) {
    // nothing after it can make it a price (a sign, a word, "+ ship")? then only a word before can ("asking 300")
    const a = s.charCodeAt(end) === 32 ? s.charCodeAt(end + 1) : s.charCodeAt(end)
    if (!isLetter(a) && a !== 36 && a !== 0x20ac && a !== 0xa3 && a !== 0xa2 && a !== 43) {
      let b = start - 1
      while (b >= 0 && s.charCodeAt(b) === 32) b--
      const bc = s.charCodeAt(b)
      const dash = bc === 45 || bc === 0x2013 || bc === 0x2014 // "… - 240": read on below
      if (b < 0 || (!isLetter(bc) && bc !== 58 && !dash && a !== 47)) return null
    }
  }
  const after = s.slice(end, end + WINDOW)
  const before = s.slice(Math.max(0, start - WINDOW), start)
  const a0 = s.charCodeAt(end)
  const a1 = s.charCodeAt(end + 1)
  // a sign after the number counts unless it starts the next figure ("Bay 36 $150" is 150, not 36)
  const signAt = a0 === 32 ? end + 1 : end
  const sign = a0 === 32 ? a1 : a0
  const signAfter = (sign === 36 || sign === 0x20ac || sign === 0xa3) && !isDigitOrDot(s, signAt + 1)
  const currencyAfter = signAfter || AFTER_CURRENCY.test(after)
  let cents = false
  let perRound = false
  let currency = currencyBefore || currencyAfter
  if (!currency && AFTER_CPR.test(after)) {
    currency = cents = perRound = true
  } else if (!currency && AFTER_CENTS.test(after)) currency = cents = true
  // a number glued to letters is a model or a quantity ("p365", "9mm", "1000rd") unless a sign says otherwise
  const gluedAfter = isLetter(a0) && !currency
  if (!currency) {
    if (prevGlued || gluedAfter) return null
    const bare =
      AFTER_BARE.test(after) ||
      BEFORE_BARE.test(before) ||
      (num.decimals && s.charCodeAt(end - 1) === 107 && !/^ ?[a-z]/.test(after)) ||
      (value >= 10 && AFTER_DASH_END.test(after) && dashPrice(before, value, num.decimals)) ||
      (num.decimals && value < 5 && AFTER_ROUND_BARE.test(after))
    if (!bare) return null
  } else if (prevGlued && !currencyBefore) return null
  if (cents) value = Math.round(value) / 100
  const from = currencyBefore ? start - (s.charCodeAt(start - 1) === 32 ? 2 : 1) : start
  let role: PriceRole = 'item'
  const fullBefore = s.slice(Math.max(0, from - WINDOW), from)
  if (fullBefore.endsWith('~~') && after.includes('~~')) role = 'was'
  else if (BEFORE_WAS.test(fullBefore) || AFTER_WAS.test(stripCurrency(after)) || AFTER_REBATE_PRICE.test(stripCurrency(after))) role = 'was'
  else if (AFTER_GIFT.test(stripCurrency(after))) role = 'giftcard'
  else if (AFTER_SHIPPING.test(stripCurrency(after)) || BEFORE_SHIPPING.test(fullBefore)) role = 'shipping'
  else if (BEFORE_PLUS.test(fullBefore) && itemJustBefore(s, prior, from)) role = 'shipping'
  else if (AFTER_DISCOUNT.test(stripCurrency(after)) || BEFORE_DISCOUNT.test(fullBefore)) role = 'discount'
  const rest = stripCurrency(after)
  const spanEnd = end
  let unit: PriceUnit = 'total'
  if (perRound || AFTER_ROUND.test(rest)) unit = 'round'
  else if (AFTER_EACH.test(rest)) unit = 'each'
  const found: FoundPrice[] = [{ amount: value, role, unit, start: from, end: spanEnd }]
  if (unit === 'total') {
    const per = AFTER_PER_N.exec(rest)
    const count = per ? Number(per[5]) : 0
    if (per && count >= 5 && (per[3] || per[6] || count >= 20)) found.push({ amount: round4(value / count), role, unit: 'round', start: from, end: spanEnd })
    const nFor = BEFORE_N_FOR.exec(fullBefore)
    if (nFor && !BEFORE_MODEL.test(fullBefore)) {
      const k = Number(nFor[2])
      if (k >= 2 && k <= 12) found.push({ amount: round4(value / k), role, unit: 'each', start: from, end: spanEnd })
    } else if (role === 'item') {
      const line = fullBefore.slice(fullBefore.lastIndexOf('\n') + 1)
      const rounds = per ? null : BEFORE_ROUNDS.exec(line)
      const count = rounds ? readCount(rounds[1]!) : 0
      if (count >= 50) found.push({ amount: round4(value / count), role, unit: 'round', start: from, end: spanEnd })
      const pack = BEFORE_PACK.exec(line)
      const k = pack ? Number(pack[1] ?? pack[2] ?? pack[3]) : 0
      if (k >= 2 && k <= 50) found.push({ amount: round4(value / k), role, unit: 'each', start: from, end: spanEnd })
    }
  }
  return found
}

function stripCurrency(after: string): string {
  let i = 0
  if (after.charCodeAt(i) === 32) i++
  const c = after.charCodeAt(i)
  if (c === 36 || c === 0x20ac || c === 0xa2 || c === 0xa3) return after.slice(i + 1)
  const m = /^ ?(usd|dollars?|bucks|eur|euros?)\b/.exec(after)
  return m ? after.slice(m[0].length) : after
}

/** "$450 + $20": an item price shortly before, on the same line (bounded: linear whatever the text). */
function itemJustBefore(s: string, prior: FoundPrice[], from: number): boolean {
  for (let k = prior.length - 1; k >= 0; k--) {
    const p = prior[k]!
    if (p.end < from - 2 * WINDOW) return false
    if (p.role === 'item') return s.slice(p.end, from).indexOf('\n') < 0
  }
  return false
}

/** "1000", "1,000", "1k", "1.5k" → the number. */
function readCount(text: string): number {
  const k = text.endsWith('k')
  const n = Number((k ? text.slice(0, -1) : text).replace(/,/g, ''))
  return k ? n * 1000 : n
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000
}

/** The item prices of a text (what a plain bound reads), in order of appearance. */
export function extractPrices(text: string): number[] {
  return readPrices(text)
    .filter((p) => p.role === 'item' && p.unit === 'total')
    .map((p) => p.amount)
}

// "0.40" and ".40" both read 0.4 (a per-round bound like <$.40/rd)
const NUM = String.raw`(\d{1,3}(?:,\d{3})+|\d+|(?=\.\d))(\.\d+)?(k(?![a-z]))?`

function amount(int: string, dec: string | undefined, k: string | undefined): number {
  const n = Number(int.replace(/,/g, '') + (dec ?? ''))
  return k ? Math.round(n * 1000 * 100) / 100 : n
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

/** True when ONE amount satisfies every bound (so `>$100 <$500` is a range). */
export function pricesSatisfy(prices: number[], bounds: PriceBound[]): boolean {
  if (bounds.length === 0) return true
  outer: for (const p of prices) {
    for (const b of bounds) if (!satisfies(p, b)) continue outer
    return true
  }
  return false
}
