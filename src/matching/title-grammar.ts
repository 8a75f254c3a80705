// The one reader of a buy/sell title's tags and [H]/[W] sides. Classification (src/forums/classify.ts,
// sides.ts) and matching (listing-structure.ts, which reads body lines with the same markers) both call
// it, so a title has one reading: the same sides decide whether the post sells and which words a WTS or
// WTB term reads. Pure; table-tested with classification and matching together in
// tests/unit/matching/title-grammar.test.ts. No flair is needed (the Atom feed has none).
//
// Tags are bracket groups — "[…]", "(…)", "{…}" of at most 40 characters — and bare codes at the very
// start ("WTS: …", "WTB - …", "WTS Aimpoint …", "FS/FT: …", "For Sale: …", "WTS or WTT - …"; after a
// leading state: "SOLD - WTS: …", "[SOLD] FS …"). A group is read as
//   code     — trade codes: "[WTS]", "[WTB]", "[WTT]", "[FS]", "[FT]", "[FSOT]", "[ISO]", "[LF]",
//              "[For Sale]", "[Looking For]", "[Selling]", "[WTS/WTT]", "[WTT/WTB]", "[FS/FT]", and
//              r/photomarket's single letters "[S]", "[B]", "[T]", "[S/T]" (a group of those letters only:
//              "[S/M/L]" is a size run, not a code);
//   state    — a listing's state: "[SOLD]", "[Closed]", "(Pending)", "[SPF]" (sale pending funds),
//              "[Sale Pending]", "[PPU]", "(Reserved)", "[On Hold]", "[Pls Remove]", "[SOLD - pls remove]";
//   side     — a side marker: "[H]", "[W]", "[Have]", "[Has]", "[Want]", "[Wants]" (also in ( ) and { });
//   location — "[USA-TX]", "[US-CA]", "[CAN-ON]", "[EU-DE]", "[AUS-NSW]" (a country code, '-', 1–4
//              letters: "[AR-15]" and "[SIG-MCX]" are not; "[US-E]", "[US-NY-NYC]" with a city too), "[USA NC]"
//              (a space for the dash, both known codes), "[CT-USA]" (a region before a three-letter country),
//              a country or region alone ("[UK]", "[USA]",
//              "[CAN]", "[EU]", "[TX]", "[ON]": in capitals), or "City, XX" ("[San Juan, PR]", "[Austin, TX]")
//              where XX is such a code in capitals;
//   other    — anything else ("[Optic]", "(OBO)", "[NIB]").
// The post's location is the first location group's text, trimmed ("USA-TX", "San Juan, PR"); without one,
// a "City, XX" at the very end after a dash or a bar ("WTS: ACOG - Dallas, TX"), as forum classifieds write it.
//
// State (what forums' sellers write into a title when a listing ends; read by src/forums/post-state.ts,
// which adds flair and body): sold — a state group SOLD / CLOSED / "pls remove" (a seller asking the
// moderators to take a finished listing down: the item is gone), a leading "SOLD:" / "SOLD -" / "SOLD!" /
// "SOLD WTS …", a trailing "- SOLD", "*SOLD*", "… SOLD!" (a capitalised SOLD / CLOSED last, or any case after
// a dash, a bar or asterisks), "pls remove" / "please remove" at the end; pending — the same places marked
// PENDING / SPF / "sale pending" (a group also PPU, RESERVED, ON HOLD). Sold beats pending. The word in
// running text is not a mark ("sold as a set", "pending a trade", "SOLD OUT at Aero" is a deal's note).
//
// Sides. Markers: the side groups above, and "have:", "has:", "h:", "want:", "wants:", "w:" as a word
// of their own (after the start, a space, "]", ")" or a new line). Each side runs from its marker to the
// next marker or the end — a want side only to the end of its sentence ("[W] PayPal. Local pickup only
// in Austin": the rest is on no side). Text before the first marker (tags, location) is on no side.
// A title with one marker only has that side: "[W] Glock 19 mags" is all want, "[H] RMR" all have.

export type Side = 'have' | 'want'
export type TradeTag = 'wts' | 'wtb' | 'wtt'
export type SideMarker = { at: number; end: number; side: Side }
/** A side of a text: [start, end) after its marker (`at` is where the marker starts). */
export type SideSpan = { side: Side; at: number; start: number; end: number }
export type TagKind = 'code' | 'side' | 'location' | 'state' | 'other'
export type TitleState = 'sold' | 'pending'
export type TitleTag = { start: number; end: number; kind: TagKind; text: string }
export type TitleGrammar = {
  /** trade codes in order of appearance (the bare leading code first) */
  codes: TradeTag[]
  /** the first location tag's text ("USA-TX"), or null */
  location: string | null
  /** every bracket group, in order */
  tags: TitleTag[]
  /** the [H]/[W] sides, in order (empty when the title has no marker) */
  sides: SideSpan[]
  /** where the leading tags ("[WTS] [USA-CA]") end: the first character after them */
  tagsEnd: number
  /** the state the title marks (see the header), or null */
  state: TitleState | null
}

const CODES = new Map<string, TradeTag>(
  Object.entries({
    wts: 'wts',
    fs: 'wts',
    'for sale': 'wts',
    selling: 'wts',
    'want to sell': 'wts',
    fsot: 'wts',
    fsft: 'wts',
    wtb: 'wtb',
    iso: 'wtb',
    lf: 'wtb',
    'looking for': 'wtb',
    buying: 'wtb',
    'want to buy': 'wtb',
    wtt: 'wtt',
    ft: 'wtt',
    'for trade': 'wtt',
    trade: 'wtt',
    trading: 'wtt',
    'want to trade': 'wtt',
  } satisfies Record<string, TradeTag>),
)
/** The code table, for the flair reader (classify.ts). */
export const TRADE_CODES: ReadonlyMap<string, TradeTag> = CODES

// Bare codes at the start: one code or a run of them ("FS/FT", "WTS or WTT", "For Sale / Trade"), after an
// optional leading state ("SOLD - ", "[SOLD] ", "**SPF** ").
const BARE = String.raw`wts|wtb|wtt|fs|ft|iso|lf|fsot|for\s+sale|for\s+trade`
const LEAD_STATE = String.raw`(?:[[({]\s*(?:sold|closed|spf|pending)\s*[\])}]|\*{0,2}(?:sold|closed|spf|pending)\b\*{0,2}\s*[:\-–—!]?)\s*`
const LEADING = new RegExp(String.raw`^\s*(?:${LEAD_STATE})?((?:${BARE})(?:\s*(?:\/|&|\+|\bor\b)\s*(?:${BARE}|trade))*)(?=\s*[:\-–—]|\s)`, 'i')
const LEADING_SPLIT = /\s*(?:\/|&|\+|\bor\b)\s*/i
const GROUP = /[[({]([^\])}[({]{1,40})[\])}]/g
const SHORT_CODE = /^(wts|wtb|wtt|fs|iso|lf|ft|fsot|fsft)$/i

export function lookupCode(table: ReadonlyMap<string, TradeTag>, text: string): TradeTag | null {
  return table.get(text.toLowerCase().replace(/\s+/g, ' ').trim()) ?? null
}

// r/photomarket's "[S]", "[B]", "[T]", "[S/T]": single letters, only in a group of nothing else
const LETTER_CODES = /^\s*[sbt](?:\s*\/\s*[sbt])*\s*$/i
const LETTERS: Record<string, TradeTag> = { s: 'wts', b: 'wtb', t: 'wtt' }

/** Codes in one bracket group: "WTS/WTT" → [wts, wtt]; "For Sale" → [wts]; "S/T" → [wts, wtt]; "TX" → []. */
function groupCodes(content: string): TradeTag[] {
  const whole = lookupCode(CODES, content)
  if (whole) return [whole]
  if (LETTER_CODES.test(content)) return content.split('/').map((l) => LETTERS[l.trim().toLowerCase()]!)
  const out: TradeTag[] = []
  for (const part of content.split(/[/,&|+\\]|\s-\s/)) {
    const code = lookupCode(CODES, part)
    if (code) {
      out.push(code)
      continue
    }
    for (const word of part.trim().split(/\s+/)) {
      const w = lookupCode(CODES, word)
      // single words only for the short codes: "Sale" or "For" alone mean nothing
      if (w && SHORT_CODE.test(word)) out.push(w)
    }
  }
  return out
}

// Countries written first in "XX-YY" ("USA-TX", "CAN-ON", "EU-DE"), and the regions a tag may hold alone or
// after "City, ": those countries, US states, Canadian provinces.
const COUNTRIES = new Set('USA US CAN CA UK GB EU AUS AU NZ DE GER FR IT ES NL BE SE NO DK FI IE PL AT CH PT CZ MX JPN JP SG HK PR'.split(' '))
const REGIONS = new Set([
  ...COUNTRIES,
  ...(
    'DC AL AK AZ AR CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
    'AB BC MB NB NL NS NT NU ON PE QC SK YT'
  ).split(' '),
])
// "USA-TX", "US-E", "US-NY-NYC" (a city after the region), "USA NC" (a space for the dash: then both parts
// must be known codes), "CT-USA" (a region before a three-letter country)
const REGION_CODE = /^([A-Za-z]{2,3})\s*-\s*([A-Za-z]{1,4})(?:\s*-\s*[A-Za-z]{2,4})?$/
const REGION_SPACE = /^([A-Za-z]{2,3})\s+([A-Za-z]{2,3})$/
const REGION_FIRST = /^([A-Za-z]{2})\s*-\s*([A-Za-z]{3})$/
const CITY = /^[\p{L}][\p{L} .'-]{1,30},\s*([A-Z]{2,3})$/u

/** Is a bracket group's text a location ("USA-TX", "UK", "TX", "San Juan, PR")? "[AR-15]", "[SIG-MCX]" are not. */
export function isLocation(content: string): boolean {
  const text = content.trim()
  const first = REGION_FIRST.exec(text)
  if (first && !COUNTRIES.has(first[1]!.toUpperCase()) && REGIONS.has(first[1]!.toUpperCase()) && COUNTRIES.has(first[2]!.toUpperCase())) return true
  const code = REGION_CODE.exec(text)
  if (code) return COUNTRIES.has(code[1]!.toUpperCase())
  const spaced = REGION_SPACE.exec(text)
  if (spaced) return COUNTRIES.has(spaced[1]!.toUpperCase()) && REGIONS.has(spaced[2]!.toUpperCase())
  // alone: a code in capitals ("[TX]", "[UK]"; "[ok]" is not), or a three-letter country in any case ("[Usa]")
  if (/^[A-Za-z]{2,3}$/.test(text)) return text === text.toUpperCase() ? REGIONS.has(text) : text.length === 3 && COUNTRIES.has(text.toUpperCase())
  const city = CITY.exec(text)
  return city !== null && REGIONS.has(city[1]!)
}

const SIDE_WORDS = new Map<string, Side>([
  ['have', 'have'],
  ['has', 'have'],
  ['h', 'have'],
  ['want', 'want'],
  ['wants', 'want'],
  ['w', 'want'],
])
const MAX_MARKERS = 8
const lowerCode = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c)
const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)

/** The side a bracket group's text names ("H", " Have ", "wants"), or null. */
function sideWord(text: string): Side | null {
  const w = text.trim()
  return w.length <= 5 ? (SIDE_WORDS.get(w.toLowerCase()) ?? null) : null
}

/**
 * Side markers of text[from, to), in order (at most 8): "[H]", "(W)", "{Have}", "[ Want ]", and
 * "have:", "has:", "h:", "want:", "wants:", "w:" as a word of their own. One pass.
 */
export function sideMarkers(text: string, from = 0, to = text.length): SideMarker[] {
  const out: SideMarker[] = []
  for (let i = from; i < to && out.length < MAX_MARKERS; i++) {
    const c = text.charCodeAt(i)
    if (c > 125 || (c !== 91 && c !== 40 && c !== 123 && c !== 58)) continue
    const close = c === 91 ? 93 : c === 40 ? 41 : c === 123 ? 125 : 0
    if (close !== 0) {
      let j = i + 1
      while (j < to && text.charCodeAt(j) === 32) j++
      const w = lowerCode(text.charCodeAt(j))
      if (w !== 104 && w !== 119) continue
      let k = j + 1
      while (k < to && k - j < 6 && isAsciiLetter(text.charCodeAt(k))) k++
      const word = text.slice(j, k)
      while (k < to && text.charCodeAt(k) === 32) k++
      if (k >= to || text.charCodeAt(k) !== close) continue
      const side = sideWord(word)
      if (side) out.push({ at: i, end: k + 1, side })
    } else {
      let e = i
      while (e > from && text.charCodeAt(e - 1) === 32) e--
      let b = e
      while (b > from && e - b < 6 && isAsciiLetter(text.charCodeAt(b - 1))) b--
      if (b === e || (b > from && isAsciiLetter(text.charCodeAt(b - 1)))) continue
      const before = b > from ? text.charCodeAt(b - 1) : 32
      if (before !== 32 && before !== 93 && before !== 41 && before !== 10) continue
      const side = SIDE_WORDS.get(text.slice(b, e).toLowerCase())
      if (side) out.push({ at: b, end: i + 1, side })
    }
  }
  return out
}

/** The end of the sentence that runs on from `from` (before `to`): a '.', '!' or '?' followed by a space and a capital. */
export function sentenceEnd(text: string, from: number, to: number): number {
  for (let i = from; i < to - 2; i++) {
    const c = text.charCodeAt(i)
    if ((c === 46 || c === 33 || c === 63) && text.charCodeAt(i + 1) === 32) {
      const d = text.charCodeAt(i + 2)
      if (d >= 65 && d <= 90) return i + 1
    }
  }
  return to
}

/** The sides of one line text[from, to) from its markers: each to the next marker, a want to its sentence's end. */
export function lineSides(text: string, from = 0, to = text.length, ms: SideMarker[] = sideMarkers(text, from, to)): SideSpan[] {
  const out: SideSpan[] = []
  for (let k = 0; k < ms.length; k++) {
    const m = ms[k]!
    const next = k + 1 < ms.length ? ms[k + 1]!.at : to
    out.push({ side: m.side, at: m.at, start: m.end, end: m.side === 'want' ? sentenceEnd(text, m.end, next) : next })
  }
  return out
}

/** Leading bracket groups ("[WTS] [USA-CA]", "[USA-CA]-"): the first character after them; a side marker ends them. */
export function leadingTagsEnd(text: string, from = 0, to = text.length): number {
  let i = from
  for (;;) {
    while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
    if (text.charCodeAt(i) !== 91 /* [ */) return i
    const close = text.indexOf(']', i)
    if (close < 0 || close >= to || close - i > 40) return i
    if (sideWord(text.slice(i + 1, close)) !== null) return i
    i = close + 1
  }
}

/** Titles are at most 300 characters on Reddit; a longer one is read up to here. */
export const TITLE_GRAMMAR_MAX = 1_000

/** The whole reading of a title (see the header). */
export function readTitleGrammar(full: string): TitleGrammar {
  const title = full.length > TITLE_GRAMMAR_MAX ? full.slice(0, TITLE_GRAMMAR_MAX) : full
  const codes: TradeTag[] = []
  const lead = LEADING.exec(title)
  for (const part of lead ? lead[1]!.split(LEADING_SPLIT) : []) {
    const code = lookupCode(CODES, part)
    if (code) codes.push(code)
  }
  const tags: TitleTag[] = []
  let location: string | null = null
  let state = edgeState(title)
  for (const m of title.matchAll(GROUP)) {
    const inner = m[1]!
    const found = groupCodes(inner)
    const start = m.index!
    const tag: TitleTag = { start, end: start + m[0].length, kind: 'other', text: inner.trim() }
    const marked = found.length > 0 ? null : groupState(inner)
    if (found.length > 0) {
      codes.push(...found)
      tag.kind = 'code'
    } else if (sideWord(inner) !== null) tag.kind = 'side'
    else if (marked !== null) {
      tag.kind = 'state'
      if (state !== 'sold') state = marked
    } else if (isLocation(inner)) {
      tag.kind = 'location'
      location ??= tag.text.replace(/\s+/g, ' ')
    }
    tags.push(tag)
  }
  location ??= trailingCity(title)
  const tagsEnd = leadingTagsEnd(title)
  return { codes, location, tags, sides: lineSides(title, tagsEnd, title.length), tagsEnd, state }
}

// Forum classifieds write the place last, after a dash or a bar: "For Sale: ACOG TA31 - Dallas, TX".
const TRAILING_CITY = /\s[-–—|]\s*([\p{L}][\p{L} .'-]{1,30},\s*[A-Z]{2,3})\s*$/u

function trailingCity(title: string): string | null {
  const m = TRAILING_CITY.exec(title)
  return m && isLocation(m[1]!) ? m[1]!.replace(/\s+/g, ' ') : null
}

const STATE_WORDS = new Map<string, TitleState>([
  ['sold', 'sold'],
  ['closed', 'sold'],
  ['pls remove', 'sold'],
  ['plz remove', 'sold'],
  ['please remove', 'sold'],
  ['pending', 'pending'],
  ['sale pending', 'pending'],
  ['pending sale', 'pending'],
  ['spf', 'pending'],
  ['sale pending funds', 'pending'],
  ['pending funds', 'pending'],
  ['ppu', 'pending'],
  ['reserved', 'pending'],
  ['on hold', 'pending'],
])
const STATE_PARTS = /[/,|&+]|\s[-–—]\s|\s+(?=(?:pls|plz|please)\b)/i

/** The state one bracket group names ("SOLD", "Sale Pending", "SOLD - pls remove"), or null: every part must be a state word. */
function groupState(content: string): TitleState | null {
  let out: TitleState | null = null
  for (const part of content.split(STATE_PARTS)) {
    const word = part
      .toLowerCase()
      .replace(/[!.*~]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
    if (word === '') continue
    const s = STATE_WORDS.get(word)
    if (!s) return null
    if (out !== 'sold') out = s
  }
  return out
}

// Outside brackets, at the very start ("SOLD: …", "SOLD - …", "SOLD! …", "**SPF** WTS …") or the very end
// ("… - SOLD", "… *sold*", "… SOLD!", "… SPF", "… pls remove").
const EDGE_WORD = String.raw`(sold|closed|spf|pending)`
const STATE_START = new RegExp(String.raw`^\s*\*{0,2}${EDGE_WORD}\b\*{0,2}\s*(?:[:\-–—!]|(?=(?:${BARE})\b))`, 'i')
const STATE_END_AFTER_MARK = new RegExp(String.raw`(?:^|\s)(?:[-–—|~]\s*\*{0,2}|\*{1,2})\s*${EDGE_WORD}\s*\*{0,2}[\s!.]*$`, 'i')
const STATE_END_CAPS = /\s(SOLD|CLOSED|SPF|PENDING)[\s!.]*$/
const REMOVE_END = /\b(?:pls|plz|please)\.?\s+remove\b[\s!.*\])]*$/i

function edgeState(title: string): TitleState | null {
  if (REMOVE_END.test(title)) return 'sold'
  let out: TitleState | null = null
  for (const re of [STATE_START, STATE_END_AFTER_MARK, STATE_END_CAPS]) {
    const m = re.exec(title)
    if (!m) continue
    const s = STATE_WORDS.get(m[1]!.toLowerCase())!
    if (s === 'sold') return s
    out = s
  }
  return out
}

/** The title's location tag ("USA-TX"), or null. */
export function titleLocation(title: string): string | null {
  return readTitleGrammar(title).location
}

/** The text of each side ('' for a side the title does not have), or null when the title has no marker. */
export function sideTexts(title: string, g: TitleGrammar = readTitleGrammar(title)): { have: string; want: string } | null {
  if (g.sides.length === 0) return null
  const out = { have: '', want: '' }
  for (const s of g.sides) {
    const text = title.slice(s.start, s.end).replace(/\s+/g, ' ').trim()
    if (text !== '') out[s.side] = out[s.side] ? `${out[s.side]} ${text}` : text
  }
  return out
}
