// Types of the matching-quality corpus (tests/quality/README.md explains the labelling rules).
import type { Category } from '../../src/access/categories'

/** What a term tests, for per-kind reporting. */
export type TermKind = 'model' | 'brand-model' | 'category' | 'price' | 'alias' | 'exclusion' | 'field' | 'per-unit' | 'syntax'
export const TERM_KINDS: readonly TermKind[] = ['model', 'brand-model', 'category', 'price', 'alias', 'exclusion', 'field', 'per-unit', 'syntax']

export type QualityTerm = { id: string; category: Category; text: string; kind: TermKind }

export type QualityPost = {
  id: string
  category: Category
  title: string
  body: string | null
  /** the post's link flair ('WTS', 'SOLD', …) */
  flair: string | null
  author: string | null
  /** the author's user flair ('Trades: 12') */
  authorFlair: string | null
  /** ids of the terms (of this post's category) whose user wants this post; every other term of the category is an expected non-match */
  want: string[]
}
