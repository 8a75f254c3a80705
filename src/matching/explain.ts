// Why a term matched a post or not, in words, per alternative. Pure. The verdict is the reference's
// own (`checkAlternative` in compile.ts, the function behind matchesPost and the index's checks);
// this file only names the failed check and looks closer at it (is the missing word in an
// accessory-for mention? on the other side? in another item?).

import type { Category } from '../access/categories'
import {
  ALL_MARKS,
  ANYWHERE,
  checkAlternative,
  firstItem,
  IN_TITLE,
  occurs,
  segmentCount,
  segmentPrices,
  skippedSide,
  type Check,
  type CompiledAlternative,
  type CompiledSequence,
  type CompiledTerm,
  type PreparedPost,
} from './compile'
import { placeCode, placeName } from './location'
import type { UnitBound } from './parse'
import { MARK_ACCESSORY, MARK_MAKER_PART, MARK_REPLICA, MARK_SOLD, MARK_SPEC } from './post-model'
import type { PriceBound } from './price'

export type ReasonCode =
  | 'matched'
  | 'author'
  | 'not-author'
  | 'flair'
  | 'not-flair'
  | 'trades'
  | 'age'
  | 'karma'
  | 'location'
  | 'not-location'
  | 'missing'
  | 'not-in-title'
  | 'accessory-for'
  | 'replica'
  | 'sold-item'
  | 'maker-part'
  | 'spec'
  | 'other-side'
  | 'different-items'
  | 'no-price'
  | 'price'
  | 'excluded'
export type Reason = { code: ReasonCode; text: string; words: string[] }
export type AlternativeExplanation = {
  /** the alternative in the term language */
  text: string
  matched: boolean
  /** on a match: what matched; else the check that failed */
  reasons: Reason[]
  /** the words this alternative looks for */
  words: string[]
  /** the item segment it matched (0 = the shared context), null when it did not */
  segment: number | null
}
export type Explanation = { matched: boolean; reasons: string[]; alternatives: AlternativeExplanation[] }

const quote = (w: string) => `'${w}'`

/** Letters then digits (or digits then letters) of a short model word read back as one word: t 2 → t2, 507 c → 507c. */
function joined(tokens: string[]): string {
  let out = tokens[0] ?? ''
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!
    const b = tokens[i]!
    const kinds = /^\d/.test(a) !== /^\d/.test(b)
    const short = (/^\d/.test(a) ? b : a).length <= 2
    out += (kinds && short ? '' : ' ') + b
  }
  return out
}

/** A sequence as a user would write it (no quotes). */
export function seqText(seq: CompiledSequence): string {
  return joined(seq.tokens) + (seq.prefix ? '*' : '')
}

/** In the term language: a phrase of several words in quotes. */
function asWritten(seq: CompiledSequence): string {
  const w = seqText(seq)
  return w.includes(' ') && !seq.prefix ? `"${w}"` : w
}

function written(seq: CompiledSequence): string {
  return (seq.scope === 'post' ? '~' : seq.scope === 'title' ? 'title:' : '') + asWritten(seq)
}

function money(n: number): string {
  return '$' + (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0$/, ''))
}

function boundText(b: PriceBound | UnitBound): string {
  const unit = 'unit' in b ? (b.unit === 'each' ? '/ea' : '/rd') : ''
  return `${b.op}${money(b.amount)}${unit}`
}

export function alternativeText(alt: CompiledAlternative): string {
  return [
    ...(alt.authors ?? []).map((n) => `author:${n}`),
    ...alt.include.map(written),
    ...alt.exclude.map((s) => '-' + written(s)),
    ...(alt.flair ?? []).map((s) => `flair:${asWritten(s)}`),
    ...(alt.notFlair ?? []).map((s) => `-flair:${asWritten(s)}`),
    ...(alt.notAuthors ?? []).map((n) => `-author:${n}`),
    ...alt.prices.map(boundText),
    ...(alt.unitPrices ?? []).map(boundText),
    ...(alt.trades ?? []).map((b) => `trades${b.op}${b.amount}`),
    ...(alt.age ?? []).map((b) => `age${b.op}${b.amount}d`),
    ...(alt.karma ?? []).map((b) => `karma${b.op}${b.amount}`),
    ...(alt.places ?? []).map((k) => `loc:${placeCode(k)}`),
    ...(alt.notPlaces ?? []).map((k) => `-loc:${placeCode(k)}`),
  ].join(' ')
}

/** The marked run (same mark bit) around position p ("T2 cut"), as the post's tokens. */
function mentionAt(post: PreparedPost, p: number, bit: number): string {
  let a = p
  let b = p
  while (a > 0 && (post.fits[a - 1]! & bit) !== 0 && post.tokens[a - 1] !== '') a--
  while (b + 1 < post.tokens.length && (post.fits[b + 1]! & bit) !== 0 && post.tokens[b + 1] !== '') b++
  return joined(post.tokens.slice(a, b + 1))
}

/** A position where the sequence starts with a mark the alternative does not allow (for the quote). */
function markedPosition(seq: CompiledSequence, post: PreparedPost, allow: number): number {
  const lists = [seq.category !== undefined ? post.positions.get(seq.category) : undefined, post.positions.get(seq.tokens[0]!)]
  for (const at of lists) if (at) for (const p of at) if ((post.fits[p]! & ~allow) !== 0) return p
  return -1
}

const MARK_TEXT: [number, string][] = [
  [MARK_ACCESSORY, 'only appears as what an accessory fits'],
  [MARK_REPLICA, 'only appears in an airsoft / replica item (add airsoft or replica to the term to include them)'],
  [MARK_SOLD, 'only appears in an item marked sold'],
  [
    MARK_MAKER_PART,
    "only appears as the maker of a part, and a price bound on a maker's name prices its guns (name the part to price it, like glock mag <$30)",
  ],
  [MARK_SPEC, 'only appears as what another product in its item has (a spec, like the RAM of a server)'],
]

function missing(seq: CompiledSequence, alt: CompiledAlternative, post: PreparedPost, category: Category): Reason {
  const w = seqText(seq)
  const words = [w]
  const label = seq.category !== undefined ? `${quote(w)} (or a product of that category)` : quote(w)
  if (!occurs(seq, post, ANYWHERE, 0, ALL_MARKS)) return { code: 'missing', text: `needs the word ${label} — not in the title or body`, words }
  if (seq.scope === 'title' && !occurs(seq, post, IN_TITLE, 0, ALL_MARKS))
    return { code: 'not-in-title', text: `${quote(w)} is not in the title (only in the body)`, words }
  const skip = seq.scope === undefined ? skippedSide(post, category) : 0
  if (!occurs(seq, post, seq.scope === 'title' ? IN_TITLE : ANYWHERE, skip, alt.allow) && occurs(seq, post, ANYWHERE, skip, ALL_MARKS)) {
    // a category's hits never count as a spec of another product (compile.ts, occurs)
    const allow = seq.category !== undefined ? alt.allow & ~MARK_SPEC : alt.allow
    const p = markedPosition(seq, post, allow)
    const bits = p >= 0 ? post.fits[p]! & ~allow : MARK_ACCESSORY
    const [bit, text] = MARK_TEXT.find(([b]) => (bits & b) !== 0) ?? MARK_TEXT[0]!
    const where = p >= 0 ? ` (${quote(mentionAt(post, p, bit))})` : ''
    const code =
      bit === MARK_ACCESSORY ? 'accessory-for' : bit === MARK_REPLICA ? 'replica' : bit === MARK_SOLD ? 'sold-item' : bit === MARK_SPEC ? 'spec' : 'maker-part'
    return { code, text: `${quote(w)} ${text}${where}`, words }
  }
  return { code: 'other-side', text: `${quote(w)} is on the poster's ${skip === 2 ? 'want' : 'have'} side`, words }
}

/** Two plain words of the alternative that share no item. */
function apart(alt: CompiledAlternative, post: PreparedPost, category: Category): Reason {
  const skip = skippedSide(post, category)
  const item = alt.include.filter((s) => s.scope === undefined)
  const n = segmentCount(post)
  for (let i = 0; i < item.length; i++)
    for (let j = i + 1; j < item.length; j++) {
      let together = false
      for (let s = firstItem(post); s < n && !together; s++) together = occurs(item[i]!, post, s, skip, alt.allow) && occurs(item[j]!, post, s, skip, alt.allow)
      if (!together) {
        const [a, b] = [seqText(item[i]!), seqText(item[j]!)]
        return { code: 'different-items', text: `${quote(a)} and ${quote(b)} are in different items (write ~${a} to allow that)`, words: [a, b] }
      }
    }
  const words = item.map(seqText)
  return { code: 'different-items', text: `${words.map(quote).join(', ')} are not all in one item (write ~word to allow that)`, words }
}

function priceReason(prices: number[], bounds: (PriceBound | UnitBound)[], unit: string): Reason {
  const bt = bounds.map(boundText).join(' ')
  if (prices.length === 0) return { code: 'no-price', text: `no price${unit ? ' per ' + unit : ''} found for the item (${bt})`, words: [] }
  const shown = prices.map((p) => money(p) + (unit === 'round' ? '/rd' : unit === 'unit' ? '/ea' : '')).join(', ')
  const low = bounds.some((b) => (b.op === '>' || b.op === '>=') && prices.every((p) => (b.op === '>' ? p <= b.amount : p < b.amount)))
  const verb = prices.length === 1 ? 'is' : 'are'
  return { code: 'price', text: `price ${shown} ${verb} ${low ? 'below' : 'above'} ${bt}`, words: [] }
}

function reasonOf(check: Check, alt: CompiledAlternative, post: PreparedPost, category: Category): Reason {
  switch (check.k) {
    case 'author':
      return { code: 'author', text: `author is not ${quote(check.name)}`, words: [check.name] }
    case 'notAuthor':
      return { code: 'not-author', text: `excluded by -author:${check.name}`, words: [check.name] }
    case 'flair':
      return { code: 'flair', text: `the post's flair has no ${quote(seqText(check.seq))}`, words: [seqText(check.seq)] }
    case 'notFlair':
      return { code: 'not-flair', text: `excluded by -flair:${seqText(check.seq)}`, words: [seqText(check.seq)] }
    case 'trades': {
      const b = check.bound
      if (post.trades === null) return { code: 'trades', text: `the seller's flair shows no confirmed trades (trades${b.op}${b.amount})`, words: [] }
      const dir = b.op === '>' || b.op === '>=' ? 'fewer than' : 'more than'
      return { code: 'trades', text: `the seller has ${post.trades} confirmed trades, ${dir} trades${b.op}${b.amount}`, words: [] }
    }
    case 'age': {
      const b = check.bound
      const want = `age${b.op}${b.amount}d`
      if (post.ageDays === null)
        return { code: 'age', text: `the seller's account age is not known (${want}: looked up over Reddit OAuth, within minutes of the post)`, words: [] }
      const dir = b.op === '>' || b.op === '>=' ? 'younger than' : 'older than'
      return { code: 'age', text: `the seller's account was ${post.ageDays} days old, ${dir} ${want}`, words: [] }
    }
    case 'karma': {
      const b = check.bound
      const want = `karma${b.op}${b.amount}`
      if (post.karma === null)
        return { code: 'karma', text: `the seller's karma is not known (${want}: looked up over Reddit OAuth, within minutes of the post)`, words: [] }
      const dir = b.op === '>' || b.op === '>=' ? 'less than' : 'more than'
      return { code: 'karma', text: `the seller has ${post.karma} karma, ${dir} ${want}`, words: [] }
    }
    case 'place': {
      const want = `loc:${placeCode(check.key)}`
      if (post.location === null) return { code: 'location', text: `the post names no location (${want}: ${placeName(check.key)})`, words: [] }
      if (post.places.length === 0)
        return { code: 'location', text: `the post's location '${post.location}' is not a place Dibs knows (${want}: ${placeName(check.key)})`, words: [] }
      return { code: 'location', text: `the seller is in ${post.location}, not ${placeName(check.key)} (${want})`, words: [] }
    }
    case 'notPlace':
      return {
        code: 'not-location',
        text: `excluded by -loc:${placeCode(check.key)}: the seller is in ${post.location} (${placeName(check.key)})`,
        words: [],
      }
    case 'missing':
      return missing(check.seq, alt, post, category)
    case 'excludedPost':
    case 'excluded':
      return { code: 'excluded', text: `excluded by -${written(check.seq)}`, words: [seqText(check.seq)] }
    case 'apart':
      return apart(alt, post, category)
    case 'price':
      return priceReason(segmentPrices(post, check.segment, 'total'), alt.prices, '')
    case 'unitPrice': {
      const bounds = alt.unitPrices!
      for (const unit of ['each', 'round'] as const) {
        const mine = bounds.filter((b) => b.unit === unit)
        if (mine.length === 0) continue
        const prices = segmentPrices(post, check.segment, unit)
        const r = priceReason(prices, mine, unit === 'each' ? 'unit' : 'round')
        if (r.code === 'no-price' || !prices.some((p) => mine.every((b) => cmp(p, b)))) return r
      }
      return priceReason([], bounds, 'unit')
    }
  }
}

function cmp(p: number, b: PriceBound): boolean {
  return b.op === '<' ? p < b.amount : b.op === '<=' ? p <= b.amount : b.op === '>' ? p > b.amount : p >= b.amount
}

export function explainAlternative(alt: CompiledAlternative, post: PreparedPost, category: Category): AlternativeExplanation {
  const found = { segment: -1 }
  const check = checkAlternative(alt, post, category, found)
  const words = alt.include.map(seqText)
  const text = alternativeText(alt)
  if (check === null) {
    const where = words.length > 0 && found.segment > 0 && post.segments.length > 2 ? ` in item ${found.segment}` : ''
    const what = words.length > 0 ? words.map(quote).join(', ') : 'the fields'
    const place = alt.places ? ` (the seller is in ${post.location})` : ''
    return { text, matched: true, reasons: [{ code: 'matched', text: `matched ${what}${where}${place}`, words }], words, segment: found.segment }
  }
  return { text, matched: false, reasons: [reasonOf(check, alt, post, category)], words, segment: null }
}

/** Why the term matched the post or not: every alternative's verdict and reason. */
export function explainTerm(term: CompiledTerm, post: PreparedPost, category: Category): Explanation {
  const alternatives = term.alternatives.map((a) => explainAlternative(a, post, category))
  const hit = alternatives.find((a) => a.matched)
  const several = alternatives.length > 1
  const reasons = hit ? hit.reasons.map((r) => r.text) : alternatives.flatMap((a) => a.reasons.map((r) => (several ? `${a.text}: ${r.text}` : r.text)))
  return { matched: hit !== undefined, reasons, alternatives }
}
