// How a listing is laid out: [H]/[W] sides, item segments with their prices, and accessory-for
// mentions. Works on the raw text (character ranges); prepare.ts maps tokens onto the ranges.
//
// Sides. "[H] … [W] …" (also "(H)", "{H}", "[Have]", "[Want]", "Have:", "Want:", "H:", "W:") split a title or
// body line into a have part and a want part; text before the first marker (tags, location) is on no side.
// The markers and side ranges are the title grammar's (title-grammar.ts): classification reads the same sides.
// In a body, a line that says what the poster wants ("looking to trade for", "looking for" — not before a
// price, "offers" or "a quick sale" — "WTT for", "want:",
// "trade for", "would take in trade", "ISO") is on the want side from those words to the line's end,
// and a line that is only "Want:"/"Wants:" (or "Have:") puts the next lines on that side until a blank line.
//
// Segments. A title (and each body line that is a line item: a bullet, a numbered line, or a line with
// a price) is split into pieces at strong separators — "," (not inside a number), ";", "|", " + ",
// " / " and " & " (with spaces: "T2/H2", "S&B", "5.56/223" stay whole; not inside a brand's name the
// dictionary writes with "&": "Schmidt & Bender", "Smith & Wesson"), new lines — and each piece
// at weak ones (" - ", " – ", " — ") only where both sides carry a price ("T2 $600 - mount $50").
// A piece with no item word (only a price, "shipped", "OBO", a condition like "LNIB", a spec like
// "3.25 MOA", "RM06", "Type 2") joins the item before it (or after it, when it comes first), so
// "Trijicon RMR, Type 2, RM06 - $450 shipped" is one item at $450. Each remaining piece is an item
// segment. Prices: a segment keeps the figures written in it; when exactly one segment of a title
// has item prices, the others share them (a bundle: "T2, mount, 507C - $900 for all"); when the
// title has none, it takes the item prices of body text that is not a line item ("Asking $400");
// the item prices of a want side that is only payment ("[W] $400 PayPal") belong to the have side.
//
// Accessory-for mentions: the product an accessory fits, which a buyer of that product does not want.
// Marked: "for X" / "fits X" / "fit X" / "compatible with X" / "made for X" (X = up to 4 words after,
// ending at a separator, a price or a small word), and the word(s) before "style", "cut",
// "footprint", "pattern", "compatible", "strap", "bracelet", "band", "holster", "buckle", "clasp"
// ("RMR-style", "T2 cut", "Glock 19 holster", "Speedmaster strap"), and before a part named after what it
// fits: "mount", "plate", "adapter", "riser", "spacer", "shroud", "protector", "cover", "cap", "killflash",
// "mag", "magazine", "barrel", "loader" ("T2 mount", "RMR plate", "P365 mags") when the word before names a
// model — it has a digit or is a short word in capitals — not a maker ("Trijicon mount" is Trijicon's mount);
// for mags and barrels only the model number is marked ("Glock 19 mags" may be OEM Glock mags). "for" after
// looking/trade/sale/sell… ("looking for an RMR", "trade for a T2") and before sale/trade/cash/a price
// is not a mention. "with mount" is not one ("Aimpoint T2 with mount" sells a T2: "with" stops the scan).
// All scans are single passes with bounded look-around: linear in the text length.

import { MARK_ACCESSORY, MARK_MAKER_PART, type Price, type Side } from './post-model'
import { BUILTIN, canonical, findCategories, type CompiledDictionary } from './dictionary'
import { normalize } from './normalize'
import { readPrices, type FoundPrice } from './price'
import { leadingTagsEnd, lineSides, sentenceEnd, sideMarkers } from './title-grammar'

/** A character range of a text belonging to one item segment (local id, 1-based within the result). */
export type Piece = { start: number; end: number; seg: number }
export type SideRange = { start: number; end: number; side: Side }
export type SegmentInfo = { side: Side | null; prices: Price[] }
export type TextStructure = {
  pieces: Piece[]
  sides: SideRange[]
  /** index = local segment id - 1 */
  segments: SegmentInfo[]
  /** item prices of text that is not a line item (body paragraphs) */
  loosePrices: Price[]
  /** every price found, with its character span (for the accessory-for scan: a price ends a mention) */
  found: FoundPrice[]
}

/** Titles are at most 300 characters on Reddit; a longer one is read for structure up to here. */
export const TITLE_STRUCTURE_MAX = 1_000
/** Bodies longer than this are read for structure and prices only up to here (the rest is context). */
export const BODY_STRUCTURE_MAX = 20_000

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)

const PAYMENT =
  /^[\s,/&+|.$\d-]*((paypal|pp|g&s|f&f|ff|cash|local|venmo|zelle|emt|cashapp|cash app|money|offers?|obo|or|and|trades?|usd|shipped|shipping|firm|\$|\d)[\s,/&+|.()-]*)+$/i

// Words that do not make a piece an item of its own.
const FILLER = new Set(
  (
    'shipped shipping ship free obo ono otbo firm each ea per rd rds round rounds cpr usd price asking ask plus or best offer offers ' +
    'sold pending local only pickup lnib nib bnib new used mint like box boxes with w and the a an in of for type gen moa mm inch in ' +
    'x tyd ppff pp ff paypal shipped conus included incl msrp retail was now off save gc gift card cards sale trade ' +
    // prose around a price in a body ("Paid $500 last year. Asking 400 shipped.")
    'paid bought last year month week ago selling sell will can comes come includes include just also great works work ' +
    'condition shape perfect excellent good lightly never fired through thru please thanks thank firm ' +
    // how to pay ("Asking $375 shipped, PayPal G&S + fees or Zelle.")
    'fee fees zelle venmo cashapp emt ' +
    // what an optic's dot is ("3.25 MOA LED")
    'led reticle ' +
    // how a seller states the price ("Looking for $350 shipped")
    'looking'
  ).split(' '),
)

// Letter parts of spec codes that do not name an item on their own ("RM06", "25mm", "124gr").
const SPEC_PREFIX = new Set(['rm', 'mm', 'cm', 'x', 'gr', 'rd', 'rds', 'in', 'oz', 'lb', 'lbs', 'moa', 'mil', 'gen', 'v', 'mk', 'type', 'ml', 'k'])

/**
 * Does the text name an item: a letter word of 3+ letters that is not a filler word, or a model
 * code — letters glued to 2+ digits ("G19", "P365", "NX8" does not: one digit) — whose letters are not a spec unit.
 */
function isItemPiece(text: string): boolean {
  let start = -1
  for (let i = 0; i <= text.length; i++) {
    const letter = i < text.length && isAsciiLetter(text.charCodeAt(i))
    if (letter) {
      if (start < 0) start = i
      continue
    }
    if (start >= 0) {
      const w = text.slice(start, i).toLowerCase()
      if (i - start > 2 && !FILLER.has(w) && !FILLER.has(w.endsWith('s') ? w.slice(0, -1) : w)) return true
      if (isDigitCode(text.charCodeAt(i)) && isDigitCode(text.charCodeAt(i + 1)) && !SPEC_PREFIX.has(w) && !FILLER.has(w)) return true
    }
    start = -1
  }
  return false
}

const isDigitCode = (c: number) => c >= 48 && c <= 57

const MODEL_NUMBER = /\d{3}/
/** Does an unpriced piece name a product the dictionary knows by a model number ("RX 580", "R9 390 8gb": short letters
 *  before a number of 3+ digits are an item too; "T2", "H2" and a priced "T2 - $620" stay as before)? */
function namesProduct(text: string, dict: CompiledDictionary): boolean {
  return MODEL_NUMBER.test(text) && findCategories(canonical(normalize(text), dict), dict).length > 0
}

/** The prices (sorted by start) that start in [a, b): a binary search, so pieces × prices stays linear. */
function pricesIn(prices: FoundPrice[], a: number, b: number): FoundPrice[] {
  let lo = 0
  let hi = prices.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (prices[mid]!.start < a) lo = mid + 1
    else hi = mid
  }
  let end = lo
  while (end < prices.length && prices[end]!.start < b) end++
  return lo === end ? [] : prices.slice(lo, end)
}

/** Splits [from, to) of text at strong separators; each piece is then split at weak ones when priced on both sides. */
function strongPieces(text: string, from: number, to: number, dict: CompiledDictionary): [number, number][] {
  const out: [number, number][] = []
  let start = from
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    let sepLen = 0
    if (c === 59 /* ; */ || c === 124 /* | */ || c === 10 /* \n */) sepLen = 1
    else if (c === 44 /* , */) sepLen = isDigitCode(text.charCodeAt(i - 1)) && isDigitCode(text.charCodeAt(i + 1)) ? 0 : 1
    else if (c === 43 /* + */ || c === 47 /* / */ || c === 38 /* & */) {
      const spaced = text.charCodeAt(i - 1) === 32 && text.charCodeAt(i + 1) === 32
      // "Schmidt & Bender": an "&" inside a brand's name joins
      sepLen = spaced && !(c === 38 && ampersandJoins(text, i, dict)) ? 1 : 0
    }
    if (sepLen > 0) {
      if (i > start) out.push([start, i])
      start = i + sepLen
    }
  }
  if (to > start) out.push([start, to])
  return out
}

const WORD_BEFORE = /(\p{L}+) $/u
const WORD_AFTER = /^ (\p{L}+)/u

/** Is the " & " at i inside a brand's name the dictionary knows ("Smith & Wesson", "S & B")? */
function ampersandJoins(text: string, i: number, dict: CompiledDictionary): boolean {
  if (dict.ampersandNames.size === 0) return false
  const before = WORD_BEFORE.exec(text.slice(Math.max(0, i - 40), i))
  const after = WORD_AFTER.exec(text.slice(i + 1, i + 41))
  if (!before || !after) return false
  const a = canonical(normalize(before[1]!), dict).at(-1)
  const b = canonical(normalize(after[1]!), dict)[0]
  return a !== undefined && b !== undefined && dict.ampersandNames.has(`${a} ${b}`)
}

const WEAK = / [-–—]+ /g

function weakSplit(text: string, from: number, to: number, prices: FoundPrice[]): [number, number][] {
  const cuts: number[] = []
  const piece = text.slice(from, to)
  for (const m of piece.matchAll(WEAK)) cuts.push(from + m.index!)
  if (cuts.length === 0) return [[from, to]]
  const parts: [number, number][] = []
  let s = from
  for (const c of cuts) {
    parts.push([s, c])
    s = c + 1
  }
  parts.push([s, to])
  const priced = (p: [number, number]) => pricesIn(prices, p[0], p[1]).some((f) => f.role === 'item')
  if (parts.filter(priced).length < 2) return [[from, to]]
  // group the parts so that each group ends with its price ("A - B - $5 - C - $6" → [A B $5] [C $6])
  const groups: [number, number][] = []
  let g: [number, number] | null = null
  for (const p of parts) {
    g = g ? [g[0], p[1]] : p
    if (priced(p)) {
      groups.push(g)
      g = null
    }
  }
  if (g) {
    if (groups.length > 0) groups[groups.length - 1] = [groups[groups.length - 1]![0], g[1]]
    else groups.push(g)
  }
  return groups
}

type Unit = { start: number; end: number; side: Side | null; prices: FoundPrice[]; item: boolean }

/** Item units of [from, to): pieces, with filler pieces joined to their neighbour. */
function units(text: string, from: number, to: number, side: Side | null, prices: FoundPrice[], dict: CompiledDictionary): Unit[] {
  const raw: [number, number][] = []
  for (const [a, b] of strongPieces(text, from, to, dict)) raw.push(...weakSplit(text, a, b, prices))
  const out: Unit[] = []
  let pending: [number, number] | null = null // filler pieces before the first item
  for (const [a, b] of raw) {
    if (text.slice(a, b).trim() === '') continue
    const own = pricesIn(prices, a, b)
    if (!isItemPiece(text.slice(a, b)) && (own.length > 0 || !namesProduct(text.slice(a, b), dict))) {
      const last = out[out.length - 1]
      if (last) {
        last.end = b
        last.prices.push(...own)
      } else pending = pending ? [pending[0], b] : [a, b]
      continue
    }
    const start = pending ? pending[0] : a
    const pre = pending ? pricesIn(prices, pending[0], pending[1]) : []
    pending = null
    out.push({ start, end: b, side, prices: [...pre, ...own], item: true })
  }
  if (pending) {
    // nothing but filler: one unit, so its prices still count
    const pre = pricesIn(prices, pending[0], pending[1])
    out.push({ start: pending[0], end: pending[1], side, prices: pre, item: false })
  }
  return out
}

const hasItemPrice = (u: Unit) => u.prices.some((p) => p.role === 'item')
const strip = (p: FoundPrice): Price => ({ amount: p.amount, role: p.role, unit: p.unit })

/** Segments of one line (a title, or a body line item), sides included. */
function readLine(
  text: string,
  from: number,
  to: number,
  prices: FoundPrice[],
  fixedSide: Side | null,
  dict: CompiledDictionary,
): { units: Unit[]; sides: SideRange[] } {
  const start = leadingTagsEnd(text, from, to)
  // the one reading of sides (title-grammar.ts): a want ends with its sentence ("Want: PVS-14 or nods.
  // Otherwise 507C $240"), the rest is the line's own
  const ss = lineSides(text, start, to)
  if (ss.length === 0) return { units: units(text, start, to, fixedSide, prices, dict), sides: fixedSide ? [{ start: from, end: to, side: fixedSide }] : [] }
  const sides: SideRange[] = []
  const all: Unit[] = []
  if (ss[0]!.at > start) all.push(...units(text, start, ss[0]!.at, fixedSide, prices, dict))
  for (let k = 0; k < ss.length; k++) {
    const m = ss[k]!
    const next = k + 1 < ss.length ? ss[k + 1]!.at : to
    const end = m.end
    sides.push({ start: m.at, end, side: m.side })
    const us = units(text, m.start, end, m.side, prices, dict)
    // "[W] $400 PayPal": the want side is payment, its item prices are the have side's price
    if (m.side === 'want' && PAYMENT.test(text.slice(m.start, end))) {
      const have = all.filter((u) => u.side === 'have')
      const moved = us.flatMap((u) => u.prices.filter((p) => p.role === 'item'))
      if (have.length > 0 && moved.length > 0 && !have.some(hasItemPrice)) {
        for (const h of have) h.prices.push(...moved)
        for (const u of us) u.prices = u.prices.filter((p) => p.role !== 'item')
      }
    }
    all.push(...us)
    if (end < next) all.push(...units(text, end, next, fixedSide, prices, dict))
  }
  return { units: all, sides }
}

/** A title: sides and item segments with their prices. */
export function readTitle(full: string, dict: CompiledDictionary = BUILTIN): TextStructure {
  const title = full.length > TITLE_STRUCTURE_MAX ? full.slice(0, TITLE_STRUCTURE_MAX) : full
  const found = readPrices(title)
  const { units: us, sides } = readLine(title, 0, title.length, found, null, dict)
  shareBundlePrice(us)
  return finish(us, sides, [], found)
}

/** When exactly one unit has item prices, the others without prices share them (a bundle price). */
function shareBundlePrice(us: Unit[]) {
  const priced = us.filter(hasItemPrice)
  if (priced.length !== 1) return
  const items = priced[0]!.prices.filter((p) => p.role === 'item')
  for (const u of us) if (u.side === priced[0]!.side && !hasItemPrice(u)) u.prices.push(...items)
}

function finish(us: Unit[], sides: SideRange[], loose: Price[], found: FoundPrice[]): TextStructure {
  const pieces: Piece[] = []
  const segments: SegmentInfo[] = []
  for (const u of us) {
    segments.push({ side: u.side, prices: u.prices.map(strip) })
    pieces.push({ start: u.start, end: u.end, seg: segments.length })
  }
  return { pieces, sides, segments, loosePrices: loose, found }
}

const WANT_LINE =
  /(looking to trade for|looking for in trade|looking for (?!\s*(\$|\d|offers?\b|a (quick|fast) sale))|open to trades? for|would (take|consider|accept|trade for)( \w+)? in trade|would trade for|will trade for|wtt for|trades? for|iso\b|in search of|wants?\s*:|wanted\s*:|would take in trade|\[w\]|\(w\))/i
/** WANT_LINE searching a line from a position (lastIndex). */
const WANT_AT = new RegExp(WANT_LINE.source, 'gi')
const HEADER = /^\s*[*_#>\s]*(wants?|wanted|looking for|have|has|haves|selling|for sale)\s*[:-]?\s*[*_]*\s*$/i
function hasSideMarker(line: string): boolean {
  return (line.includes('[') || line.includes('(') || line.includes('{') || line.includes(':')) && sideMarkers(line).length > 0
}

/** A cheap gate before WANT_LINE: every alternative contains one of these. */
function mayWant(line: string): boolean {
  return MAY_WANT.test(line)
}
const MAY_WANT = /trade|want|iso|search|wtt|looking|\[w|\(w/i
const BULLET = /^\s*([-*•+]|\d{1,2}[.)])\s+/
/** A line stating the seller's price: "Price: $275", "Priced to sell $720", "Asking $450 shipped", "Asking for 285 shipped", "Selling for $300". */
const PRICE_LINE = /^\s*[-*•>_]*\s*(price\s*[:=\-–]|priced\b|asking\b|selling (it )?for\b)/i

/** A body: line items as segments, want lines, loose prices. Reads at most BODY_STRUCTURE_MAX characters. */
export function readBody(body: string, dict: CompiledDictionary = BUILTIN): TextStructure {
  const limit = Math.min(body.length, BODY_STRUCTURE_MAX)
  const text = body.length > limit ? body.slice(0, limit) : body
  const found = readPrices(text)
  const sides: SideRange[] = []
  const all: Unit[] = []
  const loose: Price[] = []
  let block: Side | null = null
  let pos = 0
  let pi = 0 // cursor into found (prices are in text order)
  // a line (or the rest of one) outside a header's block: line items, or the post's price
  // the last bulleted or numbered line item while it has no price: a "Price: $275" line under it (after its
  // description) is its price ("2. Gigabyte GTX 1060 … Video Card" … "Price: $275")
  let heading: Unit | null = null
  const plain = (from: number, to: number, prices: FoundPrice[]) => {
    const line = text.slice(from, to)
    const hasMarker = hasSideMarker(line)
    if (!hasMarker && PRICE_LINE.test(line) && prices.some((p) => p.role === 'item')) {
      // the seller's price, not an item ("Asking for 285 shipped, local pickup for a discount")
      if (heading && !hasItemPrice(heading)) heading.prices.push(...prices)
      else for (const p of prices) if (p.role === 'item') loose.push(strip(p))
      heading = null
      return
    }
    if (!(BULLET.test(line) || prices.some((p) => p.role === 'item') || hasMarker)) {
      for (const p of prices) if (p.role === 'item') loose.push(strip(p))
      return
    }
    const r = readLine(text, from, to, prices, null, dict)
    // a price per round makes the line ammunition, an item even when calibre and grain are all it says
    const ammo = prices.some((p) => p.role === 'item' && p.unit === 'round')
    if (!hasMarker && !BULLET.test(line) && !ammo && !r.units.some((u) => u.item)) {
      // "Asking $450 shipped.": a price line that names no item is the post's price, not an item
      for (const p of prices) if (p.role === 'item') loose.push(strip(p))
      return
    }
    shareBundlePrice(r.units)
    all.push(...r.units)
    sides.push(...r.sides)
    const last = r.units[r.units.length - 1]
    heading = BULLET.test(line) && !hasMarker && last && last.item && !r.units.some(hasItemPrice) ? last : null
  }
  // want sentences of [from, to): from the words to the end of their sentence ("Want: PVS-14 or nods. Otherwise 507C
  // $240"); what follows is read on its own — a further want sentence ("Looking for trades, but would prefer money.
  // Looking for a 1440p monitor") is one too, the rest a plain line. False when the text has none.
  const wants = (from: number, to: number, prices: FoundPrice[]): boolean => {
    let found = false
    const base = from
    const part = text.slice(from, to)
    while (from < to) {
      WANT_AT.lastIndex = from - base
      const wl = WANT_AT.exec(part)
      if (!wl) {
        if (found) plain(from, to, prices)
        return found
      }
      found = true
      const at = base + wl.index
      const end = sentenceEnd(text, at + wl[0].length, to)
      sides.push({ start: at, end, side: 'want' })
      all.push(...units(text, at + wl[0].length, end, 'want', prices, dict))
      prices = prices.filter((p) => p.start >= end)
      from = end
    }
    return found
  }
  while (pos <= text.length) {
    let eol = text.indexOf('\n', pos)
    if (eol < 0) eol = text.length
    const line = text.slice(pos, eol)
    const linePrices: FoundPrice[] = []
    while (pi < found.length && found[pi]!.start < eol) {
      if (found[pi]!.start >= pos) linePrices.push(found[pi]!)
      pi++
    }
    if (line.trim() === '') block = null
    else {
      const header = line.length <= 40 ? HEADER.exec(line) : null
      if (header) {
        const w = header[1]!.toLowerCase()
        block = w.startsWith('w') || w.startsWith('looking') ? 'want' : 'have'
        sides.push({ start: pos, end: eol, side: block })
      } else {
        if (block === null && mayWant(line) && !hasSideMarker(line) && wants(pos, eol, linePrices)) {
          // read by wants()
        } else if (block) {
          const r = readLine(text, pos, eol, linePrices, block, dict)
          all.push(...r.units)
          sides.push(...r.sides, { start: pos, end: eol, side: block })
        } else plain(pos, eol, linePrices)
      }
    }
    pos = eol + 1
  }
  return finish(all, sides, loose, found)
}

// ---------------------------------------------------------------------------------------------
// Accessory-for mentions (token level)

const FOR_BLOCKED_BEFORE = new Set(
  (
    'look looking search searching trade trading wtt swap swapping sale sell selling sold buy buying want wanted wtb iso offer asking ask pay paid ' +
    'price priced hold holding pending listed go going ship shipped shipping local it them this that all both only or and obo thank thanks ' +
    'wait waiting reason reasons used use same good great perfect ideal'
  ).split(' '),
)
const FOR_BLOCKED_AFTER = new Set(
  (
    'sale trade sell cash paypal pp local pickup shipping free me you him her them it now all both more less pair set price part spare sure ' +
    'reference ref size scale anyone someone interested those detail info question offer obo up what which how long any one two year month ' +
    'week day day while the'
  ).split(' '),
)
/** Parts named after the product they fit, directly before the word ("T2 mount", "Glock 19 mags"). */
const PART_MARKERS = ['mount', 'plate', 'adapter', 'riser', 'spacer', 'shroud', 'protector', 'cover', 'cap', 'killflash', 'mag', 'magazine', 'barrel', 'loader']
/** Parts the maker of the product also makes (OEM mags, barrels): "Glock 19 mags" marks the model "19", not the brand "Glock". */
const MAKER_PARTS = new Set(['mag', 'magazine', 'barrel'])
const PART_SET = new Set(PART_MARKERS)
/** Words that describe the fit itself: what comes before them is always a mention. */
const DESCRIPTORS = new Set(['style', 'cut', 'footprint', 'pattern', 'compatible', 'clone'])
const ARTICLES = new Set(['the', 'a', 'an', 'your', 'my', 'use', 'any', 'most', 'all', 'standard'])
const STOP = new Set(
  (
    'and or with w in on only plus but will obo shipped sold by from to at is are new used lnib nib bnib condition price asking for mount ' +
    'holster strap bracelet band case slide optic plate adapter cut style footprint pattern compatible fit free oem extra spare'
  ).split(' '),
)
const AFTER_MARKERS = new Set([
  'style',
  // "Topre clone": another maker's copy of it
  'clone',
  'cut',
  'footprint',
  'pattern',
  'compatible',
  'strap',
  'bracelet',
  'band',
  'holster',
  'buckle',
  'clasp',
  'endlink',
  // parts and covers named after what they fit ("T2 mount", "RMR plate", "P365 mags", "507C shroud")
  ...PART_MARKERS,
])

export type TokenTrack = {
  tokens: string[]
  starts: number[]
  ends: number[]
  /** segment id per position (0 = context) */
  seg: Uint16Array
  /** 1 where a product or category the dictionary knows starts ("Acro", "Romeo", "suppressor"): a model, not a maker */
  product?: Uint8Array
}

/** Is the text between two tokens nothing but spaces (and at most one '-'/'.')? Then they read as one phrase. */
function joined(text: string, a: number, b: number): boolean {
  if (b - a > 3) return false
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 45 && c !== 46) return false
  }
  return true
}

function isNum(t: string): boolean {
  const c = t.charCodeAt(0)
  return c >= 48 && c <= 57
}

/**
 * Marks accessory-for mentions in positions [from, to) of `track` (tokens of `text`, offsets into it),
 * writing 1 into `fits`. `found` are the prices of the text (a price ends a mention).
 */
export function markFits(text: string, track: TokenTrack, from: number, to: number, fits: Uint8Array, found: FoundPrice[]) {
  const { tokens, starts, ends, seg } = track
  // positions inside a price, found by one merge of the sorted tokens and prices
  const priceTok = tokensInPrices(track, from, to, found)
  const isPrice = (k: number) => priceTok[k - from] === 1
  const markAfter = (k: number) => {
    // k = first candidate position; up to 4 words, joined, same segment
    let j = k
    while (j < to && ARTICLES.has(tokens[j]!) && joined(text, ends[j - 1]!, starts[j]!)) j++
    if (j >= to || !joined(text, ends[j - 1]!, starts[j]!) || FOR_BLOCKED_AFTER.has(tokens[j]!) || isPrice(j)) return
    let segment = seg[k - 1]!
    // a list of models goes on: "fits RMR / 507C / SRO", "fits Glock 17, 19 or 26" (at most 6 members)
    for (let member = 0; member < 6; member++) {
      for (let n = 0; n < 4 && j < to; n++, j++) {
        const t = tokens[j]!
        if (t === '' || seg[j] !== segment || STOP.has(t) || isPrice(j)) break
        if (n > 0 && !joined(text, ends[j - 1]!, starts[j]!)) break
        fits[j] = fits[j]! | MARK_ACCESSORY
      }
      if (j >= to || j === k) return
      let next = j
      // what the accessory fits goes on with what is mounted on it: "holster for Glock 19 w/ TLR-7",
      // "fits Glock 17/19 with X300", "for G19 + X300" (the light is part of the fit, not a second item)
      const mounted = tokens[next] === 'with' || tokens[next] === 'w'
      if (mounted || tokens[next] === 'or' || tokens[next] === 'and') next++
      if (next >= to || tokens[next] === '' || isPrice(next) || !modelLike(text, track, next, from)) return
      const gap = text.slice(ends[j - 1]!, starts[j]!)
      const slash = /^\s*\/\s*$/.test(gap)
      const plus = /^\s*\+\s*$/.test(gap)
      if (!(slash || plus || /^\s*,?\s*$/.test(gap))) return
      // a title splits items at " / " and "+": the list may cross into the next segment there, not at a comma
      if (seg[next] !== segment) {
        if (!slash && !plus) return
        segment = seg[next]!
      }
      j = next
    }
  }
  for (let i = from; i < to; i++) {
    const t = tokens[i]!
    if (t === 'for' || t === 'fit' || (t === 'with' && i > from && tokens[i - 1] === 'compatible')) {
      if (t === 'for' && i > from && FOR_BLOCKED_BEFORE.has(tokens[i - 1]!)) continue
      if (t === 'for' && i > from && isNum(tokens[i - 1]!) && isPrice(i - 1)) continue
      if (i + 1 < to && seg[i + 1] === seg[i]) markAfter(i + 1)
      continue
    }
    if (AFTER_MARKERS.has(t) && i > from) {
      // "holster for Glock 19": the for-rule marks what it fits, not the holster's own brand
      // (a part after a model still marks it: "RMR mount for AR"; and "RMR footprint for a Glock" is a mention)
      if (i + 1 < to && tokens[i + 1] === 'for' && !DESCRIPTORS.has(t) && !(PART_SET.has(t) && i > from && modelLike(text, track, i - 1, from))) continue
      markBefore(text, track, i, from, fits)
    }
  }
}

/**
 * Does the word run ending at position k name a product model rather than a maker: a digit in the run
 * ("T2", "507C", "Glock 19"), a short word written in capitals ("RMR", "SRO", "ACOG"), or the start of a
 * product or category of the dictionary ("Acro plate", "suppressor mount")? A part is
 * named after the model it fits ("T2 mount"); before a maker's name it is that maker's part ("Trijicon mount").
 */
function modelLike(text: string, track: TokenTrack, k: number, from: number): boolean {
  const { tokens, starts, ends } = track
  if (isNum(tokens[k]!) || track.product?.[k] === 1) return true
  if (k > from && ends[k - 1] === starts[k] && isNum(tokens[k - 1]!)) return true
  if (k + 1 < tokens.length && starts[k + 1] === ends[k] && isNum(tokens[k + 1]!)) return true
  const w = text.slice(starts[k]!, ends[k]!)
  if (w.length < 2 || w.length > 5) return false
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i)
    if (!(c >= 65 && c <= 90) && !(c >= 48 && c <= 57)) return false
  }
  return true
}

/** The word run before position m ("RMR" in "RMR-style", "glock 19" in "Glock 19 holster"). */
function markBefore(text: string, track: TokenTrack, m: number, from: number, fits: Uint8Array) {
  const { tokens, starts, ends, seg } = track
  let k = m - 1
  if (k < from || tokens[k] === '' || seg[k] !== seg[m] || !joined(text, ends[k]!, starts[m]!) || STOP.has(tokens[k]!)) return
  if (PART_SET.has(tokens[m]!) && !modelLike(text, track, k, from)) return
  // first word: tokens glued together ("t2", "507c", "rmr"), or model codes joined by one "/" ("T2/H2 mount")
  const glued = (a: number) =>
    a > from && tokens[a - 1] !== '' && (ends[a - 1] === starts[a] || (starts[a]! - ends[a - 1]! === 1 && text.charCodeAt(ends[a - 1]!) === 47))
  let allDigits = true
  for (;;) {
    fits[k] = fits[k]! | MARK_ACCESSORY
    if (!isNum(tokens[k]!)) allDigits = false
    if (!glued(k)) break
    k--
  }
  // a bare number names its product with the word before it ("glock 19", "bay 36")
  if (
    allDigits &&
    !MAKER_PARTS.has(tokens[m]!) &&
    k - 1 >= from &&
    tokens[k - 1] !== '' &&
    seg[k - 1] === seg[m] &&
    !STOP.has(tokens[k - 1]!) &&
    joined(text, ends[k - 1]!, starts[k]!)
  ) {
    fits[k - 1] = fits[k - 1]! | MARK_ACCESSORY
  }
}

/** Head nouns that make an item a part or an accessory of the model named before them. */
const HEAD_PARTS = new Set([...PART_MARKERS, 'holster', 'trigger', 'slide', 'kit', 'rail', 'handguard', 'strap', 'bracelet', 'band', 'key'])
/** Words after the head noun that still leave it the item's last word ("Glock 19 mags (3) - $60 shipped"). */
const TAIL = new Set(['x', 'ea', 'each', 'pair', 'set', 'pack', 'lot', 'only', 'new', 'used', 'lnib', 'nib', 'bnib', 'obo', 'shipped', 'ship', 'firm', 'oem'])
/** Words before a gun's brand that say the mags are the gun maker's own, not another maker's. */
const FACTORY = new Set([
  'genuine',
  'factory',
  'original',
  'official',
  'stock',
  'brand',
  'authentic',
  'real',
  'spare',
  'extra',
  'gen',
  'x',
  'all',
  'some',
  'few',
])
/** Gun makers (normalised tokens): their name on one of their own parts is MARK_MAKER_PART. */
const GUN_MAKERS = new Set(
  'glock sig sauer ruger smith wesson cz springfield canik walther beretta colt taurus kimber staccato hk heckler koch brugger thomet fn psa shadow zev'.split(
    ' ',
  ),
)
/** Words before a head noun that say the item comes without it. */
const NEGATIONS = new Set(['no', 'without', 'wo', 'sans'])
/** Words that start another thing within an item: what comes before them is not the part's model. */
const JOINERS = new Set(['and', 'with', 'w', 'plus', 'or'])

/**
 * An item whose last word (before prices, counts and condition words) is a part or an accessory —
 * "Glock 19 Gen 5 OEM barrel - $80", "RMR top plate $30", "Glock 19 slide parts kit" — marks the model
 * words before it (a digit in the word, or a short word in capitals; for mags and barrels only words with
 * a digit) as accessory-for, back to the nearest "and"/"with"/"w/". A head noun that is an extra ("w/ mount",
 * MARK_EXTRA, set before) is not the item's. A gun maker's name left unmarked there is its own part
 * (MARK_MAKER_PART: "Glock OEM trigger kit"). One pass over the runs of each segment.
 */
export function markHeadParts(text: string, track: TokenTrack, from: number, to: number, marks: Uint8Array, found: FoundPrice[], extra: number) {
  const { tokens, starts, ends, seg } = track
  const priceTok = tokensInPrices(track, from, to, found)
  let a = from
  while (a < to) {
    let b = a + 1
    while (b < to && seg[b] === seg[a] && tokens[b] !== '') b++
    if (seg[a] !== 0) {
      // the head: the last word of the run that is not a price, a number or a tail word
      let h = b - 1
      while (h > a && (priceTok[h - from] === 1 || isNum(tokens[h]!) || TAIL.has(tokens[h]!) || tokens[h] === '')) h--
      const head = tokens[h]!
      // "Aimpoint T-2, no mount": a part the item comes without is not its head
      const without = h > a && NEGATIONS.has(tokens[h - 1]!)
      // a kit of a dictionary product is that product ("DDR5 RAM kit", "GMK Olivia base kit"), not a part of what comes before
      const productKit = head === 'kit' && h > a && track.product?.[h - 1] === 1
      if (HEAD_PARTS.has(head) && (marks[h]! & extra) === 0 && !without && !productKit) {
        const digitsOnly = MAKER_PARTS.has(head)
        let first = -1 // the first model word of the run, for the maker rule below
        let k = h - 1
        for (; k >= a && !JOINERS.has(tokens[k]!); k--) {
          if ((marks[k]! & extra) !== 0 || priceTok[k - from] === 1) continue
          const digit =
            isNum(tokens[k]!) ||
            (k > a && starts[k] === ends[k - 1] && isNum(tokens[k - 1]!)) ||
            (k + 1 < b && starts[k + 1] === ends[k] && isNum(tokens[k + 1]!))
          if (digitsOnly ? digit : modelLike(text, track, k, from)) {
            marks[k] = marks[k]! | MARK_ACCESSORY
            first = k
          }
        }
        // mags and barrels by another maker: a name before the gun's brand makes them that maker's
        // ("ETS Glock 19 mags", "KCI Glock 17 mags"): the brand is marked too ("Glock 19 mags", "OEM Glock 19 mags" keep it)
        const brand = first - 1
        if (digitsOnly && brand - 1 > k && !isNum(tokens[brand]!) && (marks[brand]! & MARK_ACCESSORY) === 0) {
          const maker = tokens[brand - 1]!
          // (a two-word maker, "Heckler Koch", "Smith Wesson", is the gun's own brand)
          if (
            maker !== '' &&
            !isNum(maker) &&
            !STOP.has(maker) &&
            !TAIL.has(maker) &&
            !FACTORY.has(maker) &&
            !(GUN_MAKERS.has(maker) && GUN_MAKERS.has(tokens[brand]!)) &&
            priceTok[brand - 1 - from] !== 1
          )
            marks[brand] = marks[brand]! | MARK_ACCESSORY
        }
        for (let m = h - 1; m > k; m--) if (GUN_MAKERS.has(tokens[m]!) && (marks[m]! & (MARK_ACCESSORY | extra)) === 0) marks[m] = marks[m]! | MARK_MAKER_PART
      }
    }
    a = b
  }
}

/** 1 for each position of [from, to) inside a price: one merge of the sorted tokens and prices. */
function tokensInPrices(track: TokenTrack, from: number, to: number, found: FoundPrice[]): Uint8Array {
  const { starts } = track
  const out = new Uint8Array(to - from)
  for (let k = from, q = 0; k < to && q < found.length;) {
    const p = found[q]!
    if (starts[k]! >= p.end) q++
    else {
      if (starts[k]! >= p.start) out[k - from] = 1
      k++
    }
  }
  return out
}
