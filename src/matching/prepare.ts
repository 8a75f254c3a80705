// A post read once per scan into the PreparedPost of post-model.ts (first version: one segment,
// no sides; listing structure, aliases and categories follow).

import { normalize } from './normalize'
import type { PostInput, PreparedPost } from './post-model'
import { extractPrices } from './price'

export function preparePost(post: PostInput): PreparedPost {
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
  const prices = extractPrices(post.title ?? '')
  const n = tokens.length
  return {
    tokens,
    tokenSet: new Set(distinct),
    distinct,
    positions,
    seg: new Uint16Array(n),
    fits: new Uint8Array(n),
    segments: [{ id: 0, side: null, prices: prices.map((amount) => ({ amount, role: 'item', unit: 'total' })), ranges: [[0, n]] }],
    sided: false,
    side: new Uint8Array(n),
    prices,
    author: (post.author ?? '').toLowerCase(),
    flair: post.flair ? normalize(post.flair) : [],
    trades: null,
    bodyStart: body.length > 0 ? title.length + 1 : n,
  }
}

/** The distinct tokens of a post, the same set as `preparePost(post).distinct`. */
export function distinctTokens(post: PostInput): string[] {
  return preparePost(post).distinct
}
