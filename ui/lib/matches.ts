// Match-list rules (spec §2, §3, §4): 20 shown, +20 per step; matched-term label with the
// 'Term' fallback; live updates merged into a list.
export const LIST_STEP = 20

export type Match = {
  id: number
  title: string
  url: string
  linkUrl?: string | null
  author?: string | null
  createdAt: string
  postCreatedAt?: string | null
  matchedTerms?: unknown
  isNew: boolean
  category: 'wts' | 'wtb' | 'gd'
  source?: string | null
  archivedAt?: string | null
}

/** Matched term(s) as stored: array, string, or {term}. Unreadable → 'Term'. */
export function matchedTermList(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(matchedTermList)
  if (typeof value === 'string') {
    const t = value.trim()
    if (t.startsWith('[') || t.startsWith('{') || t.startsWith('"')) {
      try {
        return matchedTermList(JSON.parse(t))
      } catch {}
    }
    return t ? [t] : []
  }
  if (value && typeof value === 'object' && 'term' in value) return matchedTermList((value as { term: unknown }).term)
  return []
}

export function matchedTermLabel(value: unknown): string {
  const list = matchedTermList(value)
  return list.length ? list.join(', ') : 'Term'
}

/** A new live match goes on top once; newest first. */
export function addMatch(list: Match[], m: Match): Match[] {
  if (list.some((x) => x.id === m.id)) return list
  return [m, ...list]
}

/** Applies a match.updated event: read clears isNew, archived/removed take the match out. */
export function applyUpdate(list: Match[], ids: number[], change: 'read' | 'archived' | 'removed'): Match[] {
  const set = new Set(ids)
  if (change === 'read') return list.map((m) => (set.has(m.id) && m.isNew ? { ...m, isNew: false } : m))
  return list.filter((m) => !set.has(m.id))
}

export function newCount(list: Match[]): number {
  return list.filter((m) => m.isNew).length
}
