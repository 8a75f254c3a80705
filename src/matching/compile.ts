// Compiled terms and prepared posts: the two sides of a match, each computed once.
// A post is prepared once per scan (tokens, their positions, title prices) and then checked against
// many terms; a term is compiled once when saved. Checking an alternative, cheapest test first:
// price bounds → required sequences → exclusions.

import { normalize } from './normalize'
import type { Alternative, Query, Sequence } from './parse'
import { extractPrices, pricesSatisfy, type PriceBound } from './price'

export type CompiledSequence = Sequence & { single: boolean }
export type CompiledAlternative = {
  include: CompiledSequence[]
  exclude: CompiledSequence[]
  prices: PriceBound[]
  /** Canonical text of the alternative: equal alternatives share one index entry. */
  signature: string
}
export type CompiledTerm = { alternatives: CompiledAlternative[] }

export type PreparedPost = {
  /** Title then body tokens (a phrase may not span the title/body seam: a "" token sits between). */
  tokens: string[]
  tokenSet: Set<string>
  /** Distinct tokens, in first-seen order. */
  distinct: string[]
  /** token → ascending positions in `tokens`. */
  positions: Map<string, number[]>
  /** Dollar amounts of the title. */
  prices: number[]
}

function seqKey(s: Sequence): string {
  return s.tokens.join(' ') + (s.prefix ? '*' : '')
}

function compileSequence(s: Sequence): CompiledSequence {
  return { tokens: s.tokens, prefix: s.prefix, single: s.tokens.length === 1 && !s.prefix }
}

/** The keys in sorted order, joined: the order a user wrote the parts in does not matter. */
function sortedKeys(keys: string[]): string {
  return keys.length === 0 ? '' : keys.length === 1 ? keys[0]! : keys.sort().join('\u0001')
}

export function compileAlternative(a: Alternative): CompiledAlternative {
  // Most alternatives have no exclusions and no bounds: skip those steps outright.
  const exc = a.exclude.length === 0 ? '' : sortedKeys(a.exclude.map(seqKey))
  const pr = a.prices.length === 0 ? '' : sortedKeys(a.prices.map((p) => p.op + p.amount))
  return {
    include: a.include.map(compileSequence),
    exclude: a.exclude.length === 0 ? [] : a.exclude.map(compileSequence),
    prices: a.prices,
    signature: sortedKeys(a.include.map(seqKey)) + '\u0002' + exc + '\u0002' + pr,
  }
}

export function compileTerm(query: Query): CompiledTerm {
  return { alternatives: query.alternatives.map(compileAlternative) }
}

export function preparePost(post: { title: string; content?: string | null }): PreparedPost {
  const title = normalize(post.title ?? '')
  const body = post.content ? normalize(post.content) : []
  const tokens = body.length > 0 ? [...title, '', ...body] : title
  const positions = new Map<string, number[]>()
  const distinct: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t === '') continue
    const list = positions.get(t)
    if (list) list.push(i)
    else {
      positions.set(t, [i])
      distinct.push(t)
    }
  }
  return { tokens, tokenSet: new Set(distinct), distinct, positions, prices: extractPrices(post.title ?? '') }
}

/** The distinct tokens of a post, the same set as `preparePost(post).distinct`, without the rest. */
export function distinctTokens(post: { title: string; content?: string | null }): string[] {
  const seen = new Set(normalize(post.title ?? ''))
  if (post.content) for (const t of normalize(post.content)) seen.add(t)
  return [...seen]
}

function startsAny(post: PreparedPost, prefix: string): boolean {
  for (const t of post.distinct) if (t.startsWith(prefix)) return true
  return false
}

export function sequenceOccurs(seq: CompiledSequence, post: PreparedPost): boolean {
  if (seq.single) return post.tokenSet.has(seq.tokens[0]!)
  const n = seq.tokens.length
  if (n === 1) return startsAny(post, seq.tokens[0]!)
  const starts = post.positions.get(seq.tokens[0]!)
  if (!starts) return false
  const toks = post.tokens
  outer: for (const p of starts) {
    if (p + n > toks.length) return false
    for (let k = 1; k < n - 1; k++) if (toks[p + k] !== seq.tokens[k]) continue outer
    const last = toks[p + n - 1]!
    if (seq.prefix ? last !== '' && last.startsWith(seq.tokens[n - 1]!) : last === seq.tokens[n - 1]) return true
  }
  return false
}

export function alternativeMatches(alt: CompiledAlternative, post: PreparedPost): boolean {
  if (alt.prices.length > 0 && !pricesSatisfy(post.prices, alt.prices)) return false
  for (const s of alt.include) if (!sequenceOccurs(s, post)) return false
  for (const s of alt.exclude) if (sequenceOccurs(s, post)) return false
  return true
}

export function matchesPost(term: CompiledTerm, post: PreparedPost): boolean {
  for (const a of term.alternatives) if (alternativeMatches(a, post)) return true
  return false
}
