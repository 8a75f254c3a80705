// Saved search terms: list, add (with a 7-day backfill), remove, clear. Errors carry the spec's
// toast title beside the message ({error: {code, message, title}}).
//
// Adding, in order: the user may use the category (else 403) → the text is lowercased, trimmed and
// parses (else 'Invalid search term' + the parser's message; a `flair:` or `trades>=` term on an
// installation without a Reddit key is saved, its item carries `note`: why it cannot match here) → under the role's limit (else
// 'Maximum terms reached') → not a duplicate (else 'Term already exists') → insert + backfill in
// one transaction → the process's TermIndex learns the term → events.
// Removing a term removes its matches: match_terms rows cascade, a match left with no term goes,
// a match another term still holds keeps that term's text only.
import type { AccessState } from '../access/rules'
import { canUseCategory, termLimit } from '../access/rules'
import type { Category } from '../access/categories'
import type { Deps } from '../deps'
import { hasRedditKey, keyOnlyNote } from '../forums/key-only'
import { LIVE_WINDOW_MS, markUnparsed, recentPosts } from '../forums/store'
import { AppError } from '../lib/errors'
import type { WithMatcher } from '../matches/matcher'
import { announceMatches, recordMatches, type Hit } from '../matches/runner'
import { emitUnread } from '../matches/service'
import { deleteMatch, matchIdsOfTerm, setMatchedTerms, termIdsOfMatch } from '../matches/store'
import { matchesPost, type CompiledTerm } from '../matching/compile'
import { parseTerm, rewriteOperators } from '../matching/parse'
import { termSettingsOf } from '../notify/delivery'
import { deliveryItem } from './delivery'

export type TermRow = {
  id: number
  user_id: number
  category: string
  term: string
  created_at: number
  paused_at: number | null
  delivery: string | null
  muted_until: number | null
  always_notify: number
}

/** A term as the API answers it; `note` says why it cannot match on this installation (no Reddit key: `flair:`, `trades>=`), else null. */
export function termItem(r: TermRow, hasKey = true) {
  return {
    id: r.id,
    term: r.term,
    category: r.category as Category,
    createdAt: new Date(r.created_at).toISOString(),
    paused: r.paused_at !== null,
    note: keyOnlyNote(r.term, hasKey),
    ...deliveryItem(termSettingsOf(r)),
  }
}
export type TermItem = ReturnType<typeof termItem>

const termError = (status: number, code: string, title: string, message: string) => new AppError(status, code, message, { title })

export const TERM_TEXTS = {
  limit: (max: number) => ({ title: 'Maximum terms reached', message: `Your account is limited to ${max} search terms. Please upgrade for more.` }),
  duplicate: { title: 'Term already exists', message: 'This search term is already in your list' },
  invalidTitle: 'Invalid search term',
  forbidden: { title: 'Not in your plan', message: 'Your plan does not include this forum.' },
} as const

/** Capital OR/AND/NOT as Dibs forms (before lowercasing would make them words), lowercased, trimmed, inner whitespace collapsed: the stored and compared form. */
export function normalizeTermText(raw: string): string {
  return rewriteOperators(raw).trim().replace(/\s+/g, ' ').toLowerCase()
}

function assertCategory(deps: Pick<Deps, 'now'>, access: AccessState, category: Category) {
  if (!canUseCategory(access, category, deps.now())) {
    throw termError(403, 'FORUM_NOT_IN_PLAN', TERM_TEXTS.forbidden.title, TERM_TEXTS.forbidden.message)
  }
}

export function listTerms(deps: Pick<Deps, 'sqlite' | 'now' | 'config'>, userId: number, access: AccessState, category: Category) {
  assertCategory(deps, access, category)
  const rows = deps.sqlite
    .query<TermRow, [number, string]>('SELECT * FROM search_terms WHERE user_id = ? AND category = ? ORDER BY created_at, id')
    .all(userId, category)
  const hasKey = hasRedditKey(deps.config)
  return { terms: rows.map((r) => termItem(r, hasKey)), limit: termLimit(access.role) }
}

export function addTerm(
  deps: Deps & WithMatcher,
  userId: number,
  access: AccessState,
  category: Category,
  raw: string,
): { term: TermItem; backfilled: number } {
  assertCategory(deps, access, category)
  const text = normalizeTermText(raw)
  const parsed = parseTerm(text)
  if (!parsed.ok) throw termError(400, 'INVALID_TERM', TERM_TEXTS.invalidTitle, parsed.error)
  const compiled = deps.matcher.compile(parsed.query)
  const max = termLimit(access.role)
  const now = deps.now()

  const { row, result } = deps.sqlite.transaction(() => {
    const count = deps.sqlite
      .query<{ n: number }, [number, string]>('SELECT count(*) AS n FROM search_terms WHERE user_id = ? AND category = ?')
      .get(userId, category)!.n
    if (count >= max) {
      const t = TERM_TEXTS.limit(max)
      throw termError(403, 'TERM_LIMIT', t.title, t.message)
    }
    assertNotDuplicate(deps, userId, category, text)
    const row = deps.sqlite
      .query<TermRow, [number, string, string, number]>('INSERT INTO search_terms (user_id, category, term, created_at) VALUES (?, ?, ?, ?) RETURNING *')
      .get(userId, category, text, now.getTime())!
    return { row, result: backfill(deps, row, compiled) }
  })()

  deps.matcher.add({ id: row.id, userId, category, term: text, createdAt: new Date(row.created_at) })
  announceMatches(deps, result)
  return { term: termItem(row, hasRedditKey(deps.config)), backfilled: result.created.length }
}

function assertNotDuplicate(deps: Pick<Deps, 'sqlite'>, userId: number, category: string, text: string, exceptId = 0) {
  const dup = deps.sqlite
    .query('SELECT 1 FROM search_terms WHERE user_id = ? AND category = ? AND lower(term) = ? AND id != ?')
    .get(userId, category, text, exceptId)
  if (dup !== null) throw termError(409, 'TERM_EXISTS', TERM_TEXTS.duplicate.title, TERM_TEXTS.duplicate.message)
}

/** The last 7 days of stored posts a (new or edited) term matches, recorded as already read, never notified. */
export function backfill(deps: Pick<Deps, 'sqlite' | 'now' | 'config' | 'db'> & WithMatcher, row: TermRow, compiled: CompiledTerm) {
  const hits: Hit[] = []
  const since = new Date(deps.now().getTime() - LIVE_WINDOW_MS)
  for (const post of recentPosts(deps.sqlite, since, row.category as Category)) {
    let hit: boolean
    try {
      hit = matchesPost(compiled, deps.matcher.prepare(post), row.category as Category)
    } catch (err) {
      // a post that cannot be read never fails a term's save: it is marked unparsed and skipped
      markUnparsed(deps.sqlite, post.id, err instanceof Error ? err.message : String(err))
      continue
    }
    if (hit) hits.push({ userId: row.user_id, post, terms: [{ id: row.id, text: row.term, createdAt: row.created_at }] })
  }
  return recordMatches(deps, hits, 'backfill')
}

function ownTerm(deps: Pick<Deps, 'sqlite'>, userId: number, id: number): TermRow {
  const term = deps.sqlite.query<TermRow, [number, number]>('SELECT * FROM search_terms WHERE id = ? AND user_id = ?').get(id, userId)
  if (term === null) throw new AppError(404, 'TERM_NOT_FOUND', 'Search term not found.', { title: 'Error updating term' })
  return term
}

/**
 * Edits a term in place and/or pauses or resumes it (issue 12 item 11). Its matches stay: a paused
 * term is only left out of matching new posts; an edited term keeps the matches it found and
 * backfills the last 7 days for its new text (read, never notified), like a new term.
 */
export function updateTerm(
  deps: Deps & WithMatcher,
  userId: number,
  access: AccessState,
  id: number,
  input: { term?: string; paused?: boolean },
): { term: TermItem; backfilled: number } {
  const current = ownTerm(deps, userId, id)
  assertCategory(deps, access, current.category as Category)
  let text = current.term
  let compiled: CompiledTerm | null = null
  if (input.term !== undefined) {
    text = normalizeTermText(input.term)
    const parsed = parseTerm(text)
    if (!parsed.ok) throw termError(400, 'INVALID_TERM', TERM_TEXTS.invalidTitle, parsed.error)
    compiled = deps.matcher.compile(parsed.query)
  }
  const pausedAt = input.paused === undefined ? current.paused_at : input.paused ? (current.paused_at ?? deps.now().getTime()) : null
  const { row, result } = deps.sqlite.transaction(() => {
    if (text !== current.term) assertNotDuplicate(deps, userId, current.category, text, id)
    const row = deps.sqlite
      .query<TermRow, [string, number | null, number, number]>('UPDATE search_terms SET term = ?, paused_at = ? WHERE id = ? AND user_id = ? RETURNING *')
      .get(text, pausedAt, id, userId)!
    const result = compiled !== null && text !== current.term && row.paused_at === null ? backfill(deps, row, compiled) : null
    return { row, result }
  })()
  // The process's index: a paused term leaves it, an edited or resumed one (re-)enters it.
  deps.matcher.remove(id)
  if (row.paused_at === null) deps.matcher.add({ id, userId, category: row.category as Category, term: row.term, createdAt: new Date(row.created_at) })
  if (result !== null) announceMatches(deps, result)
  return { term: termItem(row, hasRedditKey(deps.config)), backfilled: result?.created.length ?? 0 }
}

/** Deletes terms (already checked to be the user's) and their matches; returns removed match ids. */
function deleteTerms(deps: Pick<Deps, 'sqlite'>, terms: TermRow[]): number[] {
  const removed: number[] = []
  const textOf = deps.sqlite.query<{ term: string }, [number]>('SELECT term FROM search_terms WHERE id = ?')
  deps.sqlite.transaction(() => {
    for (const term of terms) {
      const ids = matchIdsOfTerm(deps.sqlite, term.id)
      deps.sqlite.query('DELETE FROM search_terms WHERE id = ?').run(term.id) // match_terms cascade
      for (const id of ids) {
        // the texts of the terms still linked to the match (src/matches/store.ts owns the links)
        const left = termIdsOfMatch(deps.sqlite, id).flatMap((t) => textOf.all(t).map((r) => r.term))
        if (left.length === 0) {
          deleteMatch(deps.sqlite, id)
          removed.push(id)
        } else setMatchedTerms(deps.sqlite, id, [...new Set(left)])
      }
    }
  })()
  return removed
}

function afterRemoval(deps: Deps & WithMatcher, userId: number, terms: TermRow[], removed: number[]) {
  for (const t of terms) deps.matcher.remove(t.id)
  if (removed.length > 0) deps.bus.emit('match.updated', { userId, ids: removed, change: 'removed' })
  emitUnread(deps, userId)
}

export function removeTerm(deps: Deps & WithMatcher, userId: number, id: number): { id: number; matchesRemoved: number } {
  const term = deps.sqlite.query<TermRow, [number, number]>('SELECT * FROM search_terms WHERE id = ? AND user_id = ?').get(id, userId)
  if (term === null) throw new AppError(404, 'TERM_NOT_FOUND', 'Search term not found.', { title: 'Error removing term' })
  const removed = deleteTerms(deps, [term])
  afterRemoval(deps, userId, [term], removed)
  return { id, matchesRemoved: removed.length }
}

export function clearTerms(deps: Deps & WithMatcher, userId: number, category: Category): { count: number; matchesRemoved: number } {
  const terms = deps.sqlite.query<TermRow, [number, string]>('SELECT * FROM search_terms WHERE user_id = ? AND category = ?').all(userId, category)
  const removed = deleteTerms(deps, terms)
  afterRemoval(deps, userId, terms, removed)
  return { count: terms.length, matchesRemoved: removed.length }
}
