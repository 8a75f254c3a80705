// A post read once per scan into the PreparedPost of post-model.ts: tokens (title, '' seam, body)
// after aliases, category tokens, and per position the item segment, the trade side and whether it is
// an accessory-for mention, a replica, a sold item or an extra (item-marks.ts); segments with their prices;
// author, flair and confirmed trades; the seller's location (the title's location tag, location.ts).
// The reading rules are in listing-structure.ts (segments, sides, accessory-for), price.ts (figures)
// and dictionary.ts (aliases, categories).

import { readTrades } from './trades'
import { BUILTIN, canonical, canonicalWithOffsets, findCategories, type CompiledDictionary } from './dictionary'
import { isReplicaWord, markExtras, markItemState, markSoldSentences } from './item-marks'
import { markFits, markHeadParts, readBody, readTitle, type TextStructure } from './listing-structure'
import { placeKeys } from './location'
import { normalize, normalizeWithOffsets } from './normalize'
import { MARK_ACCESSORY, MARK_EXTRA, MARK_REPLICA, MARK_SPEC, type ItemSegment, type PostInput, type PreparedPost, type Side } from './post-model'
import { titleLocation } from './title-grammar'

const SIDE_CODE: Record<Side, number> = { have: 1, want: 2 }

/** First index in the ascending `starts` whose value is ≥ x (from `lo`). */
function lowerBound(starts: number[], x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (starts[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Writes segment ids and sides of one text's tokens (positions offset..offset+starts.length). */
function place(st: TextStructure, starts: number[], offset: number, segBase: number, seg: Uint16Array, side: Uint8Array) {
  const n = starts.length
  for (const p of st.pieces) {
    for (let i = lowerBound(starts, p.start, 0, n); i < n && starts[i]! < p.end; i++) seg[offset + i] = segBase + p.seg
  }
  for (const r of st.sides) {
    for (let i = lowerBound(starts, r.start, 0, n); i < n && starts[i]! < r.end; i++) side[offset + i] = SIDE_CODE[r.side]
  }
}

export { readTrades }

/** Author as matched by `author:` — lowercase, without a leading "u/" or "/u/". */
export function normalizeAuthor(author: string | null | undefined): string {
  if (!author) return ''
  return author
    .trim()
    .toLowerCase()
    .replace(/^\/?u\//, '')
}

export function preparePost(post: PostInput, dict: CompiledDictionary = BUILTIN): PreparedPost {
  const titleText = post.title ?? ''
  const bodyText = post.content ?? ''
  const t0 = normalizeWithOffsets(titleText)
  const t = canonicalWithOffsets(t0.tokens, t0.starts, t0.ends, dict)
  const b0 = normalizeWithOffsets(bodyText)
  const b = canonicalWithOffsets(b0.tokens, b0.starts, b0.ends, dict)
  const hasBody = b.tokens.length > 0
  const tokens = hasBody ? [...t.tokens, '', ...b.tokens] : t.tokens.slice()
  const n = tokens.length
  const bodyStart = hasBody ? t.tokens.length + 1 : n

  const seg = new Uint16Array(n)
  const side = new Uint8Array(n)
  const fits = new Uint8Array(n)
  const ts = readTitle(titleText, dict)
  const bs = hasBody ? readBody(bodyText, dict) : null
  place(ts, t.starts, 0, 0, seg, side)
  if (bs) place(bs, b.starts, bodyStart, ts.segments.length, seg, side)

  const segments: ItemSegment[] = [{ id: 0, side: null, prices: [], ranges: [] }]
  for (const s of [...ts.segments, ...(bs?.segments ?? [])]) segments.push({ id: segments.length, side: s.side, prices: s.prices, ranges: [] })
  // A title without an item price takes the item prices of body text that is not a line item
  // ("Asking $400 shipped") when it is one item (or none: then the context holds them). Among priced line
  // items a per-round or per-each price line ("9mm 115gr - 1000 rds - $0.27/rd") is one more line's price, not the title's.
  const titleSegs = segments.slice(1, 1 + ts.segments.length)
  const pricedLines = bs !== null && bs.segments.some((s) => s.prices.some((p) => p.role === 'item'))
  const loose = bs ? (pricedLines ? bs.loosePrices.filter((p) => p.unit === 'total') : bs.loosePrices) : []
  const titleUnpriced = titleSegs.length <= 1 && !titleSegs.some((s) => s.prices.some((p) => p.role === 'item'))
  if (loose.length > 0 && titleUnpriced) {
    ;(titleSegs[0] ?? segments[0]!).prices.push(...loose)
  } else if (loose.length > 0 && !titleSegs.some((s) => s.prices.some((p) => p.role === 'item'))) {
    // several unpriced title items: the body's loose prices are the shared context's ("507K - $230" under "[WTS] 507K + plate")
    segments[0]!.prices.push(...loose)
  } else if (titleUnpriced && bs && bs.segments.length === 1 && pricedLines && !bs.segments[0]!.side) {
    // one item in the title, one priced line in the body ("[WTS] Ammo lot" + "45 230gr - 200 rds - $0.52/rd"): the same item
    ;(titleSegs[0] ?? segments[0]!).prices.push(...bs.segments[0]!.prices.filter((p) => p.role === 'item'))
  }
  for (let i = 0; i < n;) {
    const id = seg[i]!
    let j = i + 1
    while (j < n && seg[j] === id && tokens[j] !== '') j++
    if (tokens[i] !== '') segments[id]!.ranges.push([i, j])
    i = j
  }

  // each text on its own: typed-array views share the post's arrays, so marks land in place
  // dictionary products and categories, found once: their positions, and a mark where each starts (a model for the part rules)
  const cats = findCategories(tokens, dict)
  const product = new Uint8Array(n)
  for (const c of cats) product[c.pos] = 1
  const tn = t.tokens.length
  const titleTrack = { tokens: t.tokens, starts: t.starts, ends: t.ends, seg: seg.subarray(0, tn), product: product.subarray(0, tn) }
  const titleMarks = fits.subarray(0, tn)
  markFits(titleText, titleTrack, 0, tn, titleMarks, ts.found)
  markExtras(titleText, titleTrack, 0, tn, titleMarks, ts.found)
  markHeadParts(titleText, titleTrack, 0, tn, titleMarks, ts.found, MARK_EXTRA)
  // a replica word in the title's shared context ("[Airsoft] …") or the flair: the whole post is a replica
  let replicaPost = markItemState(titleText, titleTrack, 0, tn, titleMarks, ts.segments.length)
  if (bs) {
    const bn = b.tokens.length
    const bodyTrack = { tokens: b.tokens, starts: b.starts, ends: b.ends, seg: seg.subarray(bodyStart), product: product.subarray(bodyStart) }
    const bodyMarks = fits.subarray(bodyStart)
    markFits(bodyText, bodyTrack, 0, bn, bodyMarks, bs.found)
    markExtras(bodyText, bodyTrack, 0, bn, bodyMarks, bs.found)
    markHeadParts(bodyText, bodyTrack, 0, bn, bodyMarks, bs.found, MARK_EXTRA)
    markItemState(bodyText, bodyTrack, 0, bn, bodyMarks, bs.segments.length)
    if (ts.segments.length >= 2) markSoldSentences(bodyText, bodyTrack, 0, bn, bodyMarks)
  }
  const flairTokens = post.flair ? canonical(normalize(post.flair), dict) : []
  if (!replicaPost && flairTokens.length > 0 && isReplicaWord(flairTokens)) replicaPost = true
  if (replicaPost) for (let i = 0; i < n; i++) fits[i] = fits[i]! | MARK_REPLICA

  const positions = new Map<string, number[]>()
  const distinct: string[] = []
  for (let i = 0; i < n; i++) {
    const tok = tokens[i]!
    if (tok === '') continue
    const list = positions.get(tok)
    if (list) list.push(i)
    else {
      positions.set(tok, [i])
      distinct.push(tok)
    }
  }
  const texts = { title: titleText, body: bodyText, titleEnds: t.ends, titleStarts: t.starts, bodyStarts: b.starts, bodyEnds: b.ends }
  for (const c of markSpecs(cats, tokens, seg, fits, bodyStart, texts, dict)) {
    const list = positions.get(c.token)
    if (!list) {
      positions.set(c.token, [c.pos])
      distinct.push(c.token)
    } else if (list[list.length - 1] !== c.pos) list.push(c.pos) // found in position order
  }

  // the same reading as posts.location (src/forums/store.ts)
  const location = titleLocation(titleText)
  const prices: number[] = []
  for (const s of segments) for (const p of s.prices) if (p.role === 'item' && p.unit === 'total' && !prices.includes(p.amount)) prices.push(p.amount)

  return {
    tokens,
    tokenSet: new Set(distinct),
    distinct,
    positions,
    seg,
    fits,
    segments,
    sided: ts.sides.length > 0 || (bs?.sides.some((r) => r.side === 'want') ?? false),
    side,
    prices,
    author: normalizeAuthor(post.author),
    flair: flairTokens,
    trades: readTrades(post.authorFlair),
    ageDays: post.authorAgeDays ?? null,
    karma: post.authorKarma ?? null,
    location,
    places: placeKeys(location),
    bodyStart,
  }
}

/** The distinct tokens of a post (category tokens included): the same set as `preparePost(post).distinct`, without the rest. */
export function distinctTokens(post: PostInput, dict: CompiledDictionary = BUILTIN): string[] {
  const title = canonical(normalize(post.title ?? ''), dict)
  const body = post.content ? canonical(normalize(post.content), dict) : []
  const tokens = body.length > 0 ? [...title, '', ...body] : title
  const seen = new Set<string>()
  for (const tok of tokens) if (tok !== '') seen.add(tok)
  for (const c of findCategories(tokens, dict)) seen.add(c.token)
  return [...seen]
}

type Texts = { title: string; body: string; titleStarts: number[]; titleEnds: number[]; bodyStarts: number[]; bodyEnds: number[] }

/** Between a container's words and a spec listed after "X:" no line, "|" or ";" ends the list ("Server: X9DAi, 2x E5-2670, 32GB RAM"). */
const LIST_END = /[|;\n]/
/** What stands between two alternatives ("keyboard/switches", "keyboard or switches"). */
const EITHER = /^\s*(\/|or|and\/or)\s*$/i

/**
 * The category hits that count. A hit of a category with `specOf` (dictionary.ts: cpu, ram, dac, switches …) is a spec
 * of a container product — a laptop, computer or server for a CPU or memory, a player for a DAC chip, a keyboard for
 * its switches — when the container is in the same item segment of the same text, or earlier in the same list after
 * a colon ("Server: X9DAi, 2x Xeon, 32GB RAM"); a container named only as what an accessory fits is none. A spec hit
 * loses its category token and, where no other category's hit starts, is marked MARK_SPEC: it counts for words ("32gb ram",
 * "i5 7500") and for other categories ("2x Xeon" in a server is a `xeon`), not for its own category.
 */
function markSpecs(
  cats: { token: string; pos: number }[],
  tokens: string[],
  seg: Uint16Array,
  fits: Uint8Array,
  bodyStart: number,
  texts: Texts,
  dict: CompiledDictionary,
): { token: string; pos: number }[] {
  const specOf = dict.specOf
  if (specOf.size === 0 || !cats.some((c) => specOf.has(c.token))) return cats
  const inBody = (p: number) => p >= bodyStart
  const key = (p: number) => (inBody(p) ? 0x10000 : 0) + seg[p]!
  const start = (p: number) => (inBody(p) ? texts.bodyStarts[p - bodyStart]! : texts.titleStarts[p]!)
  const end = (p: number) => (inBody(p) ? texts.bodyEnds[p - bodyStart]! : texts.titleEnds[p]!)
  const containers = cats.filter((c) => (fits[c.pos]! & MARK_ACCESSORY) === 0)
  const isSpec = (c: { token: string; pos: number }) => {
    const of = specOf.get(c.token)
    if (!of) return false
    for (const k of containers) {
      if (!of.has(k.token)) continue
      if (key(k.pos) === key(c.pos)) {
        // "keyboard/switches", "keyboard or switches": either one, not a keyboard with its switches
        const [a, b] = k.pos < c.pos ? [k.pos, c.pos] : [c.pos, k.pos]
        const between = (inBody(a) ? texts.body : texts.title).slice(end(a), start(b))
        if (EITHER.test(between)) continue
        return true
      }
      if (k.pos < c.pos && inBody(k.pos) === inBody(c.pos)) {
        const between = (inBody(c.pos) ? texts.body : texts.title).slice(end(k.pos), start(c.pos))
        if (between.includes(':') && !LIST_END.test(between)) return true
      }
    }
    return false
  }
  const out: { token: string; pos: number }[] = []
  const specs: number[] = []
  for (const c of cats) {
    if (isSpec(c)) specs.push(c.pos)
    else out.push(c)
  }
  // the words are marked where no other category's hit starts ("2x Xeon" in a server: no CPU for sale, still a Xeon)
  const items = new Set(out.map((c) => c.pos))
  for (const p of specs) if (!items.has(p)) fits[p] = fits[p]! | MARK_SPEC
  return out
}
