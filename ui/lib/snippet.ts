// Post-card snippet (spec §2): the title is removed from the content when repeated there, and
// text over 100 characters is cut to 97 plus '...'.
export const SNIPPET_MAX = 100
export const SNIPPET_CUT = 97

export function truncate(text: string, max = SNIPPET_MAX, cut = SNIPPET_CUT): string {
  return text.length > max ? text.slice(0, cut) + '...' : text
}

/** The snippet to show under a title, or null when nothing is left. */
export function snippet(content: string | null | undefined, title: string | null | undefined): string | null {
  if (!content) return null
  let text = content
  const t = (title ?? '').trim()
  if (t) {
    const i = text.toLowerCase().indexOf(t.toLowerCase())
    if (i !== -1) text = text.slice(0, i) + text.slice(i + t.length)
  }
  text = text.replace(/\s+/g, ' ').trim()
  return text ? truncate(text) : null
}
