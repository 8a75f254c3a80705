// Which forum a post belongs to and, on the accessories forum, whether it sells or buys.
// Pure; table-tested in tests/unit/forums/classify.test.ts.
//
// Rule order for the accessories forum:
//   1. Title tags, in the order they appear, as the one title grammar reads them
//      (src/matching/title-grammar.ts, which matching uses too): a bare code at the very start
//      ("WTS: …", "WTB - …", "WTS Aimpoint …") and every bracketed group anywhere ("[WTS]", "(WTB)",
//      "{WTS}", "[WTS/WTT]", "[WTS][WTT]", "[For Sale]", "[FS]"). Groups that are not a trade code
//      (locations like "[TX]", categories like "[Optic]") are ignored here.
//   2. The first sell or buy code wins ("[WTS/WTB]" → wts). Trade codes never decide: "[WTS/WTT]"
//      is wts, "[WTT/WTB]" is wtb.
//   3. Else [H]/[W] sides (sides.ts: "[H] … [W] …", "(H)/(W)", "H: … W: …", after location tags
//      like "[USA-CA]"): the side that offers only payment (PayPal, cash, local cash, EMT, Venmo,
//      Zelle, money, "$400") says who sells. [W] payment → wts, [H] payment → wtb, goods on both
//      sides → a trade (null, like [WTT]; the flair is not consulted). One side alone: "[W] Glock
//      mags" → wtb, "[H] RMR" → wts.
//   4. A title whose only codes are trade codes ("[WTT]") is kept but unclassified (null); the
//      flair is not consulted — the author said what the post is.
//   5. Only a title with no code and no deciding sides falls back to the link flair ("WTS", "Want
//      to Sell", "Selling", "WTB", "Buying", …): the flair breaks ties, it never overrides the title.
// Sell codes: WTS, FS, For Sale, Selling. Buy codes: WTB, ISO (in search of), LF / Looking For,
// Buying — someone searching for an item is a buyer, so ISO/LF posts reach WTB terms.
// The deals forum is always 'gd'. Subreddit names compare case-insensitively ("r/" tolerated).

import type { Category } from '../access/categories'
import { lookupCode as lookup, readTitleGrammar, TRADE_CODES, type TradeTag } from '../matching/title-grammar'
import { sidesTag } from './sides'

export type { TradeTag }
export type Classification = {
  forum: 'product' | 'gd'
  postType: Category | null
  classification: 'wts' | 'wtb' | null
}
export type ForumNames = { accessories: string; deals: string }

const FLAIRS = new Map<string, TradeTag>([...TRADE_CODES, ['sell', 'wts'], ['for sale', 'wts'], ['buy', 'wtb'], ['wanted', 'wtb']])

/** Trade codes found in a title, in order of appearance (the title grammar's reading). */
export function titleCodes(title: string): TradeTag[] {
  return readTitleGrammar(title).codes
}

/** The title's tag: first sell/buy code, else 'wtt' if only trade codes, else null (no tag). */
export function titleTag(title: string): TradeTag | null {
  const codes = titleCodes(title)
  return codes.find((c) => c !== 'wtt') ?? (codes.length > 0 ? 'wtt' : null)
}

/** Rules 1–5: the post's tag from its title codes, then its sides, then its flair. */
export function postTag(title: string, flair: string | null | undefined): TradeTag | null {
  const codes = titleCodes(title)
  const code = codes.find((c) => c !== 'wtt')
  if (code) return code
  const sides = sidesTag(title)
  if (sides !== null) return sides
  return codes.length > 0 ? 'wtt' : flairTag(flair)
}

export function flairTag(flair: string | null | undefined): TradeTag | null {
  if (!flair) return null
  // drop Reddit flair emoji (":wts:") and decoration
  const cleaned = flair.replace(/:[\w-]+:/g, ' ').replace(/[^\p{L}\p{N}/ -]/gu, ' ')
  const whole = lookup(FLAIRS, cleaned)
  if (whole) return whole
  // "WTS - Optics", "Selling / Local"
  const first = cleaned.split(/[/-]/)[0] ?? ''
  return lookup(FLAIRS, first)
}

export function sameSubreddit(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .trim()
      .replace(/^\/?r\//i, '')
      .toLowerCase()
  return norm(a) === norm(b)
}

/** null when the post belongs to neither configured forum (the caller drops it). */
export function classify(
  post: { title: string; subreddit: string; flair?: string | null; forum?: 'product' | 'gd' },
  forums: ForumNames,
): Classification | null {
  const forum = post.forum ?? (sameSubreddit(post.subreddit, forums.deals) ? 'gd' : sameSubreddit(post.subreddit, forums.accessories) ? 'product' : null)
  if (forum === 'gd') return { forum: 'gd', postType: 'gd', classification: null }
  if (forum === null) return null
  const tag = postTag(post.title, post.flair)
  const classification = tag === 'wts' || tag === 'wtb' ? tag : null
  return { forum: 'product', postType: classification, classification }
}
