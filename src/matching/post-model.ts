// The shape of a prepared post: the contract between the post side of matching (`prepare.ts`:
// normalisation, listing structure, prices, aliases and categories) and the term side
// (`compile.ts`, `term-index.ts`, `explain.ts`). Types only.
//
// A post is read once into tokens (title, then a '' seam, then body) and every token position is
// labelled: which item segment it belongs to, which trade side, and whether it is an
// accessory-for mention. Segment 0 is the shared context: text that belongs to no item (title tags,
// location, a body paragraph that is not a line item). A post with one item has every word in
// segment 0 or in segment 1 — either way one scope, as before.

export type Side = 'have' | 'want'
/** What a dollar figure is: the price of its item, or something else that must not satisfy a bound. */
export type PriceRole = 'item' | 'shipping' | 'was' | 'discount' | 'giftcard'
export type PriceUnit = 'total' | 'each' | 'round'

export type Price = {
  /** dollars (USD, € and ¢ are read as their number: "€85,00" → 85, "40¢" → 0.40) */
  amount: number
  role: PriceRole
  unit: PriceUnit
}

export type ItemSegment = {
  id: number
  /** null: the post has no [H]/[W] sides, or this segment sits outside both */
  side: Side | null
  /** the figures that belong to this item */
  prices: Price[]
  /** token positions [start, end) in `tokens` this segment covers (may be several ranges in a body) */
  ranges: [number, number][]
}

export type PreparedPost = {
  /** Title then body tokens (a phrase may not span the title/body seam: a '' token sits between). */
  tokens: string[]
  tokenSet: Set<string>
  /** Distinct tokens, in first-seen order (category tokens included). */
  distinct: string[]
  /** token → ascending positions in `tokens` (a category token lists the position of its model's first token). */
  positions: Map<string, number[]>
  /** position → segment id (0 = shared context) */
  seg: Uint16Array
  /** position → marks (bits, MARK_*): an accessory-for mention ("holster for Glock 19", "RMR-style"), a replica item
   *  ("Glock 19 airsoft GBB"), an item marked sold inside a multi-item listing, an extra sold with the item ("w/ mount") */
  fits: Uint8Array
  /** index = segment id; segments[0] is the shared context */
  segments: ItemSegment[]
  /** true when the post has [H]/[W] (or body want-lines) sides */
  sided: boolean
  /** position → 1 have, 2 want, 0 none */
  side: Uint8Array
  /** Item prices of the whole post (all segments), kept for callers that need a post-level figure. */
  prices: number[]
  /** normalised author name ('' when unknown) and flair tokens */
  author: string
  flair: string[]
  /** confirmed trades read from the author's flair ("Trades: 12"), null when the flair says none */
  trades: number | null
  /** the author's account age in days when they posted, and their karma (Reddit OAuth look-up); null when not known */
  ageDays: number | null
  karma: number | null
  /** the title's location tag as written ("USA-TX", "San Juan, PR"), null when it names none */
  location: string | null
  /** its place keys (location.ts: "US-TX", "US"), [] when there is none or it is not a known place */
  places: string[]
  /** index of the first body token in `tokens` (tokens.length when there is no body) */
  bodyStart: number
}

/** What preparePost reads. */
export type PostInput = {
  title: string
  content?: string | null
  author?: string | null
  flair?: string | null
  /** the author's user flair, where the forum shows confirmed trades ("Trades: 12") */
  authorFlair?: string | null
  /** the author's account age in days when they posted, and their karma (src/forums/authors.ts); absent = not known */
  authorAgeDays?: number | null
  authorKarma?: number | null
}

/** Bits of `PreparedPost.fits`. A word at a marked position counts for a term only when the term allows that mark. */
/** the product an accessory fits ("holster for Glock 19", "RMR-style", "P365 mags") */
export const MARK_ACCESSORY = 1
/** an airsoft / replica / gel-blaster item ("Glock 17 GBB", "[Airsoft] …") */
export const MARK_REPLICA = 2
/** an item marked sold inside a multi-item listing ("~~RMR~~ SOLD", "T2 (sold)") */
export const MARK_SOLD = 4
/** an extra that comes with the item ("w/ mount", "comes on a Unity mount", "+ free holster"): counts for words,
 *  never for an item exclusion (`rmr -mount` still finds "RMR w/ mount") */
export const MARK_EXTRA = 8
/** a gun maker's name in an item that is one of its own parts ("Glock OEM trigger kit", "Sig P365 mags"): counts for
 *  the name (`glock` wants the maker's parts), but not under a price bound on the name alone (`glock <$500` prices guns) */
export const MARK_MAKER_PART = 16
/** a category hit that is a spec of another product in its item ("32GB RAM" in a server's item, "DAC chipset" in a
 *  player's, switches in a keyboard's; CategoryDef.specOf): counts for words, never for the category (`ram`, `dac`) */
export const MARK_SPEC = 32
