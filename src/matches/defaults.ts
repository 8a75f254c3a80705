// Per-user matching defaults (issue 15 item 16): what every term of a user leaves out without the
// user typing it. No row means the defaults: skip posts marked SOLD or PENDING, exclude no words.
//
// Applied where matches are recorded (recordMatches in runner.ts), so live scans, batch runs and
// the 7-day backfill of a new or edited term all obey them. For each hit, in order:
//   1. skip_sold on and the post reads as sold or pending (detectPostState: title tag, link flair or
//      a body line) → the hit is dropped;
//   2. an excluded word occurs in the title or body → dropped. Words are compared as terms are
//      (normalize: case, accents, plurals): `airsoft` also drops "AIRSOFT" and "Airsofts"; an entry
//      of several words is a phrase (its words next to each other, in order, within title or body).
// Saved lists: at most 50 entries, each at most 40 characters with at least one letter or digit and
// no search operator (" | * < > $ ( ) ~ : or a leading -: the entry is the plain word or phrase),
// lowercased, trimmed, inner spaces collapsed, de-duplicated in order.
import { eq, inArray, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { matchDefaults, type Post } from '../db/schema'
import type { Deps } from '../deps'
import { badRequest } from '../lib/errors'
import { detectPostState } from '../forums/post-state'
import { normalize } from '../matching/normalize'
import { chunksOf } from '../lib/id-lists'

export type MatchDefaults = { skipSold: boolean; excludeWords: string[] }
export const MAX_EXCLUDE_WORDS = 50
export const MAX_EXCLUDE_LENGTH = 40
/** Offered in the dialog, never applied unless the user adds it. */
export const SUGGESTED_EXCLUDE_WORDS = ['airsoft'] as const

export const DEFAULTS_TEXTS = {
  tooMany: `Too many excluded words: at most ${MAX_EXCLUDE_WORDS}`,
  tooLong: (w: string) => `"${w}" is too long: an excluded word or phrase can have at most ${MAX_EXCLUDE_LENGTH} characters`,
  noWord: (w: string) => `"${w}" has no letters or digits to exclude`,
  operator: (w: string, c: string) => `"${w}" contains "${c}": write the plain word or phrase to exclude, like airsoft`,
} as const

/** A stored row, the word list as its text (a list that does not read as JSON counts as none). */
const COLUMNS = { userId: matchDefaults.userId, skipSold: matchDefaults.skipSold, excludeWords: sql<string>`${matchDefaults.excludeWords}` }
type Row = { userId: number; skipSold: boolean; excludeWords: string }

function fromRow(r: Row | null | undefined): MatchDefaults {
  if (!r) return { skipSold: true, excludeWords: [] }
  let words: unknown
  try {
    words = JSON.parse(r.excludeWords)
  } catch {
    words = []
  }
  return { skipSold: r.skipSold, excludeWords: Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string') : [] }
}

export async function getMatchDefaults(deps: OwnerDb, userId: number): Promise<MatchDefaults> {
  const db = asAsync(deps.db)
  return fromRow((await db.select(COLUMNS).from(matchDefaults).where(eq(matchDefaults.userId, userId)).limit(1))[0])
}

/** Lowercased, trimmed, inner spaces collapsed, de-duplicated; throws 400 INVALID_DEFAULTS naming the first bad entry. */
export function validateExcludeWords(raw: string[]): string[] {
  const out: string[] = []
  for (const entry of raw) {
    const w = entry.trim().replace(/\s+/g, ' ').toLowerCase()
    if (w === '') continue
    const op = /["|*<>$()~:]/.exec(w) ?? (w.startsWith('-') ? ['-'] : null)
    if (op) throw badRequest(DEFAULTS_TEXTS.operator(w, op[0]), 'INVALID_DEFAULTS')
    if (w.length > MAX_EXCLUDE_LENGTH) throw badRequest(DEFAULTS_TEXTS.tooLong(w), 'INVALID_DEFAULTS')
    if (normalize(w).length === 0) throw badRequest(DEFAULTS_TEXTS.noWord(w), 'INVALID_DEFAULTS')
    if (!out.includes(w)) out.push(w)
  }
  if (out.length > MAX_EXCLUDE_WORDS) throw badRequest(DEFAULTS_TEXTS.tooMany, 'INVALID_DEFAULTS')
  return out
}

/** Partial update; answers the saved defaults. Read and write in one transaction: two partial updates at once both land. */
export async function updateMatchDefaults(
  deps: OwnerDb & Pick<Deps, 'now'>,
  userId: number,
  change: { skipSold?: boolean; excludeWords?: string[] },
): Promise<MatchDefaults> {
  const excludeWords = change.excludeWords === undefined ? undefined : validateExcludeWords(change.excludeWords)
  const at = deps.now()
  return asAsync(deps.db).transaction(async (tx) => {
    const current = await getMatchDefaults({ db: tx }, userId)
    const next: MatchDefaults = { skipSold: change.skipSold ?? current.skipSold, excludeWords: excludeWords ?? current.excludeWords }
    await tx
      .insert(matchDefaults)
      .values({ userId, skipSold: next.skipSold, excludeWords: next.excludeWords, updatedAt: at })
      .onConflictDoUpdate({ target: matchDefaults.userId, set: { skipSold: next.skipSold, excludeWords: next.excludeWords, updatedAt: at } })
    return next
  })
}

/** The defaults of many users at once (one query per 500); users without a row get the defaults. */
async function defaultsOf(deps: OwnerDb, ids: number[]): Promise<Map<number, MatchDefaults>> {
  const db = asAsync(deps.db)
  const out = new Map<number, MatchDefaults>()
  for (const chunk of chunksOf(ids))
    for (const r of await db.select(COLUMNS).from(matchDefaults).where(inArray(matchDefaults.userId, chunk))) out.set(r.userId, fromRow(r))
  for (const id of ids) if (!out.has(id)) out.set(id, fromRow(null))
  return out
}

/** Title and body tokens, apart: a phrase may not run from the title into the body. */
type PostText = { parts: string[][]; tokens: Set<string> }

function postText(post: Pick<Post, 'title' | 'content'>): PostText {
  const parts = [normalize(post.title), normalize(post.content ?? '')]
  return { parts, tokens: new Set(parts.flat()) }
}

function phraseOccurs(words: string[], text: PostText): boolean {
  if (words.length === 1) return text.tokens.has(words[0]!)
  if (!words.every((w) => text.tokens.has(w))) return false
  for (const part of text.parts)
    outer: for (let i = 0; i + words.length <= part.length; i++) {
      for (let k = 0; k < words.length; k++) if (part[i + k] !== words[k]) continue outer
      return true
    }
  return false
}

/** True when a user's defaults leave this post out. `text` is computed on demand and shared per post. */
function excludedByDefaults(defaults: MatchDefaults, post: Post, text: () => PostText, sold: () => boolean): boolean {
  return (defaults.skipSold && sold()) || excludingWord(defaults, text) !== null
}

function excludingWord(defaults: MatchDefaults, text: () => PostText): string | null {
  for (const word of defaults.excludeWords) {
    const tokens = normalize(word)
    if (tokens.length > 0 && phraseOccurs(tokens, text())) return word
  }
  return null
}

/** Which default leaves this post out, for the explainer (src/explain/): the same checks as applyMatchDefaults. */
export function defaultsVerdict(
  defaults: MatchDefaults,
  post: Pick<Post, 'title' | 'content' | 'flair' | 'author'>,
): { kind: 'sold'; state: 'sold' | 'pending' } | { kind: 'word'; word: string } | null {
  if (defaults.skipSold) {
    const state = detectPostState({ title: post.title, content: post.content, flair: post.flair, author: post.author })
    if (state === 'sold' || state === 'pending') return { kind: 'sold', state }
  }
  const word = excludingWord(defaults, () => postText(post))
  return word === null ? null : { kind: 'word', word }
}

/** Drops the hits that their user's defaults leave out (see the header). */
export async function applyMatchDefaults<H extends { userId: number; post: Post }>(deps: OwnerDb, hits: H[]): Promise<H[]> {
  if (hits.length === 0) return hits
  const defaults = await defaultsOf(deps, [...new Set(hits.map((h) => h.userId))])
  const texts = new Map<number, PostText>()
  const sold = new Map<number, boolean>()
  return hits.filter((h) => {
    const p = h.post
    const textOf = () => texts.get(p.id) ?? texts.set(p.id, postText(p)).get(p.id)!
    const soldOf = () => sold.get(p.id) ?? sold.set(p.id, isSoldOrPending(p)).get(p.id)!
    return !excludedByDefaults(defaults.get(h.userId)!, p, textOf, soldOf)
  })
}

function isSoldOrPending(p: Post): boolean {
  const state = detectPostState({ title: p.title, content: p.content, flair: p.flair, author: p.author })
  return state === 'sold' || state === 'pending'
}
