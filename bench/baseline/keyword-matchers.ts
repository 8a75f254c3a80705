// Two reference matchers of other alert tools, for the quality benchmark (bench/quality.ts) to compare against:
//   substring  — F5Bot style: the whole term text, lowercased, occurs anywhere in the lowercased title + body;
//   whole-word — every word of the term (letters/digits runs, lowercased) is a whole word of the post.
// Neither knows operators, prices, categories or SOLD posts: they read the term text literally.

type Post = { title: string; body: string | null }

function text(p: Post): string {
  return (p.title + '\n' + (p.body ?? '')).toLowerCase()
}

function words(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

export function substringMatch(term: string, post: Post): boolean {
  const t = term.toLowerCase().trim()
  return t.length > 0 && text(post).includes(t)
}

export function wholeWordMatch(term: string, post: Post): boolean {
  const need = words(term)
  if (need.length === 0) return false
  const have = new Set(words(text(post)))
  return need.every((w) => have.has(w))
}
