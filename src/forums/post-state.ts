// A listing's state from what Reddit shows of it: open, pending, sold or removed. Pure.
// Used when a post is stored (a title already tagged [SOLD]), by the re-check of recent posts
// (/api/info.json) and by the per-user "skip posts marked SOLD/PENDING" default.
//
// Order: removed beats sold beats pending beats open.
//   removed: `removed_by_category` set, body "[removed]" / "[deleted]", or the author deleted
//            (author "[deleted]") — a removed post is gone whatever its flair says;
//   sold:    flair, title or a body line marked SOLD / CLOSED ("[SOLD]", "Sold", "~~…~~ SOLD",
//            "CLOSED"), a body sentence closing the thread ("Closing thread, found one"); a title marked "pls remove" (a forum seller asking for a finished listing to go);
//   pending: the same places marked PENDING / "sale pending" / "PPU" ("pending pick up"); a title or
//            flair RESERVED / ON HOLD (held for a buyer: "Seiko SKX007 (reserved)", "[On Hold]"); a title
//            marked SPF (forum classifieds: sale pending funds).
// The title's marks — tags anywhere, a word at its start or end ("SOLD - WTS: …", "WTS: RMR - SOLD") — are
// read by the one title grammar (src/matching/title-grammar.ts, `state`), for Reddit and forum posts alike.

import { extractPrices } from '../matching/price'
import { readTitleGrammar } from '../matching/title-grammar'
import { titlePrice } from './reposts'

import type { PostState } from '../contract/events'

export type { PostState }
export const POST_STATES: readonly PostState[] = ['open', 'pending', 'sold', 'removed']

export type StateInput = {
  title: string
  content?: string | null
  flair?: string | null
  author?: string | null
  /** Reddit's `removed_by_category` ("moderator", "automod_filtered", "deleted", …), null when none */
  removedByCategory?: string | null
}

const FLAIR_SOLD = /^\s*(sold|closed|complete|completed|sold out|expired)\s*$/i
const FLAIR_PENDING = /^\s*(pending|sale pending|ppu|reserved|on hold)\s*$/i
// A body line that is only the marker, or starts with it in capitals ("SOLD - thanks all"); "Edit: Sold 1 2500S" (a count)
// sold some of the items, not the post
const BODY_SOLD = /^\s*(?:\*\*|__)?\s*(?:edit\s*:?\s*)?(?:all\s+)?(sold|closed)\b(?!\s+(?:at|by|\d+|one|two|three|four|five)\b)/im
// A sentence that closes the thread ("… if that helps. Closing thread, found another solution.", "Thread closed")
const BODY_CLOSING = /(?:^|[.!]\s+)(?:\*\*|__)?\s*(?:edit\s*:?\s*)?(?:closing\s+(?:this\s+|the\s+)?thread|thread\s+(?:is\s+)?closed)\b/im
const BODY_PENDING = /^\s*(?:\*\*|__)?\s*(?:edit\s*:?\s*)?(sale\s+)?pending\b/im

function cleanFlair(flair: string): string {
  return flair
    .replace(/:[\w-]+:/g, ' ')
    .replace(/[^\p{L}\p{N} ]/gu, ' ')
    .replace(/\s+/g, ' ')
}

export function detectPostState(p: StateInput): PostState {
  const body = (p.content ?? '').trim()
  if (p.removedByCategory || body === '[removed]' || body === '[deleted]' || p.author === '[deleted]') return 'removed'
  const flair = p.flair ? cleanFlair(p.flair) : ''
  const title = readTitleGrammar(p.title).state
  if (title === 'sold' || FLAIR_SOLD.test(flair) || BODY_SOLD.test(body) || BODY_CLOSING.test(body)) return 'sold'
  if (title === 'pending' || FLAIR_PENDING.test(flair) || BODY_PENDING.test(body)) return 'pending'
  return 'open'
}

/** A stored state string read back (an unknown value counts as open). */
export function asPostState(s: string | null | undefined): PostState {
  return (POST_STATES as readonly (string | null | undefined)[]).includes(s) ? (s as PostState) : 'open'
}

/** True when a post in this state should still alert (and count in digests). */
export function isOpen(state: PostState | null | undefined): boolean {
  return state === undefined || state === null || state === 'open'
}

// The listing price in dollars: a price edit in the body wins ("~~$450~~ $400", "price drop: $400",
// "now $400", "reduced to $400", "edit: $400"; the last such edit), else the title's (reposts.ts titlePrice),
// else null. Prices in an ordinary body line are not taken: a body often lists several items.
const BODY_PRICE_EDIT =
  /~~[^~\n]*\$[^~\n]*~~\s*(\$\s?[\d,.]+k?|[\d,.]+k?\s?\$)|(?:price\s+(?:drop(?:ped)?|reduced|lowered|change[d]?)|reduced\s+to|dropped\s+to|now\s+only|now|edit)\s*(?:to)?\s*[:\-–—]?\s*(\$\s?[\d,.]+k?|[\d,.]+k?\s?\$)/gi

export function detectPrice(title: string, content?: string | null): number | null {
  let edited: number | null = null
  for (const m of (content ?? '').matchAll(BODY_PRICE_EDIT)) {
    const found = extractPrices(m[1] ?? m[2] ?? '')[0]
    if (found !== undefined) edited = found
  }
  return edited ?? titlePrice(title)
}
