// The match list's keyboard and filter rules (issue 30 §5, after Miniflux and Gmail): j / k next and
// previous, o open the post, m mark read / unread, e archive, ? show the keys. Keys never fire
// while the user types (an input, a textarea, a select, editable text), with a modifier held, or
// while a dialog is open.
import { matchedTermList, type Match } from './matches'

export type MatchKeyAction = 'next' | 'prev' | 'open' | 'toggleRead' | 'archive' | 'help'

const KEYS: ReadonlyMap<string, MatchKeyAction> = new Map([
  ['j', 'next'],
  ['k', 'prev'],
  ['o', 'open'],
  ['m', 'toggleRead'],
  ['e', 'archive'],
  ['?', 'help'],
])

/** The keys as the hint lists them. */
export const KEY_HELP: readonly [string, string][] = [
  ['j', 'next match'],
  ['k', 'previous match'],
  ['o', 'open the post'],
  ['m', 'mark read / unread'],
  ['e', 'archive'],
  ['?', 'show or hide these keys'],
]

type KeyInfo = { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }
type TargetInfo = { tagName?: string; isContentEditable?: boolean } | null

/** What a key press does on the list, or null when it is not one of its keys or the user is typing. */
export function matchKeyAction(e: KeyInfo, target: TargetInfo, dialogOpen: boolean): MatchKeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey || dialogOpen) return null
  const tag = target?.tagName?.toUpperCase()
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target?.isContentEditable) return null
  return KEYS.get(e.key) ?? null
}

/** The instant filter: every word of the query in the title, a matched term or the author (any case). */
export function filterMatches<M extends Match>(list: M[], query: string): M[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return list
  return list.filter((m) => {
    const text = [m.title, m.author ?? '', ...matchedTermList(m.matchedTerms)].join(' ').toLowerCase()
    return words.every((w) => text.includes(w))
  })
}

export type Density = 'comfortable' | 'compact'

/** Where this browser remembers the density, per signed-in user. */
export const densityKey = (userId: number | undefined) => `match-density:${userId ?? 'anon'}`
