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
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { searchTerms, type SearchTerm } from '../db/schema'
import type { Deps } from '../deps'
import { hasRedditKey, keyOnlyNote } from '../forums/key-only'
import { authorsAbout } from '../forums/authors'
import { LIVE_WINDOW_MS, markUnparsed, recentPosts } from '../forums/store'
import { AppError } from '../lib/errors'
import type { WithMatcher } from '../matches/matcher'
import { announceMatches, recordMatches, type Hit, type RecordResult } from '../matches/runner'
import { emitUnread } from '../matches/service'
import { deleteMatch, matchIdsOfTerm, setMatchedTerms, termIdsOfMatches } from '../matches/term-links'
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

/** A stored term in the raw shape the items are made from (times in ms, `delivery` JSON text, `always_notify` 0/1). */
export function termRow(t: SearchTerm): TermRow {
  return {
    id: t.id,
    user_id: t.userId,
    category: t.category,
    term: t.term,
    created_at: t.createdAt.getTime(),
    paused_at: t.pausedAt?.getTime() ?? null,
    delivery: t.delivery === null ? null : JSON.stringify(t.delivery),
    muted_until: t.mutedUntil?.getTime() ?? null,
    always_notify: t.alwaysNotify ? 1 : 0,
  }
}

export async function listTerms(deps: OwnerDb & Pick<Deps, 'now' | 'config'>, userId: number, access: AccessState, category: Category) {
  assertCategory(deps, access, category)
  const db = asAsync(deps.db)
  const rows = (
    await db
      .select()
      .from(searchTerms)
      .where(and(eq(searchTerms.userId, userId), eq(searchTerms.category, category)))
      .orderBy(asc(searchTerms.createdAt), asc(searchTerms.id))
  ).map(termRow)
  const hasKey = hasRedditKey(deps.config)
  return { terms: rows.map((r) => termItem(r, hasKey)), limit: termLimit(access.role) }
}

export async function addTerm(
  deps: Deps & WithMatcher,
  userId: number,
  access: AccessState,
  category: Category,
  raw: string,
): Promise<{ term: TermItem; backfilled: number }> {
  assertCategory(deps, access, category)
  const text = normalizeTermText(raw)
  const parsed = parseTerm(text)
  if (!parsed.ok) throw termError(400, 'INVALID_TERM', TERM_TEXTS.invalidTitle, parsed.error)
  const compiled = deps.matcher.compile(parsed.query)
  const max = termLimit(access.role)
  const now = deps.now()

  // The count, the duplicate check and the insert in one transaction: two saves at once cannot pass the limit (A2).
  const { row, result } = await asAsync(deps.db).transaction(async (tx) => {
    const n =
      (
        await tx
          .select({ n: count() })
          .from(searchTerms)
          .where(and(eq(searchTerms.userId, userId), eq(searchTerms.category, category)))
      )[0]?.n ?? 0
    if (n >= max) {
      const t = TERM_TEXTS.limit(max)
      throw termError(403, 'TERM_LIMIT', t.title, t.message)
    }
    await assertNotDuplicate({ db: tx }, userId, category, text)
    const row = termRow((await tx.insert(searchTerms).values({ userId, category, term: text, createdAt: now }).returning())[0]!)
    return { row, result: await backfill({ ...deps, db: tx }, row, compiled) }
  })

  deps.matcher.add({ id: row.id, userId, category, term: text, createdAt: new Date(row.created_at) })
  await announceMatches(deps, result)
  return { term: termItem(row, hasRedditKey(deps.config)), backfilled: result.created.length }
}

async function assertNotDuplicate(deps: OwnerDb, userId: number, category: string, text: string, exceptId = 0) {
  const dup = await asAsync(deps.db)
    .select({ id: searchTerms.id })
    .from(searchTerms)
    .where(and(eq(searchTerms.userId, userId), eq(searchTerms.category, category), eq(sql`lower(${searchTerms.term})`, text), ne(searchTerms.id, exceptId)))
    .limit(1)
  if (dup.length > 0) throw termError(409, 'TERM_EXISTS', TERM_TEXTS.duplicate.title, TERM_TEXTS.duplicate.message)
}

/** The last 7 days of stored posts a (new or edited) term matches, recorded as already read, never notified. */
export async function backfill(
  deps: Pick<Deps, 'sqlite' | 'now' | 'config' | 'db'> & WithMatcher,
  row: TermRow,
  compiled: CompiledTerm,
): Promise<RecordResult> {
  const hits: Hit[] = []
  const since = new Date(deps.now().getTime() - LIVE_WINDOW_MS)
  const posts = await recentPosts(deps, since, row.category as Category)
  const abouts = await authorsAbout(
    deps,
    posts.map((p) => p.author),
  )
  for (const post of posts) {
    let hit: boolean
    try {
      hit = matchesPost(compiled, deps.matcher.prepare(post, abouts.get(post.author.toLowerCase()) ?? null), row.category as Category)
    } catch (err) {
      // a post that cannot be read never fails a term's save: it is marked unparsed and skipped
      await markUnparsed(deps, post.id, err instanceof Error ? err.message : String(err))
      continue
    }
    if (hit) hits.push({ userId: row.user_id, post, terms: [{ id: row.id, text: row.term, createdAt: row.created_at }] })
  }
  return recordMatches(deps, hits, 'backfill')
}

async function ownTerm(deps: OwnerDb, userId: number, id: number, title: string): Promise<TermRow> {
  const term = (
    await asAsync(deps.db)
      .select()
      .from(searchTerms)
      .where(and(eq(searchTerms.id, id), eq(searchTerms.userId, userId)))
      .limit(1)
  )[0]
  if (term === undefined) throw new AppError(404, 'TERM_NOT_FOUND', 'Search term not found.', { title })
  return termRow(term)
}

/**
 * Edits a term in place and/or pauses or resumes it (issue 12 item 11). Its matches stay: a paused
 * term is only left out of matching new posts; an edited term keeps the matches it found and
 * backfills the last 7 days for its new text (read, never notified), like a new term.
 */
export async function updateTerm(
  deps: Deps & WithMatcher,
  userId: number,
  access: AccessState,
  id: number,
  input: { term?: string; paused?: boolean },
): Promise<{ term: TermItem; backfilled: number }> {
  // The row is read, checked and written in one transaction (C3): two edits at once do not undo each other.
  const { row, result } = await asAsync(deps.db).transaction(async (tx) => {
    const current = await ownTerm({ db: tx }, userId, id, 'Error updating term')
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
    if (text !== current.term) await assertNotDuplicate({ db: tx }, userId, current.category, text, id)
    const row = termRow(
      (
        await tx
          .update(searchTerms)
          .set({ term: text, pausedAt: pausedAt === null ? null : new Date(pausedAt) })
          .where(and(eq(searchTerms.id, id), eq(searchTerms.userId, userId)))
          .returning()
      )[0]!,
    )
    const result = compiled !== null && text !== current.term && row.paused_at === null ? await backfill({ ...deps, db: tx }, row, compiled) : null
    return { row, result }
  })
  // The process's index: a paused term leaves it, an edited or resumed one (re-)enters it.
  deps.matcher.remove(id)
  if (row.paused_at === null) deps.matcher.add({ id, userId, category: row.category as Category, term: row.term, createdAt: new Date(row.created_at) })
  if (result !== null) await announceMatches(deps, result)
  return { term: termItem(row, hasRedditKey(deps.config)), backfilled: result?.created.length ?? 0 }
}

/** Deletes terms (already checked to be the user's) and their matches; returns removed match ids. */
async function deleteTerms(deps: OwnerDb, terms: TermRow[]): Promise<number[]> {
  const removed: number[] = []
  await asAsync(deps.db).transaction(async (tx) => {
    const db = { db: tx }
    for (const term of terms) {
      const ids = await matchIdsOfTerm(db, term.id)
      await tx.delete(searchTerms).where(eq(searchTerms.id, term.id)) // match_terms cascade
      // the texts of the terms still linked to each match (src/matches/term-links.ts: the matches folder owns the links)
      const linked = await termIdsOfMatches(db, ids)
      const termIds = [...new Set([...linked.values()].flat())]
      const textOf = new Map(
        termIds.length === 0
          ? []
          : (await tx.select({ id: searchTerms.id, term: searchTerms.term }).from(searchTerms).where(inArray(searchTerms.id, termIds))).map((r) => [
              r.id,
              r.term,
            ]),
      )
      for (const id of ids) {
        const left = linked.get(id)!.flatMap((t) => textOf.get(t) ?? [])
        if (left.length === 0) {
          await deleteMatch(db, id)
          removed.push(id)
        } else await setMatchedTerms(db, id, [...new Set(left)])
      }
    }
  })
  return removed
}

async function afterRemoval(deps: Deps & WithMatcher, userId: number, terms: TermRow[], removed: number[]): Promise<void> {
  for (const t of terms) deps.matcher.remove(t.id)
  if (removed.length > 0) deps.bus.emit('match.updated', { userId, ids: removed, change: 'removed' })
  await emitUnread(deps, userId)
}

export async function removeTerm(deps: Deps & WithMatcher, userId: number, id: number): Promise<{ id: number; matchesRemoved: number }> {
  const term = await ownTerm(deps, userId, id, 'Error removing term')
  const removed = await deleteTerms(deps, [term])
  await afterRemoval(deps, userId, [term], removed)
  return { id, matchesRemoved: removed.length }
}

export async function clearTerms(deps: Deps & WithMatcher, userId: number, category: Category): Promise<{ count: number; matchesRemoved: number }> {
  const terms = (
    await asAsync(deps.db)
      .select()
      .from(searchTerms)
      .where(and(eq(searchTerms.userId, userId), eq(searchTerms.category, category)))
  ).map(termRow)
  const removed = await deleteTerms(deps, terms)
  await afterRemoval(deps, userId, terms, removed)
  return { count: terms.length, matchesRemoved: removed.length }
}
