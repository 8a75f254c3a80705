// Marks on item words beyond accessory-for (listing-structure.ts): replica items, items marked sold
// inside a multi-item listing, and extras that come with an item. Token level, on the positions of
// one text (title or body) with their item segments; every scan is one pass (linear in the text).
//
// Replica. An item segment with "airsoft", "replica", "GBB", "AEG", "gel blaster", "BB gun/pistol/rifle"
// is a replica: all its words are marked (MARK_REPLICA). The word in the title's shared context
// ("[Airsoft] Elite Force Glock 17") marks the whole post (the caller does that). "not airsoft",
// "no airsoft", "non-airsoft" are no mark.
// Sold item. In a text with two or more items, an item with the word "sold" (not "sold as", "sold
// together", "sold separately", "sold by", …) and words struck through with ~~ ~~ are marked
// (MARK_SOLD): the other items of the listing still count; so are the words of a body sentence (outside line
// items) that says "sold" when the title lists several items ("RMR sold locally.").
// Extra. The words after "w/", "with", "includes", "including", "comes with/on", "on a/an/the",
// "on bracelet/strap/OEM …", "on <up to 3 words> strap/bracelet/band/mount/riser", "free", "plus", "extra", "spare", "additional" (up to 5 joined words of the same item, stopping at a price or a joining word) and
// the words before "included" are something sold with the item (MARK_EXTRA): they count for a term's
// words, but an item exclusion does not see them ("rmr -mount" still finds "RMR w/ Unity mount").

import type { FoundPrice } from './price'
import { MARK_ACCESSORY, MARK_EXTRA, MARK_REPLICA, MARK_SOLD } from './post-model'
import type { TokenTrack } from './listing-structure'

const REPLICA_WORDS = new Set(['airsoft', 'replica', 'gbb', 'aeg', 'gelblaster', 'gelsoft'])
/** a pair that names a replica: "gel blaster", "bb gun" */
const REPLICA_PAIRS = new Map<string, Set<string>>([
  ['gel', new Set(['blaster', 'ball'])],
  ['bb', new Set(['gun', 'pistol', 'rifle'])],
])
const NEGATION = new Set(['not', 'no', 'non'])

/** Words of a term that ask for replicas: with one of them, replica items count. */
export function isReplicaWord(tokens: string[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (REPLICA_WORDS.has(t) || t === 'blaster') return true
    if (i + 1 < tokens.length && REPLICA_PAIRS.get(t)?.has(tokens[i + 1]!)) return true
  }
  return false
}

const SOLD_NOT = new Set(['as', 'together', 'separately', 'separate', 'individually', 'only', 'with', 'by', 'in', 'at', 'through', 'thru', 'on', 'out'])

/** True when position i is a replica word (not negated). */
function replicaAt(tokens: string[], i: number, from: number): boolean {
  const t = tokens[i]!
  const pair = REPLICA_PAIRS.get(t)
  const hit = REPLICA_WORDS.has(t) || (pair !== undefined && i + 1 < tokens.length && pair.has(tokens[i + 1]!))
  return hit && !(i > from && NEGATION.has(tokens[i - 1]!))
}

/**
 * Replica and sold marks of positions [from, to). Returns true when a replica word sits in the
 * shared context (segment 0) or every item is a replica: the caller marks the whole post when that text is the title.
 */
export function markItemState(text: string, track: TokenTrack, from: number, to: number, marks: Uint8Array, itemCount: number): boolean {
  const { tokens, starts, seg } = track
  const replicaSegs = new Set<number>()
  const soldSegs = new Set<number>()
  let contextReplica = false
  for (let i = from; i < to; i++) {
    const t = tokens[i]!
    if (t === '') continue
    if (replicaAt(tokens, i, from)) {
      if (seg[i] === 0) contextReplica = true
      else replicaSegs.add(seg[i]!)
    } else if (itemCount >= 2 && t === 'sold' && seg[i] !== 0 && !(i + 1 < to && SOLD_NOT.has(tokens[i + 1]!))) soldSegs.add(seg[i]!)
  }
  if (replicaSegs.size > 0 || soldSegs.size > 0)
    for (let i = from; i < to; i++) {
      if (replicaSegs.has(seg[i]!)) marks[i] = marks[i]! | MARK_REPLICA
      if (soldSegs.has(seg[i]!)) marks[i] = marks[i]! | MARK_SOLD
    }
  if (itemCount >= 2 && text.includes('~~')) markStruck(text, starts, from, to, marks)
  // every item a replica ("Airsoft Glock 19, airsoft RMR"): so is the whole post, its body lines included
  return contextReplica || (itemCount > 0 && replicaSegs.size >= itemCount)
}

/**
 * A body sentence of the shared context that says "sold" ("RMR sold locally. 509T still available.") marks
 * its words sold: in a listing of several items it names the item that is gone. Sentences end at . ! ? or a
 * new line. One pass.
 */
export function markSoldSentences(text: string, track: TokenTrack, from: number, to: number, marks: Uint8Array) {
  const { tokens, starts, ends, seg } = track
  let start = from
  let sold = false
  const close = (end: number) => {
    if (sold) for (let k = start; k < end; k++) if (seg[k] === 0) marks[k] = marks[k]! | MARK_SOLD
    start = end
    sold = false
  }
  for (let i = from; i < to; i++) {
    if (i > from && /[.!?\n]/.test(text.slice(ends[i - 1]!, starts[i]!))) close(i)
    if (tokens[i] === 'sold' && seg[i] === 0 && !(i + 1 < to && SOLD_NOT.has(tokens[i + 1]!))) sold = true
  }
  close(to)
}

/** Words between a pair of "~~" (strikethrough) are sold. */
function markStruck(text: string, starts: number[], from: number, to: number, marks: Uint8Array) {
  let open = -1
  let i = from
  for (let at = text.indexOf('~~'); at >= 0; at = text.indexOf('~~', at + 2)) {
    if (open < 0) {
      open = at
      continue
    }
    while (i < to && starts[i]! < open) i++
    while (i < to && starts[i]! < at) {
      marks[i] = marks[i]! | MARK_SOLD
      i++
    }
    open = -1
  }
}

const EXTRA_AFTER = new Set(['w', 'with', 'includes', 'including', 'incl', 'free', 'plus', 'extra', 'spare', 'additional'])
/** "on bracelet", "on a Unity mount", "on OEM strap": what the item is sold on */
const ON_WHAT = new Set(['a', 'an', 'the', 'its', 'oem', 'original', 'factory', 'bracelet', 'strap', 'band', 'rubber', 'leather', 'nato', 'jubilee', 'oyster'])
const EXTRA_SKIP = new Set(['a', 'an', 'the', 'its', 'his', 'my', 'original', 'oem', 'extra', 'spare', 'factory'])
const EXTRA_STOP = new Set('and or but obo ono shipped shipping ship sold price asking for is are was were if it that which when free plus w with'.split(' '))
const FREE_NOT = new Set(['shipping', 'ship', 'shipped', 'to', 'of', 'for', 'with'])

const HOLDERS = new Set(['strap', 'bracelet', 'band', 'mount', 'riser'])
/** "on Alpine sailcloth strap": a strap, bracelet or mount within the next words [a, b) */
function soldOn(tokens: string[], a: number, b: number): boolean {
  for (let k = a; k < b; k++) if (HOLDERS.has(tokens[k]!)) return true
  return false
}

/** Is the gap between two tokens only spaces, dashes, dots, or a slash and colon ("w/ mount", "Acro-to-Picatinny")? */
function near(text: string, a: number, b: number): boolean {
  if (b - a > 3) return false
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 45 && c !== 46 && c !== 47 && c !== 58) return false
  }
  return true
}

/** Words only a whole watch is sold with or described by: "box and papers", "B&P", "warranty card", "full set / kit", its dial, movement, bezel, calibre. */
const WATCH_SET = new Set(['paper', 'warranty', 'dial', 'movement', 'automatic', 'chronograph', 'bezel', 'caliber', 'cal'])
const FULL_WHAT = new Set(['set', 'kit'])
const BANDS = new Set(['bracelet', 'strap', 'band'])

/**
 * A text that sells a watch with its papers or warranty card ("Sinn 556 on H-link bracelet, box + papers",
 * "full set") or describes its dial, movement or calibre sells the watch: its bracelet, strap or band is what it is
 * worn on — an extra, not the item (unless the band is "for" a watch). Two passes.
 */
function markWatchSet(tokens: string[], from: number, to: number, marks: Uint8Array) {
  let set = false
  for (let i = from; i < to && !set; i++) {
    const t = tokens[i]!
    set = WATCH_SET.has(t) || (t === 'full' && i + 1 < to && FULL_WHAT.has(tokens[i + 1]!)) || (t === 'b' && i + 1 < to && tokens[i + 1] === 'p')
  }
  if (!set) return
  for (let i = from; i < to; i++) {
    if (!BANDS.has(tokens[i]!)) continue
    // "bracelet for the Seiko SKX007 automatic" sells the bracelet
    if (i + 1 < to && (tokens[i + 1] === 'for' || tokens[i + 1] === 'fit')) continue
    marks[i] = marks[i]! | MARK_EXTRA
    // "Pelagos 25600 bracelet": the model before the band is the watch for sale, not what the band fits
    for (let k = i - 1; k >= from && (marks[k]! & MARK_ACCESSORY) !== 0; k--) marks[k] = marks[k]! & ~MARK_ACCESSORY
  }
}

/** Extra marks of positions [from, to); `found` are the text's prices (a price ends an extra). */
export function markExtras(text: string, track: TokenTrack, from: number, to: number, marks: Uint8Array, found: FoundPrice[]) {
  const { tokens, starts, ends, seg } = track
  let q = 0
  const inPrice = (k: number) => {
    while (q < found.length && found[q]!.end <= starts[k]!) q++
    return q < found.length && found[q]!.start <= starts[k]!
  }
  markWatchSet(tokens, from, to, marks)
  let until = from // positions before this are already scanned as part of an extra
  for (let i = from; i < to; i++) {
    const t = tokens[i]!
    let first = -1
    if (EXTRA_AFTER.has(t)) {
      if (t === 'with' && i > from && tokens[i - 1] === 'compatible') continue // "compatible with X" is accessory-for
      first = i + 1
    } else if (t === 'comes' && i + 1 < to && (tokens[i + 1] === 'with' || tokens[i + 1] === 'on')) first = i + 2
    else if (t === 'on' && i + 1 < to && (ON_WHAT.has(tokens[i + 1]!) || soldOn(tokens, i + 1, Math.min(to, i + 5)))) first = i + 1
    else if ((t === 'included' || t === 'incl') && i > from && seg[i - 1] === seg[i]) {
      // "mount included": up to 3 words back
      for (let k = i - 1, n = 0; k >= from && n < 3 && k >= until; k--, n++) {
        if (tokens[k] === '' || seg[k] !== seg[i] || EXTRA_STOP.has(tokens[k]!) || !near(text, ends[k]!, starts[k + 1]!)) break
        marks[k] = marks[k]! | MARK_EXTRA
      }
      continue
    }
    if (first < 0 || first >= to || seg[first] !== seg[i] || !near(text, ends[i]!, starts[first]!)) continue
    if (t === 'free' && FREE_NOT.has(tokens[first]!)) continue
    let j = first
    while (j < to && EXTRA_SKIP.has(tokens[j]!) && seg[j] === seg[i]) j++
    for (let n = 0; n < 5 && j < to; n++, j++) {
      const w = tokens[j]!
      if (w === '' || seg[j] !== seg[i] || EXTRA_STOP.has(w) || inPrice(j)) break
      if (j > first && !near(text, ends[j - 1]!, starts[j]!)) break
      marks[j] = marks[j]! | MARK_EXTRA
    }
    until = j
    if (j - 1 > i) i = j - 1 // the extra's words are not triggers; keeps the price cursor moving forward
  }
}
