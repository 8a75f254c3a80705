// Parses a saved term into a Query: OR of alternatives, each an AND of sequences, exclusions, price
// bounds and field filters. Never throws: a malformed term gets a message meant for the user.
// Order of reading:
//   1. `rewriteOperators`: the capital operators other tools use (OR, AND, NOT, outside quotes) become
//      the Dibs forms (`|`, a space, `-`) BEFORE lowercasing — the stored term is the lowercased
//      Dibs form, so lowercase `or`/`and`/`not` stay words;
//   2. lowercased, trimmed, length-checked;
//   3. read left to right into a tree (`|` loosest, juxtaposition = AND, parentheses group,
//      `a/b` between model numbers = a word-level OR), then expanded into alternatives (at most
//      MAX_ALTERNATIVES); each alternative is validated.
// Pure and free of runtime imports besides normalize/price/location: the UI bundles it (highlight.ts,
// SearchTermsDialog).

import { normalize } from './normalize'
import { parsePlace } from './location'
import { parseAmount, type PriceBound, type PriceOp } from './price'

export const MAX_TERM_LENGTH = 200
/** `(a | b) (c | d) …` multiplies out: a term may expand to at most this many alternatives. */
export const MAX_ALTERNATIVES = 16

/** Where a sequence must occur: absent = in the matched item (with the post's shared context). */
export type Scope = 'post' | 'title'
/** Normalised tokens that must occur adjacent and in order; `prefix`: the last one only has to start a token. */
export type Sequence = { tokens: string[]; prefix: boolean; scope?: Scope }
/** A bound on the price of one unit: each (`<$15/ea`) or per round (`<$0.30/rd`, `<30cpr`). */
export type UnitBound = PriceBound & { unit: 'each' | 'round' }
export type Alternative = {
  include: Sequence[]
  exclude: Sequence[]
  /** bounds on the item's total price */
  prices: PriceBound[]
  /** the fields below are absent when the alternative does not use them */
  unitPrices?: UnitBound[]
  /** `author:name` (normalised, lowercase, no u/) — every one must equal the post's author */
  authors?: string[]
  /** `-author:name` */
  notAuthors?: string[]
  /** `flair:word` / `flair:"phrase"` against the post's flair tokens */
  flair?: Sequence[]
  notFlair?: Sequence[]
  /** `trades>=N`: confirmed trades read from the author's flair */
  trades?: PriceBound[]
  /** `age>=30d` (d, m = 30 days, y = 365 days; stored in days): the author's account age when they posted (Reddit OAuth look-up) */
  age?: PriceBound[]
  /** `karma>=100`: the author's link + comment karma (Reddit OAuth look-up) */
  karma?: PriceBound[]
  /** `loc:TX` / `-loc:CA`: place keys of location.ts ("US-TX", "US", "CA-ON") the post's location must (not) be in */
  places?: string[]
  notPlaces?: string[]
}
export type Query = { alternatives: Alternative[] }
export type ParseResult = { ok: true; query: Query } | { ok: false; error: string }

export const MESSAGES = {
  empty: 'Enter at least one word to look for',
  tooLong: `Too long: a term can have at most ${MAX_TERM_LENGTH} characters`,
  unbalanced: 'Unbalanced quote: add the closing "',
  emptyQuotes: 'Empty quotes: put at least one word between the quotes',
  emptyAlternative: 'Empty alternative around "|": put words on both sides of it',
  bareMinus: 'A "-" must be followed directly by the word to exclude, like -airsoft',
  bareTilde: 'A "~" must be followed directly by a word, like ~trijicon',
  bareStar: 'A "*" must follow the start of a word, like trij*',
  priceNoNumber: (written: string) => `A price bound needs an amount, like ${written[0] === '>' ? '>' : '<'}$500: "${written}" has none`,
  priceExcluded: 'A price bound cannot be excluded: use the opposite bound, like >=$500 instead of -<$500',
  priceNoBound: (amount: string) => `A price needs a bound: write <$${amount} (under) or >$${amount} (over)`,
  priceUnit: (written: string) => `A per-unit price is written like <$15/ea (each) or <$0.30/rd (per round), not "${written}"`,
  unclosedParen: 'Unbalanced parenthesis: add the closing )',
  strayParen: 'A ")" has no matching "(": remove it or add the "(" before',
  emptyParens: 'Empty parentheses: put words between ( and )',
  negatedGroup: 'Only a group of alternatives can be excluded, like -(airsoft | replica); write -a -b to exclude several words',
  tooMany: `Too many combinations: parentheses may expand a term into at most ${MAX_ALTERNATIVES} alternatives`,
  fieldEmpty: 'A field needs a value, like title:rmr, author:name, flair:wts or loc:TX',
  fieldScope: 'A field filter cannot also take "~": write title:word or ~word',
  authorName: 'An author is written like author:name (letters, digits, - and _)',
  tradesNumber: 'A trades bound needs a whole number, like trades>=10',
  tradesExcluded: 'A trades bound cannot be excluded: use the opposite bound, like trades<10',
  ageNumber: 'An account age bound needs a whole number of days, months or years, like age>=30d, age>=6m or age>=1y',
  karmaNumber: 'A karma bound needs a whole number, like karma>=100',
  trustExcluded: 'An age or karma bound cannot be excluded: use the opposite bound, like age<30d',
} as const

/** "<" or ">" not followed by an amount (e.g. a pasted `<b>`): name the character and where it is. */
export function angleMessage(chunk: string): string {
  if (/<\/?[a-z][a-z0-9]*>/.test(chunk)) return `Terms are plain words; "<" and ">" are only for prices like <$15: remove the tags from "${chunk}"`
  const c = chunk[0] === '>' ? '>' : '<'
  return `"${c}" is only allowed in a price bound, like ${c}$500: remove it from "${chunk}"`
}

/** What an alternative without a word to look for has instead (closeError). */
type Lack = 'exclusions' | 'price' | 'trades' | 'trust' | 'noWord'

/**
 * The whole term (`single`) or one side of "|" has nothing to look for: say which, quoting what
 * was written there (issue 30 §5: never "an alternative" where no "|" was written).
 */
function lackMessage(lack: Lack, written: string | undefined, single: boolean): string {
  const head = single ? 'A term needs at least one word to look for' : 'Each side of "|" needs a word to look for'
  if (!written) return `${head} (letters or digits)`
  if (lack === 'exclusions') return `${head}; "${written}" only excludes`
  if (lack === 'price') return `${head}; a price bound like "${written}" alone matches nothing`
  if (lack === 'trades') return `${head}; a trades bound like "${written}" alone matches nothing`
  if (lack === 'trust') return `${head}; a seller bound like "${written}" alone matches nothing`
  return `${head}; "${written}" has no letters or digits`
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0'
}

/**
 * The capital operators of Google/Syften searches, outside quotes, as Dibs forms: `OR` → `|`,
 * `AND` → a space, `NOT x` → `-x`. Only whole capital words between spaces or parentheses count.
 * Saving stores this form, lowercased, so the meaning survives (`rmr OR sro` is saved `rmr | sro`).
 */
export function rewriteOperators(text: string): string {
  if (!/\b(OR|AND|NOT)\b/.test(text)) return text
  const parts = text.split('"')
  for (let i = 0; i < parts.length; i += 2) {
    parts[i] = parts[i]!.replace(/(^|[\s(])OR(?=[\s)]|$)/g, '$1|')
      .replace(/(^|[\s(])AND(?=[\s)]|$)/g, '$1')
      .replace(/(^|[\s(])NOT(?:\s+|$|(?=\())/g, '$1-')
  }
  return parts.join('"')
}

// ---- reading: text → tree -------------------------------------------------------------------

/** One thing written in an alternative. */
type Item =
  | { k: 'inc'; seq: Sequence }
  | { k: 'exc'; seq: Sequence }
  | { k: 'price'; bound: PriceBound }
  | { k: 'unit'; bound: UnitBound }
  | { k: 'author'; name: string; neg: boolean }
  | { k: 'flair'; seq: Sequence; neg: boolean }
  | { k: 'trades'; bound: PriceBound }
  | { k: 'age'; bound: PriceBound }
  | { k: 'karma'; bound: PriceBound }
  | { k: 'place'; key: string; neg: boolean }
/** `chunks`: things written, even when they normalise to nothing (an emoji), and `text`, as written, for the messages. */
type Node = { k: 'items'; items: Item[]; chunks: number; text?: string } | { k: 'and'; nodes: Node[] } | { k: 'or'; nodes: Node[] }

class ParseError {
  constructor(readonly message: string) {}
}
const fail = (message: string): never => {
  throw new ParseError(message)
}

const FIELD = /^(title|author|flair|loc):/
const TRADES = /^trades(<=|>=|<|>)(.*)$/
const TRUST = /^(age|karma)(<=|>=|<|>)(.*)$/
const AGE_UNITS: Record<string, number> = { d: 1, m: 30, y: 365 }
const BARE_PRICE = /^(\$\s*[\d.,]+k?|[\d.,]*\d[\d.,]*k?\s*\$)$/

/** A part of `a/b` that reads as a model number: has a digit, and a letter or dash, or 3+ digits (`1/2` stays a fraction). */
function modelLike(part: string): boolean {
  return /\d/.test(part) && (/[^\d*]/.test(part) || part.replace(/\*/g, '').length >= 3)
}

class Reader {
  i = 0
  constructor(readonly s: string) {}

  /** A word chunk runs until whitespace, a quote, "|" or a parenthesis. */
  chunk(): string {
    const s = this.s
    const from = this.i
    while (this.i < s.length && !isSpace(s[this.i]) && s[this.i] !== '"' && s[this.i] !== '|' && s[this.i] !== '(' && s[this.i] !== ')') this.i++
    return s.slice(from, this.i)
  }

  /** Reads `"…"` (optionally followed by `*`). */
  phrase(scope: Scope | undefined): Sequence {
    const s = this.s
    const close = s.indexOf('"', this.i + 1)
    if (close < 0) {
      const before = /(\S*\d)$/.exec(s.slice(0, this.i))?.[1]
      fail(before ? `Unbalanced quote after "${before}": add the closing ", or write ${before} without the inch mark` : MESSAGES.unbalanced)
    }
    let inner = s.slice(this.i + 1, close).trim()
    this.i = close + 1
    let prefix = false
    if (s[this.i] === '*') {
      prefix = true
      this.i++
    }
    if (inner.endsWith('*')) {
      prefix = true
      inner = inner.replace(/\*+$/, '')
    }
    const tokens = normalize(inner)
    if (tokens.length === 0) fail(inner === '' ? MESSAGES.emptyQuotes : `The phrase "${inner}" has no letters or digits to look for`)
    return scope ? { tokens, prefix, scope } : { tokens, prefix }
  }

  /** The raw text of `"…"` (a `loc:` value: a code, not words). */
  quoted(): string {
    const close = this.s.indexOf('"', this.i + 1)
    if (close < 0) fail(MESSAGES.unbalanced)
    const inner = this.s.slice(this.i + 1, close)
    this.i = close + 1
    if (inner.trim() === '') fail(MESSAGES.emptyQuotes)
    return inner
  }

  /** Reads `<500`, `<= $1,200`, `>$1.5k`, `>= 100$`, `<$15/ea`, `<$0.40/rd`, `<30cpr`. */
  price(): Item {
    const s = this.s
    const from = this.i
    let op: string = s[this.i]!
    this.i++
    if (s[this.i] === '=') {
      op += '='
      this.i++
    }
    while (isSpace(s[this.i])) this.i++
    if (s[this.i] === '$' || s[this.i] === '＄') this.i++
    while (isSpace(s[this.i])) this.i++
    let raw = this.chunk().normalize('NFKD')
    let unit: 'each' | 'round' | null = null
    let scale = 1
    const per = /^(.*?)\$?\/(ea|each|pc|rd|rds|round|rounds|rnd)$/.exec(raw)
    if (per) {
      raw = per[1]!
      unit = per[2] === 'ea' || per[2] === 'each' || per[2] === 'pc' ? 'each' : 'round'
    } else if (raw.endsWith('cpr')) {
      raw = raw.slice(0, -3)
      unit = 'round'
      scale = 0.01
    } else if (raw.includes('/') && parseAmount(raw.slice(0, raw.indexOf('/')).replace(/\$$/, '')) !== null) fail(MESSAGES.priceUnit(s.slice(from, this.i)))
    const amount = parseAmount(raw.replace(/\$$/, ''))
    if (amount === null) {
      // `<$` / `<=` with no amount is a price bound missing its number; anything else is a stray character
      const rest = s.slice(from + 1).replace(/^=/, '')
      if (rest === '' || /^[$\d\s]/.test(rest)) fail(MESSAGES.priceNoNumber(s.slice(from, this.i).trim()))
      this.i = from
      fail(angleMessage(this.chunk()))
    }
    const bound = { op: op as PriceOp, amount: Math.round(amount! * scale * 10000) / 10000 }
    return unit ? { k: 'unit', bound: { ...bound, unit } } : { k: 'price', bound }
  }

  /** or := and ('|' and)* */
  or(depth: number): Node {
    const nodes: Node[] = [this.and(depth)]
    while (this.s[this.i] === '|') {
      this.i++
      nodes.push(this.and(depth))
    }
    return nodes.length === 1 ? nodes[0]! : { k: 'or', nodes }
  }

  /** and := (item | group)* up to '|', ')' or the end; an empty one is an error. */
  and(depth: number): Node {
    const s = this.s
    // in written order: runs of plain items, and sub-trees (groups, `a/b`)
    const nodes: Node[] = []
    let items: Item[] = []
    let chunks = 0
    let runFrom = this.i // where the current run of plain items was written (for the messages)
    for (;;) {
      while (isSpace(s[this.i])) this.i++
      const c = s[this.i]
      if (c === undefined || c === '|') break
      if (c === ')') {
        if (depth === 0) fail(MESSAGES.strayParen)
        break
      }
      chunks++
      const partFrom = this.i
      const node = this.part(depth, items)
      if (node) {
        if (items.length > 0) nodes.push({ k: 'items', items, chunks: 1, text: s.slice(runFrom, partFrom).trim() })
        nodes.push(node)
        items = []
        runFrom = this.i
      }
    }
    if (chunks === 0) fail(s[this.i] === ')' ? MESSAGES.emptyParens : MESSAGES.emptyAlternative)
    const text = s.slice(runFrom, this.i).trim()
    if (nodes.length === 0) return { k: 'items', items, chunks, text }
    if (items.length > 0) nodes.push({ k: 'items', items, chunks: 1, text })
    // an emoji-only part still counts as written
    nodes.push({ k: 'items', items: [], chunks })
    return { k: 'and', nodes }
  }

  /** One written thing: pushes its items, or returns a sub-tree (a group, `a/b`). */
  part(depth: number, items: Item[]): Node | null {
    const s = this.s
    const c = s[this.i]!
    if (c === '(') return this.group(depth, false)
    if (c === '<' || c === '>') {
      items.push(this.price())
      return null
    }
    let neg = false
    let anywhere = false
    if (c === '-') {
      const next = s[this.i + 1]
      if (next === undefined || isSpace(next) || next === '|' || next === ')') fail(MESSAGES.bareMinus)
      if (next === '<' || next === '>') fail(MESSAGES.priceExcluded)
      neg = true
      this.i++
      if (next === '(') return this.group(depth, true)
    }
    if (s[this.i] === '~') {
      const next = s[this.i + 1]
      if (next === undefined || isSpace(next) || next === '|' || next === ')' || next === '(' || next === '-') fail(MESSAGES.bareTilde)
      anywhere = true
      this.i++
    }
    const scope: Scope | undefined = anywhere ? 'post' : undefined
    if (s[this.i] === '"') {
      const seq = this.phrase(scope)
      items.push(neg ? { k: 'exc', seq } : { k: 'inc', seq })
      return null
    }
    const chunk = this.chunk()
    const field = FIELD.exec(chunk)
    if (field) return this.field(field[1]!, chunk.slice(field[0].length), neg, anywhere, items)
    const trades = TRADES.exec(chunk)
    if (trades) {
      if (neg) fail(MESSAGES.tradesExcluded)
      if (!/^\d{1,6}$/.test(trades[2]!)) fail(MESSAGES.tradesNumber)
      items.push({ k: 'trades', bound: { op: trades[1] as PriceOp, amount: Number(trades[2]) } })
      return null
    }
    const trust = TRUST.exec(chunk)
    if (trust) {
      if (neg) fail(MESSAGES.trustExcluded)
      const op = trust[2] as PriceOp
      if (trust[1] === 'age') {
        const m = /^(\d{1,5})([dmy])$/.exec(trust[3]!)
        if (!m) fail(MESSAGES.ageNumber)
        items.push({ k: 'age', bound: { op, amount: Number(m![1]) * AGE_UNITS[m![2]!]! } })
      } else {
        if (!/^\d{1,9}$/.test(trust[3]!)) fail(MESSAGES.karmaNumber)
        items.push({ k: 'karma', bound: { op, amount: Number(trust[3]) } })
      }
      return null
    }
    if (BARE_PRICE.test(chunk) || (chunk === '$' && /^\s*\d/.test(s.slice(this.i))))
      fail(MESSAGES.priceNoBound(chunk === '$' ? /^\s*([\d.,]+k?)/.exec(s.slice(this.i))![1]! : chunk.replace(/\$/g, '').trim()))
    if (chunk.includes('/')) {
      const parts = chunk.split('/')
      if (parts.length >= 2 && parts.every(modelLike)) {
        const alts: Node[] = []
        for (const p of parts) {
          const own: Item[] = []
          pushWord(p, scope, neg, own)
          alts.push({ k: 'items', items: own, chunks: 1, text: p })
        }
        // -t2/h2 excludes both: NOT (a OR b) = NOT a AND NOT b
        return neg ? { k: 'items', items: alts.flatMap((a) => (a as { items: Item[] }).items), chunks: 1, text: `-${chunk}` } : { k: 'or', nodes: alts }
      }
    }
    pushWord(chunk, scope, neg, items)
    return null
  }

  /** `(…)`; `-(a | b)` excludes each of its single-word alternatives. */
  group(depth: number, neg: boolean): Node {
    const from = neg ? this.i - 1 : this.i
    this.i++ // (
    const inner = this.or(depth + 1)
    if (this.s[this.i] !== ')') fail(MESSAGES.unclosedParen)
    this.i++
    if (!neg) return inner
    const alts = inner.k === 'or' ? inner.nodes : [inner]
    const out: Item[] = []
    for (const a of alts) {
      if (a.k !== 'items' || a.items.length !== 1 || a.items[0]!.k !== 'inc') fail(MESSAGES.negatedGroup)
      out.push({ k: 'exc', seq: (a as { items: { seq: Sequence }[] }).items[0]!.seq })
    }
    return { k: 'items', items: out, chunks: 1, text: this.s.slice(from, this.i) }
  }

  field(name: string, value: string, neg: boolean, anywhere: boolean, items: Item[]): null {
    if (anywhere) fail(MESSAGES.fieldScope)
    if (value === '' && this.s[this.i] !== '"') fail(MESSAGES.fieldEmpty)
    if (name === 'author') {
      if (value === '' || !/^(\/?u\/)?[a-z0-9_-]+$/.test(value)) fail(MESSAGES.authorName)
      items.push({ k: 'author', name: value.replace(/^\/?u\//, ''), neg })
      return null
    }
    if (name === 'loc') {
      const place = parsePlace(value === '' ? this.quoted() : value)
      if (!place.ok) fail(place.error)
      items.push({ k: 'place', key: (place as { key: string }).key, neg })
      return null
    }
    const scope: Scope | undefined = name === 'title' ? 'title' : undefined
    let seq: Sequence
    if (value === '') seq = this.phrase(scope)
    else {
      const word: Item[] = []
      pushWord(value, scope, false, word)
      if (word.length === 0) fail(MESSAGES.fieldEmpty)
      seq = (word[0] as { seq: Sequence }).seq
    }
    if (name === 'flair') items.push({ k: 'flair', seq: { tokens: seq.tokens, prefix: seq.prefix }, neg })
    else items.push(neg ? { k: 'exc', seq } : { k: 'inc', seq })
    return null
  }
}

/** A plain word (maybe ending in `*`). Punctuation or emoji on its own ("+", "🔥") is not a word: ignored. */
function pushWord(chunk: string, scope: Scope | undefined, neg: boolean, items: Item[]): void {
  let prefix = false
  if (chunk.endsWith('*')) {
    prefix = true
    chunk = chunk.replace(/\*+$/, '')
  }
  const tokens = normalize(chunk)
  if (prefix && tokens.length === 0) fail(MESSAGES.bareStar)
  if (tokens.length === 0) return
  const seq: Sequence = scope ? { tokens, prefix, scope } : { tokens, prefix }
  items.push(neg ? { k: 'exc', seq } : { k: 'inc', seq })
}

// ---- expanding: tree → alternatives ---------------------------------------------------------

/** Each alternative as its list of items; `chunks` counts what was written (for "only emoji"), `text` is it as written (when known). */
type Flat = { items: Item[]; chunks: number; text?: string }

/** The written text of two parts of one alternative, when both are known. */
function joinText(a: Flat, b: Flat): string | undefined {
  if ((a.text === undefined && a.items.length > 0) || (b.text === undefined && b.items.length > 0)) return undefined
  return [a.text, b.text].filter(Boolean).join(' ')
}

function expand(node: Node): Flat[] {
  if (node.k === 'items') return [{ items: node.items, chunks: node.chunks, text: node.text }]
  if (node.k === 'or') {
    const out: Flat[] = []
    for (const n of node.nodes) out.push(...expand(n))
    if (out.length > MAX_ALTERNATIVES) fail(MESSAGES.tooMany)
    return out
  }
  let acc: Flat[] = [{ items: [], chunks: 0, text: '' }]
  for (const n of node.nodes) {
    const next: Flat[] = []
    for (const right of expand(n))
      for (const left of acc) next.push({ items: [...left.items, ...right.items], chunks: left.chunks + right.chunks, text: joinText(left, right) })
    if (next.length > MAX_ALTERNATIVES) fail(MESSAGES.tooMany)
    acc = next
  }
  return acc
}

/** `whole`: the term as the user wrote it, when it is this one alternative. */
function toAlternative(flat: Flat, whole: string | undefined): Alternative {
  const alt: Alternative = { include: [], exclude: [], prices: [] }
  for (const it of flat.items) {
    switch (it.k) {
      case 'inc':
        alt.include.push(it.seq)
        break
      case 'exc':
        alt.exclude.push(it.seq)
        break
      case 'price':
        alt.prices.push(it.bound)
        break
      case 'unit':
        ;(alt.unitPrices ??= []).push(it.bound)
        break
      case 'author':
        ;(it.neg ? (alt.notAuthors ??= []) : (alt.authors ??= [])).push(it.name)
        break
      case 'flair':
        ;(it.neg ? (alt.notFlair ??= []) : (alt.flair ??= [])).push(it.seq)
        break
      case 'trades':
        ;(alt.trades ??= []).push(it.bound)
        break
      case 'age':
        ;(alt.age ??= []).push(it.bound)
        break
      case 'karma':
        ;(alt.karma ??= []).push(it.bound)
        break
      case 'place':
        ;(it.neg ? (alt.notPlaces ??= []) : (alt.places ??= [])).push(it.key)
        break
    }
  }
  const err = closeError(alt, flat, whole)
  if (err) fail(err)
  return alt
}

/** Why an alternative cannot stand, naming what was written in it, or null. */
function closeError(alt: Alternative, flat: Flat, whole: string | undefined): string | null {
  if (flat.chunks === 0) return MESSAGES.emptyAlternative
  if (alt.include.length === 0 && !alt.authors && !alt.flair && !alt.places) {
    const lack: Lack =
      alt.exclude.length > 0 || alt.notAuthors || alt.notFlair || alt.notPlaces
        ? 'exclusions'
        : alt.prices.length > 0 || alt.unitPrices
          ? 'price'
          : alt.trades
            ? 'trades'
            : alt.age || alt.karma
              ? 'trust'
              : 'noWord'
    return lackMessage(lack, whole ?? flat.text, whole !== undefined)
  }
  return null
}

export function parseTerm(text: string): ParseResult {
  if (typeof text !== 'string') return { ok: false, error: MESSAGES.empty }
  const s = rewriteOperators(text).toLowerCase().trim()
  if (s.length === 0) return { ok: false, error: MESSAGES.empty }
  if (s.length > MAX_TERM_LENGTH) return { ok: false, error: MESSAGES.tooLong }
  try {
    const r = new Reader(s)
    const tree = r.or(0)
    if (r.i < s.length) fail(MESSAGES.strayParen) // only a ")" stops the top level early
    const flats = expand(tree)
    return { ok: true, query: { alternatives: flats.map((f) => toAlternative(f, flats.length === 1 ? text.trim() : undefined)) } }
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message }
    throw e
  }
}
