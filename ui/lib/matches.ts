// Match-list rules (spec §2, §3, §4): 20 shown, +20 per step; matched-term label with the
// 'Term' fallback; live updates merged into a list.
import type { MatchChange, MatchItem } from '../../src/contract/events'

export const LIST_STEP = 20

type Core = 'id' | 'title' | 'url' | 'createdAt' | 'isNew' | 'category'
/**
 * A match as a list holds it: the contract's MatchItem with only what every list needs required,
 * and matchedTerms in any stored shape (string, array or {term}; see matchedTermList).
 */
export type Match = Pick<MatchItem, Core> & Partial<Omit<MatchItem, Core | 'matchedTerms'>> & { matchedTerms?: unknown }

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

/** Applies a match.updated event: read clears isNew, unread sets it, archived/removed take the match out. */
export function applyUpdate(list: Match[], ids: number[], change: MatchChange): Match[] {
  const set = new Set(ids)
  if (change === 'read') return list.map((m) => (set.has(m.id) && m.isNew ? { ...m, isNew: false } : m))
  if (change === 'unread') return list.map((m) => (set.has(m.id) && !m.isNew ? { ...m, isNew: true } : m))
  return list.filter((m) => !set.has(m.id))
}

export function newCount(list: Match[]): number {
  return list.filter((m) => m.isNew).length
}
