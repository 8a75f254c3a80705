// The one place the quality benchmark calls Dibs's matcher: parseTerm(text) → compileTerm(query) once per
// text; preparePost({title, content, author, flair, authorFlair}) once per post; matchesPost(term, post, category).
import type { Category } from '../../src/access/categories'
import { compileTerm, matchesPost, type CompiledTerm } from '../../src/matching/compile'
import type { PreparedPost } from '../../src/matching/post-model'
import { preparePost } from '../../src/matching/prepare'
import { parseTerm } from '../../src/matching/parse'
import type { QualityPost } from './types'

type Compiled = { ok: true; term: CompiledTerm } | { ok: false; error: string }
const terms = new Map<string, Compiled>()
const posts = new WeakMap<QualityPost, PreparedPost>()

/** Does Dibs match this saved term (text, as the user typed it) against this post of `category`?
 *  A term the parser refuses answers `{ refused: message }` (the bench counts it as matching nothing). */
export function dibsMatch(text: string, post: QualityPost, category: Category): boolean | { refused: string } {
  let c = terms.get(text)
  if (!c) {
    const r = parseTerm(text)
    c = r.ok ? { ok: true, term: compileTerm(r.query) } : { ok: false, error: r.error }
    terms.set(text, c)
  }
  if (!c.ok) return { refused: c.error }
  let p = posts.get(post)
  if (!p) {
    p = preparePost({ title: post.title, content: post.body, author: post.author, flair: post.flair, authorFlair: post.authorFlair })
    posts.set(post, p)
  }
  return matchesPost(c.term, p, category)
}
