// Reposts and bumps: is a new post the SAME LISTING as an earlier post of its author? Pure.
//
// Sellers bump a listing by posting it again, often with the wording touched up or a lower price.
// A later post is the same listing as an earlier one when all of these hold:
//   1. same author, case-insensitive; never '[deleted]' or an unknown ('') author;
//   2. the later post was created at most 14 days after the earlier one (REPOST_WINDOW_MS);
//   3. same category (a WTS and a WTB of the same item are two listings), when both have one;
//   4. the titles are nearly the same: titleSimilarity ≥ 0.8 (SAME_LISTING_SIMILARITY).
//
// titleSimilarity compares the titles' *listing words*: the normalised tokens (matching/normalize.ts)
// after price figures ("$450", "450$", "€85", "$1.2k", "420 shipped", "450 obo") are cut out and
// trade codes and bump words (WTS, [H]/[W], price drop, obo, shipped, bump, repost, …) are dropped.
// The measure is the Dice coefficient of the two word SETS, 2·|A∩B| / (|A| + |B|): word order,
// punctuation and repeated words do not count, one added word in a five-word title keeps 0.91, one
// changed word in a five-word title gives 0.8.
// One guard on top: the numbers left in the titles (model numbers, generations, sizes, counts) must
// be the same set — "Glock 19 Gen 5" and "Glock 19 Gen 3" share most words but are two items.
import { preparePost } from '../matching/compile'
import { normalize } from '../matching/normalize'

export const REPOST_WINDOW_MS = 14 * 24 * 3600_000
export const SAME_LISTING_SIMILARITY = 0.8

// Price figures, cut out in this order so the glued forms win, as in matching/price.ts: "EXPS3-2 $450"
// loses "$450", never "2 $". Then a bare amount with a price word after it ("420 shipped", "450 obo").
const NUM = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:k(?![a-z]))?`
const LEAD = String.raw`(?<![\w.,])`
const PRICE_FIGURES = [
  String.raw`[$€£]${NUM}`,
  LEAD + String.raw`${NUM}[$€£]`,
  String.raw`[$€£]\s${NUM}`,
  LEAD + String.raw`${NUM}\s[$€£]`,
  LEAD + String.raw`${NUM}\s*(?:shipped|obo|ono|firm|otd|ppd|shipping|plus\s+shipping|\+\s*shipping)\b`,
].map((re) => new RegExp(re, 'gi'))

/** Words that say how a listing is offered or bumped, not what it is. */
const IGNORED = new Set(
  [
    // trade codes and sides: [WTS], [WTB], [WTT], [FS], [ISO], [LF], [H] … [W] …, [For Sale]
    ...['wts', 'wtb', 'wtt', 'fs', 'ft', 'fsot', 'fsft', 'iso', 'lf', 'h', 'w', 'have', 'want', 'for', 'sale'],
    // bump and price talk: "PRICE DROP", "reduced", "OBO", "shipped", "bump", "repost", "still available"
    ...['price', 'drop', 'dropped', 'reduced', 'lowered', 'obo', 'ono', 'firm', 'shipped', 'shipping', 'ship', 'ppd', 'otd', 'pd'],
    ...['bump', 'bumped', 'repost', 'reposted', 'relist', 'relisted', 'now', 'was', 'still', 'available', 'again', 'update', 'updated'],
  ].flatMap((w) => normalize(w)),
)

/** The words a title's listing is recognised by (see the rules above), as a set. */
export function listingWords(title: string): Set<string> {
  let text = (title ?? '').normalize('NFKD')
  for (const re of PRICE_FIGURES) text = text.replace(re, ' ')
  return new Set(normalize(text).filter((t) => !IGNORED.has(t)))
}

const isNumber = (t: string) => t.charCodeAt(0) >= 48 && t.charCodeAt(0) <= 57

/** Dice coefficient of the listing words of two titles (0 when either has none), 0..1. */
export function titleSimilarity(a: string, b: string): number {
  return dice(listingWords(a), listingWords(b))
}

function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let common = 0
  for (const t of a) if (b.has(t)) common++
  return (2 * common) / (a.size + b.size)
}

function sameNumbers(a: Set<string>, b: Set<string>): boolean {
  const na = [...a].filter(isNumber)
  const nb = [...b].filter(isNumber)
  return na.length === nb.length && na.every((n) => b.has(n))
}

/** True when the two titles name the same listing (similar enough and the same numbers), authors and times aside. */
export function sameListingTitle(a: string, b: string): boolean {
  const wa = listingWords(a)
  const wb = listingWords(b)
  return dice(wa, wb) >= SAME_LISTING_SIMILARITY && sameNumbers(wa, wb)
}

export type ListingPost = { author: string; title: string; createdAt: Date | number; postType?: string | null }

const time = (d: Date | number) => (typeof d === 'number' ? d : d.getTime())

/** A usable author: known and not deleted (a deleted account's posts share the name '[deleted]'). */
export function listingAuthor(author: string | null | undefined): string | null {
  const a = (author ?? '').trim().toLowerCase()
  return a === '' || a === '[deleted]' ? null : a
}

/** Is `later` a repost (bump) of `earlier`? Rules 1–4 at the top of this file. */
export function isSameListing(earlier: ListingPost, later: ListingPost): boolean {
  const author = listingAuthor(earlier.author)
  if (author === null || author !== listingAuthor(later.author)) return false
  const gap = time(later.createdAt) - time(earlier.createdAt)
  if (gap < 0 || gap > REPOST_WINDOW_MS) return false
  if (earlier.postType && later.postType && earlier.postType !== later.postType) return false
  return sameListingTitle(earlier.title, later.title)
}

/**
 * The price a title asks: its first ITEM price (matching's reading: shipping, "was" and discount
 * figures are not item prices once the matcher knows price roles), null when it names none. The
 * first, not the lowest: in "Glock 19 $450, holster $40" the listing's price is the Glock's.
 * `posts.price` (post-state.ts `detectPrice`) falls back to it when the body has no price edit.
 */
export function titlePrice(title: string): number | null {
  // a struck-through old price ("~~$500~~ $450") is history, not the price
  return preparePost({ title: title.replace(/~~[^~]*~~/g, ' ') }).prices[0] ?? null
}
