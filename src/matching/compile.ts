// Compiled terms and the reference semantics of a match. A post is prepared once per scan
// (prepare.ts, the post side: tokens, item segments, sides, accessory-for marks, prices); a term is
// compiled once when saved. `matchesPost` is the reference: the index (term-index.ts) must return
// exactly the terms it accepts, and explain.ts reports its checks in words.
//
// Rules of one alternative against a post (docs/matching.md):
//   - fields first: author, flair, trades, location (`loc:` needs a location among the post's place keys; a post
//     without a location never matches `loc:` and is never excluded by `-loc:`);
//   - `~word` and `title:word` occur anywhere in the post / its title (any item, either side);
//   - plain words occur in ONE item segment s, or in the shared context (segment 0) — on the side of
//     the post the term's category reads (wts → have side, wtb → want side, gd → no sides);
//   - a word at an accessory-for position ("holster for Glock 19", "RMR-style") does not count,
//     unless the alternative itself names an accessory (ACCESSORY_WORDS) — and then an extra sold with
//     another item ("w/ holster", "on bracelet") does not count for it; likewise a word of a replica
//     item (unless the alternative names airsoft/replica/…) or of an item marked sold inside a listing;
//   - price bounds test the item prices of segment s (per-unit bounds its unit prices);
//   - `-word` excludes when the word occurs in segment s or segment 0, not counting extras sold with
//     the item ("w/ mount"); a category name also excludes the category's products (`-quartz`: a 7T92
//     calibre); `-~word` anywhere, the post's flair included;
//   - the alternative matches when some segment s passes every check.

import type { Category } from '../access/categories'
import { BUILTIN, canonical, categoryNames, type CompiledDictionary } from './dictionary'
import type { Alternative, Query, Sequence, UnitBound } from './parse'
import { isReplicaWord } from './item-marks'
import { MARK_ACCESSORY, MARK_EXTRA, MARK_MAKER_PART, MARK_REPLICA, MARK_SOLD, MARK_SPEC, type PreparedPost } from './post-model'
import { satisfies, type PriceBound } from './price'

export type { PreparedPost } from './post-model'
export { distinctTokens, preparePost } from './prepare'

/**
 * Words that make a term ask for accessories: with one of them, words at accessory-for positions
 * count ("rmr mount" finds "RMR-style mount"). Compared after normalisation (plurals folded).
 */
export const ACCESSORY_WORDS: readonly string[] = [
  'holster',
  'mount',
  'plate',
  'adapter',
  'strap',
  'bracelet',
  'case',
  'cover',
  'for',
  'fit',
  'fits',
  'style',
  'clone',
  'cut',
  'footprint',
  'compatible',
  'riser',
  'shroud',
  'sling',
  'mag',
  'magazine',
  'band',
  'pouch',
  'spacer',
  'kit',
  'barrel',
  'loader',
  'killflash',
  'cap',
  'protector',
]
const ACCESSORY = new Set(ACCESSORY_WORDS)
/** An upper price bound above this, on a gun maker's name, is what a gun costs (`glock <$500`; `glock <$100` buys parts). */
const GUN_PRICE_FLOOR = 200

/** `category`: the category's virtual token (from dictionary.ts) that also satisfies the words. */
export type CompiledSequence = Sequence & { single: boolean; category?: string }
export type CompiledAlternative = {
  /** words of every scope (plain = item, `~` = post, `title:`) */
  include: CompiledSequence[]
  exclude: CompiledSequence[]
  prices: PriceBound[]
  unitPrices: UnitBound[] | null
  authors: string[] | null
  notAuthors: string[] | null
  flair: CompiledSequence[] | null
  notFlair: CompiledSequence[] | null
  trades: PriceBound[] | null
  /** `age>=30d` (days) and `karma>=100`: the author's account, looked up over Reddit OAuth */
  age: PriceBound[] | null
  karma: PriceBound[] | null
  /** `loc:` / `-loc:` place keys (location.ts) */
  places: string[] | null
  notPlaces: string[] | null
  /** the marks (MARK_* of post-model.ts) at which this alternative's words still count: accessory-for when it names an
   *  accessory, else extras; replica items when it names a replica word; sold items when it says "sold" */
  allow: number
  /** only plain/`~` words without categories, exclusions (no `-title:`) and total bounds: on a post with one scope, no sides and no accessory marks the index's inline checks decide */
  simple: boolean
  /** simple, at most one item-scope word (one token), no item-scope exclusion, no price bound: items do not matter, so on a post without sides for the category and without accessory marks the inline checks decide too */
  scopeFree: boolean
  /** Canonical text of the alternative: equal alternatives share one index entry. */
  signature: string
}
export type CompiledTerm = { alternatives: CompiledAlternative[] }

function seqKey(s: Sequence): string {
  return (s.scope === 'post' ? '~' : s.scope === 'title' ? 'title:' : '') + s.tokens.join(' ') + (s.prefix ? '*' : '')
}

/** Category names (canonical words joined by spaces) → category token, per dictionary. */
type Names = { byWords: Map<string, string>; starts: Set<string> }
const NAMES = new WeakMap<CompiledDictionary, Names>()

function namesOf(dict: CompiledDictionary): Names {
  let names = NAMES.get(dict)
  if (!names) {
    names = { byWords: new Map(), starts: new Set() }
    for (const n of categoryNames(dict)) {
      const key = n.words.join(' ')
      if (!names.byWords.has(key)) names.byWords.set(key, n.token)
      names.starts.add(n.words[0]!)
    }
    NAMES.set(dict, names)
  }
  return names
}

/** Whether a run of words starting with this one could name a category (before aliases): a cheap filter, most words cannot. */
function mayName(word: string, dict: CompiledDictionary): boolean {
  return namesOf(dict).starts.has(word) || dict.aliasByFirst.has(word)
}

function categoryOf(words: string[], dict: CompiledDictionary): string | null {
  return namesOf(dict).byWords.get(canonical(words, dict).join(' ')) ?? null
}

function compileSequence(s: Sequence, dict: CompiledDictionary, category?: string): CompiledSequence {
  // Aliases: the same canonical tokens as the post side (a prefix's last token is left as written).
  const tokens = s.prefix ? [...canonical(s.tokens.slice(0, -1), dict), s.tokens[s.tokens.length - 1]!] : canonical(s.tokens, dict)
  const out: CompiledSequence = { tokens, prefix: s.prefix, single: tokens.length === 1 && !s.prefix && category === undefined }
  if (s.scope) out.scope = s.scope
  if (category !== undefined) out.category = category
  return out
}

/**
 * Include sequences with category names found: a sequence equal to a category name (`lpvo`,
 * `"red dot"`), or consecutive plain words of one scope forming one (`red dot`), become one
 * sequence that the words themselves or the category's token satisfy.
 */
function withCategories(include: Sequence[], dict: CompiledDictionary): CompiledSequence[] {
  const out: CompiledSequence[] = []
  for (let i = 0; i < include.length; i++) {
    const s = include[i]!
    if (!s.prefix && mayName(s.tokens[0]!, dict)) {
      const whole = categoryOf(s.tokens, dict)
      if (whole !== null) {
        out.push(compileSequence(s, dict, whole))
        continue
      }
      // the longest run of single words starting here that names a category
      let found = 0
      let token: string | null = null
      const words: string[] = []
      for (let j = i; j < include.length && j - i < 4; j++) {
        const w = include[j]!
        if (w.prefix || w.tokens.length !== 1 || w.scope !== s.scope) break
        words.push(w.tokens[0]!)
        const t = j > i ? categoryOf(words, dict) : null
        if (t !== null) [found, token] = [j - i + 1, t]
      }
      if (token !== null) {
        out.push(compileSequence({ tokens: words.slice(0, found), prefix: false, ...(s.scope ? { scope: s.scope } : {}) }, dict, token))
        i += found - 1
        continue
      }
    }
    out.push(compileSequence(s, dict))
  }
  return out
}

/** The keys in sorted order, joined: the order a user wrote the parts in does not matter. */
function sortedKeys(keys: string[]): string {
  return keys.length === 0 ? '' : keys.length === 1 ? keys[0]! : keys.sort().join('\u0001')
}

export function compileAlternative(a: Alternative, dict: CompiledDictionary = BUILTIN): CompiledAlternative {
  const include = withCategories(a.include, dict)
  // an excluded category name excludes the category's products too (`seiko -quartz` leaves out a 7T92 calibre)
  const exclude = a.exclude.map((s) => compileSequence(s, dict, (!s.prefix && mayName(s.tokens[0]!, dict) && categoryOf(s.tokens, dict)) || undefined))
  // A term naming an accessory reads accessory-for mentions, but not an accessory that only comes with
  // another item ("Omega Speedmaster on bracelet", "P365 + free holster" are not bracelet / holster sales).
  const accessory = include.some((s) => s.tokens.some((t) => ACCESSORY.has(t)))
  // A price bound on a gun maker's name alone that a gun could meet prices its guns: the maker's own parts ("Glock
  // OEM trigger kit $49") count for `glock`, `glock <$100` and `glock mag <$30`, not for `glock <$500`.
  const pricesGuns = !accessory && a.prices.some((b) => (b.op === '<' || b.op === '<=') && b.amount > GUN_PRICE_FLOOR)
  const allow =
    MARK_SPEC |
    (accessory ? MARK_ACCESSORY : MARK_EXTRA) |
    (pricesGuns ? 0 : MARK_MAKER_PART) |
    (include.some((s) => isReplicaWord(s.tokens)) ? MARK_REPLICA : 0) |
    (include.some((s) => s.tokens.includes('sold')) ? MARK_SOLD : 0)
  const flair = a.flair ? a.flair.map((s) => compileSequence(s, dict)) : null
  const notFlair = a.notFlair ? a.notFlair.map((s) => compileSequence(s, dict)) : null
  const simple =
    !a.unitPrices &&
    !a.authors &&
    !a.notAuthors &&
    !a.flair &&
    !a.notFlair &&
    !a.trades &&
    !a.age &&
    !a.karma &&
    !a.places &&
    !a.notPlaces &&
    include.every((s) => s.scope !== 'title' && s.category === undefined) &&
    exclude.every((s) => s.scope !== 'title')
  // most alternatives have no fields: no array for them
  const extra = !(a.unitPrices || a.authors || a.notAuthors || flair || notFlair || a.trades || a.age || a.karma || a.places || a.notPlaces)
    ? []
    : [
        ...(a.unitPrices ?? []).map((b) => `u${b.op}${b.amount}/${b.unit}`),
        ...(a.authors ?? []).map((n) => `a:${n}`),
        ...(a.notAuthors ?? []).map((n) => `-a:${n}`),
        ...(flair ?? []).map((s) => `f:${seqKey(s)}`),
        ...(notFlair ?? []).map((s) => `-f:${seqKey(s)}`),
        ...(a.trades ?? []).map((b) => `t${b.op}${b.amount}`),
        ...(a.age ?? []).map((b) => `g${b.op}${b.amount}`),
        ...(a.karma ?? []).map((b) => `k${b.op}${b.amount}`),
        ...(a.places ?? []).map((k) => `l:${k}`),
        ...(a.notPlaces ?? []).map((k) => `-l:${k}`),
      ]
  // (one token: a phrase could straddle two items, which the reference refuses)
  const itemSeqs = include.filter((s) => s.scope === undefined)
  const scopeFree =
    simple && a.prices.length === 0 && itemSeqs.length <= 1 && itemSeqs.every((s) => s.tokens.length === 1) && exclude.every((s) => s.scope !== undefined)
  return {
    include,
    exclude,
    prices: a.prices,
    unitPrices: a.unitPrices ?? null,
    authors: a.authors ?? null,
    notAuthors: a.notAuthors ?? null,
    flair,
    notFlair,
    trades: a.trades ?? null,
    age: a.age ?? null,
    karma: a.karma ?? null,
    places: a.places ?? null,
    notPlaces: a.notPlaces ?? null,
    allow,
    simple,
    scopeFree,
    signature:
      sortedKeys(include.map((s) => (s.category !== undefined ? '@' : '') + seqKey(s))) +
      '\u0002' +
      (exclude.length === 0 ? '' : sortedKeys(exclude.map(seqKey))) +
      '\u0002' +
      (a.prices.length === 0 ? '' : sortedKeys(a.prices.map((p) => p.op + p.amount))) +
      (extra.length === 0 ? '' : '\u0002' + sortedKeys(extra)),
  }
}

/** `dict`: the dictionary the posts are prepared with (the built-in one unless an admin extended it). */
export function compileTerm(query: Query, dict: CompiledDictionary = BUILTIN): CompiledTerm {
  return { alternatives: query.alternatives.map((a) => compileAlternative(a, dict)) }
}

// ---- where a sequence occurs ------------------------------------------------------------------

/** `where` for `occurs`: anywhere in the post, in the title, or (≥ 0) in segment 0 or that segment. */
export const ANYWHERE = -1
export const IN_TITLE = -2

/** The side code (post.side) a category does not read: wts skips the want side (2), wtb the have side (1). */
export function skippedSide(post: PreparedPost, category: Category): number {
  if (!post.sided) return 0
  return category === 'wts' ? 2 : category === 'wtb' ? 1 : 0
}

/** Every mark: an exclusion or a whole-post check sees every word. */
export const ALL_MARKS = 0xff
/** What an item exclusion sees: every word but an extra sold with the item ("rmr -mount" finds "RMR w/ mount"). */
export const EXCLUSION_MARKS = ALL_MARKS & ~MARK_EXTRA

function placeOk(post: PreparedPost, p: number, n: number, where: number, skip: number, allow: number, own = false): boolean {
  if (where === IN_TITLE) {
    if (p + n > post.bodyStart) return false
  } else if (where >= 0) {
    for (let k = 0; k < n; k++) {
      const g = post.seg[p + k]!
      if (g !== where && (g !== 0 || (own && p + k >= post.bodyStart))) return false
    }
  }
  if (skip !== 0) for (let k = 0; k < n; k++) if (post.side[p + k] === skip) return false
  if (allow !== ALL_MARKS) for (let k = 0; k < n; k++) if ((post.fits[p + k]! & ~allow) !== 0) return false
  return true
}

/**
 * Whether the sequence occurs at a place allowed by `where` (ANYWHERE, IN_TITLE or a segment),
 * not on the `skip` side (0: none), and not at a marked position (accessory-for, replica, …) unless `allow` has the mark.
 * `own`: in the segment itself or the title's tags ("[PSU]"), not in the body's shared context (its prose).
 */
export function occurs(seq: CompiledSequence, post: PreparedPost, where: number, skip: number, allow: number, own = false): boolean {
  if (seq.category !== undefined) {
    // a spec of another product ("32GB RAM" in a server) is no hit of the category, as its token or its words
    allow &= ~MARK_SPEC
    const at = post.positions.get(seq.category)
    if (at !== undefined) for (let i = 0; i < at.length; i++) if (placeOk(post, at[i]!, 1, where, skip, allow, own)) return true
  }
  const tokens = seq.tokens
  const n = tokens.length
  if (n === 1 && seq.prefix) {
    const prefix = tokens[0]!
    for (const t of post.distinct) {
      if (!t.startsWith(prefix)) continue
      const at = post.positions.get(t)!
      for (let i = 0; i < at.length; i++) if (placeOk(post, at[i]!, 1, where, skip, allow, own)) return true
    }
    return false
  }
  const starts = post.positions.get(tokens[0]!)
  if (starts === undefined) return false
  const toks = post.tokens
  outer: for (let i = 0; i < starts.length; i++) {
    const p = starts[i]!
    if (p + n > toks.length) break
    for (let k = 1; k < n - 1; k++) if (toks[p + k] !== tokens[k]) continue outer
    if (n > 1) {
      const last = toks[p + n - 1]!
      if (!(seq.prefix ? last !== '' && last.startsWith(tokens[n - 1]!) : last === tokens[n - 1])) continue
    }
    if (placeOk(post, p, n, where, skip, allow, own)) return true
  }
  return false
}

/** The segments (bit s) where a word occurs at an allowed place (not on the `skip` side, no mark outside `allow`). */
function singleMask(token: string, post: PreparedPost, skip: number, allow: number): number {
  const at = post.positions.get(token)
  if (at === undefined) return 0
  let m = 0
  for (let i = 0; i < at.length; i++) {
    const p = at[i]!
    if (skip !== 0 && post.side[p] === skip) continue
    if ((post.fits[p]! & ~allow) !== 0) continue
    m |= 1 << post.seg[p]!
  }
  return m
}

/** Whole-post occurrence with no place rule (the index's inline check and exclusions post-wide). */
export function sequenceOccurs(seq: CompiledSequence, post: PreparedPost): boolean {
  if (seq.single) return post.tokenSet.has(seq.tokens[0]!)
  return occurs(seq, post, ANYWHERE, 0, ALL_MARKS)
}

/** Tokens of a flair contain the sequence (a prefix's last token as a prefix). */
export function flairHas(seq: CompiledSequence, flair: string[]): boolean {
  const n = seq.tokens.length
  outer: for (let p = 0; p + n <= flair.length; p++) {
    for (let k = 0; k < n; k++) {
      const t = flair[p + k]!
      if (!(seq.prefix && k === n - 1 ? t.startsWith(seq.tokens[k]!) : t === seq.tokens[k])) continue outer
    }
    return true
  }
  return false
}

// ---- prices of an item --------------------------------------------------------------------

/**
 * Item prices of segment s in a unit. A post with one item scope (segments 0 and 1 at most) is one
 * item: all its item prices count. An item without its own price takes the shared context's.
 */
export function segmentPrices(post: PreparedPost, s: number, unit: 'total' | 'each' | 'round'): number[] {
  const segs = post.segments
  const out: number[] = []
  if (segs.length <= 2) {
    for (const g of segs) for (const p of g.prices) if (p.role === 'item' && p.unit === unit) out.push(p.amount)
    return out
  }
  const own = segs[s]
  if (own) for (const p of own.prices) if (p.role === 'item' && p.unit === unit) out.push(p.amount)
  if (out.length === 0 && s !== 0) for (const p of segs[0]?.prices ?? []) if (p.role === 'item' && p.unit === unit) out.push(p.amount)
  return out
}

/** True when ONE of the prices satisfies every bound (so `>$100 <$500` is a range). */
export function someSatisfies(prices: number[], bounds: PriceBound[]): boolean {
  outer: for (const p of prices) {
    for (const b of bounds) if (!satisfies(p, b)) continue outer
    return true
  }
  return false
}

/** Per-unit bounds grouped by unit, each group satisfied by one unit price of segment s. */
export function unitPricesOk(post: PreparedPost, s: number, bounds: UnitBound[]): boolean {
  const each = bounds.filter((b) => b.unit === 'each')
  const round = bounds.filter((b) => b.unit === 'round')
  if (each.length > 0 && !someSatisfies(segmentPrices(post, s, 'each'), each)) return false
  if (round.length > 0 && !someSatisfies(segmentPrices(post, s, 'round'), round)) return false
  return true
}

// ---- the reference ----------------------------------------------------------------------------

/** The checks of one alternative, in order; the first that fails is the reason (explain.ts names it). */
export type Check =
  | { k: 'author'; name: string }
  | { k: 'notAuthor'; name: string }
  | { k: 'flair'; seq: CompiledSequence }
  | { k: 'notFlair'; seq: CompiledSequence }
  | { k: 'trades'; bound: PriceBound }
  | { k: 'age'; bound: PriceBound }
  | { k: 'karma'; bound: PriceBound }
  | { k: 'place'; key: string }
  | { k: 'notPlace'; key: string }
  | { k: 'missing'; seq: CompiledSequence }
  | { k: 'excludedPost'; seq: CompiledSequence }
  | { k: 'apart' }
  | { k: 'price'; segment: number }
  | { k: 'unitPrice'; segment: number }
  | { k: 'excluded'; seq: CompiledSequence; segment: number }

/** Segments a post has (segment 0 always). */
export function segmentCount(post: PreparedPost): number {
  return Math.max(1, post.segments.length)
}

/** The first segment a match can be in: 1 when the post has items (segment 0 is only their shared context), else 0. */
export function firstItem(post: PreparedPost): number {
  return post.segments.length > 1 ? 1 : 0
}

/**
 * Checks one alternative. Returns null when it matches, else the first failed check; on a match
 * `found.segment` is the item segment it matched (when `found` is given).
 */
export function checkAlternative(alt: CompiledAlternative, post: PreparedPost, category: Category, found?: { segment: number }): Check | null {
  if (alt.authors) for (const name of alt.authors) if (post.author !== name) return { k: 'author', name }
  if (alt.notAuthors) for (const name of alt.notAuthors) if (post.author === name) return { k: 'notAuthor', name }
  if (alt.flair) for (const seq of alt.flair) if (!flairHas(seq, post.flair)) return { k: 'flair', seq }
  if (alt.notFlair) for (const seq of alt.notFlair) if (flairHas(seq, post.flair)) return { k: 'notFlair', seq }
  if (alt.trades) for (const bound of alt.trades) if (post.trades === null || !satisfies(post.trades, bound)) return { k: 'trades', bound }
  if (alt.age) for (const bound of alt.age) if (post.ageDays === null || !satisfies(post.ageDays, bound)) return { k: 'age', bound }
  if (alt.karma) for (const bound of alt.karma) if (post.karma === null || !satisfies(post.karma, bound)) return { k: 'karma', bound }
  if (alt.places) for (const key of alt.places) if (!post.places.includes(key)) return { k: 'place', key }
  if (alt.notPlaces) for (const key of alt.notPlaces) if (post.places.includes(key)) return { k: 'notPlace', key }
  const skip = skippedSide(post, category)
  const allow = alt.allow
  // One item segment s (with the shared context) must hold every plain word and pass the bounds and
  // exclusions. A post without items (segment 0 only) is one scope; with one item, s = 1 is the
  // whole post. Single words are placed once, as a bit mask of their segments (posts of ≤ 30
  // segments); other sequences are checked per segment.
  const n = segmentCount(post)
  const masks = n <= 30
  let cand = n === 1 ? 1 : (1 << n) - 2
  let perSegment = 0
  for (const seq of alt.include) {
    if (seq.scope === 'post' || seq.scope === 'title') {
      if (!occurs(seq, post, seq.scope === 'post' ? ANYWHERE : IN_TITLE, 0, allow)) return { k: 'missing', seq }
    } else if (masks && seq.single) {
      const m = singleMask(seq.tokens[0]!, post, skip, allow)
      if (m === 0) return { k: 'missing', seq }
      if ((m & 1) === 0) cand &= m
    } else {
      if (!occurs(seq, post, ANYWHERE, skip, allow)) return { k: 'missing', seq }
      perSegment++
    }
  }
  for (const seq of alt.exclude)
    if (seq.scope === 'post' || seq.scope === 'title') {
      if (occurs(seq, post, seq.scope === 'post' ? ANYWHERE : IN_TITLE, 0, ALL_MARKS) || (seq.scope === 'post' && flairHas(seq, post.flair)))
        return { k: 'excludedPost', seq }
    }
  let first: Check | null = null
  for (let s = firstItem(post); s < n; s++) {
    if (masks && ((cand >>> s) & 1) === 0) continue
    // an item on the side the category does not read is never the match, even through words of the shared
    // context: a WTS term does not take the price of what the poster wants ("… plus $200 your side")
    if (skip !== 0 && post.segments[s]!.side === (skip === 2 ? 'want' : 'have')) continue
    if (n > 2 && (perSegment > 0 || !masks)) {
      let all = true
      for (const seq of alt.include) if (seq.scope === undefined && (!masks || !seq.single) && !occurs(seq, post, s, skip, allow)) all = false
      if (!all) continue
    }
    let why: Check | null = null
    // words found only in the body's shared context (its prose: "Also got 2 24\" Asus monitors") name no item: the
    // bounds test the shared context's own prices, not those of an item that happens to pass ("R9 390 @ $245")
    const ps = (alt.prices.length > 0 || alt.unitPrices !== null) && n > 2 && !ownWords(alt, post, s, skip, allow) ? 0 : s
    if (alt.prices.length > 0 && !someSatisfies(segmentPrices(post, ps, 'total'), alt.prices)) why = { k: 'price', segment: ps }
    else if (alt.unitPrices !== null && !unitPricesOk(post, ps, alt.unitPrices)) why = { k: 'unitPrice', segment: ps }
    else
      for (const seq of alt.exclude)
        if (seq.scope === undefined && occurs(seq, post, s, 0, EXCLUSION_MARKS)) {
          why = { k: 'excluded', seq, segment: s }
          break
        }
    if (why === null) {
      if (found) found.segment = s
      return null
    }
    first ??= why
  }
  return first ?? { k: 'apart' }
}

/** Whether an item-scope word of the alternative is in segment s itself or the title's tags (not only in the body's prose); true when it has none. */
function ownWords(alt: CompiledAlternative, post: PreparedPost, s: number, skip: number, allow: number): boolean {
  let any = false
  for (const seq of alt.include) {
    if (seq.scope !== undefined) continue
    any = true
    if (occurs(seq, post, s, skip, allow, true)) return true
  }
  return !any
}

export function alternativeMatches(alt: CompiledAlternative, post: PreparedPost, category: Category): boolean {
  return checkAlternative(alt, post, category) === null
}

export function matchesPost(term: CompiledTerm, post: PreparedPost, category: Category): boolean {
  for (const a of term.alternatives) if (alternativeMatches(a, post, category)) return true
  return false
}
