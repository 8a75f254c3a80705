// The one place the quality benchmark calls Dibs's matcher. The matcher API is being rewritten on another
// branch; only this file changes with it (bench/quality.ts and the corpus stay as they are).
//
// Today:   parseTerm(text) → compileTerm(query); preparePost({title, content}); matchesPost(term, post)
// Rewrite: preparePost({title, content, author, flair, authorFlair}) from src/matching/prepare.ts and
//          matchesPost(term, post, category) — pass the post's fields and `category` through.
import type { Category } from '../../src/access/categories'
import { compileTerm, matchesPost, preparePost, type CompiledTerm, type PreparedPost } from '../../src/matching/compile'
import { parseTerm } from '../../src/matching/parse'
import type { QualityPost } from './types'

type Compiled = { ok: true; term: CompiledTerm } | { ok: false; error: string }
const terms = new Map<string, Compiled>()
const posts = new WeakMap<QualityPost, PreparedPost>()

/** Does Dibs match this saved term (text, as the user typed it) against this post of `category`?
 *  A term the parser refuses answers `{ refused: message }` (the bench counts it as matching nothing). */
export function dibsMatch(text: string, post: QualityPost, category: Category): boolean | { refused: string } {
  void category // today's matcher has no category argument; the rewrite's matchesPost takes it
  let c = terms.get(text)
  if (!c) {
    const r = parseTerm(text)
    c = r.ok ? { ok: true, term: compileTerm(r.query) } : { ok: false, error: r.error }
    terms.set(text, c)
  }
  if (!c.ok) return { refused: c.error }
  let p = posts.get(post)
  if (!p) {
    p = preparePost({ title: post.title, content: post.body })
    posts.set(post, p)
  }
  return matchesPost(c.term, p)
}
