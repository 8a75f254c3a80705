// Parses a saved term into a Query: OR of alternatives, each an AND of sequences, exclusions and
// price bounds. Never throws: a malformed term gets a message meant for the user.
// Order of reading: the term is lowercased and trimmed, length-checked, then scanned left to right;
// "|" closes an alternative; each alternative is validated when it closes.
// Pure and free of runtime imports: highlight.ts uses it in the browser.

import { normalize } from './normalize'
import { parseAmount, type PriceBound, type PriceOp } from './price'

export const MAX_TERM_LENGTH = 200

/** Normalised tokens that must occur adjacent and in order; `prefix`: the last one only has to start a token. */
export type Sequence = { tokens: string[]; prefix: boolean }
export type Alternative = { include: Sequence[]; exclude: Sequence[]; prices: PriceBound[] }
export type Query = { alternatives: Alternative[] }
export type ParseResult = { ok: true; query: Query } | { ok: false; error: string }

export const MESSAGES = {
  empty: 'Enter at least one word to look for',
  tooLong: `Too long: a term can have at most ${MAX_TERM_LENGTH} characters`,
  unbalanced: 'Unbalanced quote: add the closing "',
  emptyQuotes: 'Empty quotes: put at least one word between the quotes',
  emptyAlternative: 'Empty alternative around "|": put words on both sides of it',
  onlyExclusions: 'An alternative needs at least one word to look for (it has only exclusions)',
  onlyPrice: 'Add at least one word to look for (a price bound alone matches nothing)',
  noWord: 'Add at least one word to look for (letters or digits)',
  bareMinus: 'A "-" must be followed directly by the word to exclude, like -airsoft',
  bareStar: 'A "*" must follow the start of a word, like trij*',
  priceNoNumber: 'A price bound needs an amount, like <$500',
  priceExcluded: 'A price bound cannot be excluded: use the opposite bound, like >=$500 instead of -<$500',
} as const

/** "<" or ">" not followed by an amount (e.g. a pasted `<b>`): name the character and where it is. */
export function angleMessage(chunk: string): string {
  const c = chunk[0] === '>' ? '>' : '<'
  return `"${c}" is only allowed in a price bound, like ${c}$500: remove it from "${chunk}"`
}

type Scan = { i: number; s: string }

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0'
}

/** A word chunk runs until whitespace, a quote or "|". */
function readChunk(sc: Scan): string {
  const from = sc.i
  while (sc.i < sc.s.length && !isSpace(sc.s[sc.i]) && sc.s[sc.i] !== '"' && sc.s[sc.i] !== '|') sc.i++
  return sc.s.slice(from, sc.i)
}

/** Reads `"…"` (optionally followed by `*`). Null token list means the quote never closed. */
function readPhrase(sc: Scan): { seq: Sequence | null; error?: string } {
  const close = sc.s.indexOf('"', sc.i + 1)
  if (close < 0) return { seq: null, error: MESSAGES.unbalanced }
  let inner = sc.s.slice(sc.i + 1, close).trim()
  sc.i = close + 1
  let prefix = false
  if (sc.s[sc.i] === '*') {
    prefix = true
    sc.i++
  }
  if (inner.endsWith('*')) {
    prefix = true
    inner = inner.replace(/\*+$/, '')
  }
  const tokens = normalize(inner)
  if (tokens.length === 0) return { seq: null, error: inner === '' ? MESSAGES.emptyQuotes : MESSAGES.noWord }
  return { seq: { tokens, prefix } }
}

/** Reads `<500`, `<= $1,200`, `>$1.5k`, `>= 100$`. */
function readPrice(sc: Scan): { bound: PriceBound | null } {
  let op: string = sc.s[sc.i]!
  sc.i++
  if (sc.s[sc.i] === '=') {
    op += '='
    sc.i++
  }
  while (isSpace(sc.s[sc.i])) sc.i++
  if (sc.s[sc.i] === '$' || sc.s[sc.i] === '＄') sc.i++
  while (isSpace(sc.s[sc.i])) sc.i++
  const raw = readChunk(sc).replace(/\$$/, '')
  const amount = parseAmount(raw.normalize('NFKD'))
  return { bound: amount === null ? null : { op: op as PriceOp, amount } }
}

export function parseTerm(text: string): ParseResult {
  if (typeof text !== 'string') return { ok: false, error: MESSAGES.empty }
  const s = text.toLowerCase().trim()
  if (s.length === 0) return { ok: false, error: MESSAGES.empty }
  if (s.length > MAX_TERM_LENGTH) return { ok: false, error: MESSAGES.tooLong }

  const sc: Scan = { i: 0, s }
  const alternatives: Alternative[] = []
  let alt: Alternative = { include: [], exclude: [], prices: [] }
  let chunks = 0 // things written in this alternative, even if they normalised to nothing

  while (sc.i < s.length) {
    const c = s[sc.i]!
    if (isSpace(c)) {
      sc.i++
      continue
    }
    if (c === '|') {
      const err = closeError(alt, chunks)
      if (err) return { ok: false, error: err }
      alternatives.push(alt)
      alt = { include: [], exclude: [], prices: [] }
      chunks = 0
      sc.i++
      continue
    }
    chunks++
    if (c === '<' || c === '>') {
      const from = sc.i
      const { bound } = readPrice(sc)
      if (!bound) {
        // `<$` / `<=` with no amount is a price bound missing its number; anything else is a stray character
        const rest = s.slice(from + 1).replace(/^=/, '')
        if (rest === '' || /^[$\d\s]/.test(rest)) return { ok: false, error: MESSAGES.priceNoNumber }
        sc.i = from
        return { ok: false, error: angleMessage(readChunk(sc)) }
      }
      alt.prices.push(bound)
      continue
    }
    let negated = false
    if (c === '-') {
      const next = s[sc.i + 1]
      if (next === undefined || isSpace(next) || next === '|') return { ok: false, error: MESSAGES.bareMinus }
      if (next === '<' || next === '>') return { ok: false, error: MESSAGES.priceExcluded }
      negated = true
      sc.i++
    }
    let seq: Sequence | null
    if (s[sc.i] === '"') {
      const r = readPhrase(sc)
      if (r.error) return { ok: false, error: r.error }
      seq = r.seq
    } else {
      let chunk = readChunk(sc)
      let prefix = false
      if (chunk.endsWith('*')) {
        prefix = true
        chunk = chunk.replace(/\*+$/, '')
      }
      const tokens = normalize(chunk)
      if (prefix && tokens.length === 0) return { ok: false, error: MESSAGES.bareStar }
      // Punctuation or emoji on its own ("+", "🔥") is not a word: ignored.
      seq = tokens.length > 0 ? { tokens, prefix } : null
    }
    if (seq) (negated ? alt.exclude : alt.include).push(seq)
  }
  const err = closeError(alt, chunks)
  if (err) return { ok: false, error: alternatives.length > 0 && chunks === 0 ? MESSAGES.emptyAlternative : err }
  alternatives.push(alt)
  return { ok: true, query: { alternatives } }
}

/** Why the alternative being read cannot close (`chunks`: things written in it), or null. */
function closeError(alt: Alternative, chunks: number): string | null {
  if (chunks === 0) return MESSAGES.emptyAlternative
  if (alt.include.length === 0) {
    if (alt.exclude.length > 0) return MESSAGES.onlyExclusions
    if (alt.prices.length > 0) return MESSAGES.onlyPrice
    return MESSAGES.noWord
  }
  return null
}
