// What needs a Reddit API key, said where it matters (issue 24 §6). Without a key Dibs reads Reddit's Atom
// feed (or the closed logged-out JSON): no post flair, no author flair, no /api/info re-check. Features that
// depend on them degrade visibly, never silently:
//   - a term with `flair:` / `-flair:` or `trades>=N` is saved (it works as soon as a key is set) with a note
//     saying why it cannot match on this installation — on the term list, in the dialog, in "Why didn't I get
//     an alert?";
//   - the 'Wait before email and push' setting says that sold/removed re-checks come only from later polls
//     of the feed.
// With a key (REDDIT_CLIENT_ID/SECRET) nothing changes: no notes.
import type { Config } from '../config'
import type { Query } from '../matching/parse'
import { parseTerm } from '../matching/parse'

/** Is a Reddit API key configured (OAuth: flairs, author flair, /api/info)? */
export function hasRedditKey(config: Pick<Config, 'reddit'>): boolean {
  return config.reddit.clientId !== null
}

export const KEY_ONLY_TEXTS = {
  flair:
    'flair: cannot match on this installation: Dibs reads Reddit without an API key (the Atom feed), which carries no post flair. The term is saved and works once the operator adds a Reddit key.',
  notFlair:
    '-flair: excludes nothing on this installation: Dibs reads Reddit without an API key (the Atom feed), which carries no post flair. The term is saved; the exclusion works once the operator adds a Reddit key.',
  trades:
    'trades>= cannot match on this installation: the confirmed-trades count comes from the author flair, which Dibs does not see without a Reddit API key (the Atom feed). The term is saved and works once the operator adds a Reddit key.',
  hold: 'This installation reads Reddit without an API key: a post is checked again only when a later poll of the feed still lists it (a title edited to [SOLD] while it is among the newest posts). Removed posts and older ones are not re-checked, so waiting may not catch them.',
} as const

/** The note for a parsed term on an installation with or without a key: null when the term works here. */
export function keyOnlyNoteOf(query: Query, hasKey: boolean): string | null {
  if (hasKey) return null
  const alts = query.alternatives
  const notes: string[] = []
  if (alts.some((a) => a.flair && a.flair.length > 0)) notes.push(KEY_ONLY_TEXTS.flair)
  if (alts.some((a) => a.notFlair && a.notFlair.length > 0)) notes.push(KEY_ONLY_TEXTS.notFlair)
  if (alts.some((a) => a.trades && a.trades.length > 0)) notes.push(KEY_ONLY_TEXTS.trades)
  return notes.length > 0 ? notes.join(' ') : null
}

/** The note for a saved term's text (null for a term that works here or cannot be read). */
export function keyOnlyNote(text: string, hasKey: boolean): string | null {
  if (hasKey) return null
  const parsed = parseTerm(text)
  return parsed.ok ? keyOnlyNoteOf(parsed.query, hasKey) : null
}
