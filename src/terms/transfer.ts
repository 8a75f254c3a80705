// Terms import and export (issue 28 §3). Export lists every term of the user in every category.
// Import judges each row of the file (./transfer-format.ts reads it), in order:
//   1. the category is wts, wtb or gd                  else refused UNKNOWN_CATEGORY
//   2. the user's plan includes its forum               else refused FORUM_NOT_IN_PLAN
//   3. the term parses (as saving one: lowercased, …)   else refused INVALID_TERM with the parser's message
//   4. its options are ones the terms API stores        else refused INVALID_OPTION naming the option
//   5. not already saved, nor earlier in the file       else duplicate
//   6. under the plan's per-category limit, counting the terms saved and those added before it
//                                                       else refused TERM_LIMIT
// A dry run answers that plan and stores nothing; the same request without dryRun judges again inside
// one transaction and stores exactly the rows it marks 'add' (with their backfill of the last 7 days,
// read and never notified, as saving one by one), so nothing is half-imported.
import type { AccessState } from '../access/rules'
import { canUseCategory, termLimit } from '../access/rules'
import { CATEGORIES, isCategory, type Category } from '../access/categories'
import { asc, eq } from 'drizzle-orm'
import type { AsyncDb, OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { searchTerms } from '../db/schema'
import type { Deps } from '../deps'
import { hasRedditKey } from '../forums/key-only'
import type { WithMatcher } from '../matches/matcher'
import { announceMatches, type RecordResult } from '../matches/runner'
import { emitUnread } from '../matches/service'
import { parseTerm } from '../matching/parse'
import { DEFAULT_DELIVERY, MUTED_FOREVER, TERM_EMAIL, type TermDelivery, type TermEmail } from '../notify/delivery'
import { userEndpoints } from '../notify/endpoints'
import { backfill, normalizeTermText, TERM_TEXTS, termItem, termRow, type TermRow } from './service'
import { exportedTerm, readImport, type ExportedTerm, type ImportFormat, type RawRow } from './transfer-format'

const MAX_TERM_LENGTH = 1000

/** Every term of the user, category by category (wts, wtb, gd), oldest first. */
export async function exportTerms(deps: OwnerDb & Pick<Deps, 'config'>, userId: number): Promise<ExportedTerm[]> {
  const db = asAsync(deps.db)
  const rows = (await db.select().from(searchTerms).where(eq(searchTerms.userId, userId)).orderBy(asc(searchTerms.createdAt), asc(searchTerms.id))).map(termRow)
  const hasKey = hasRedditKey(deps.config)
  const rank = (c: string) => CATEGORIES.indexOf(c as Category)
  return rows
    .filter((r) => isCategory(r.category))
    .sort((a, b) => rank(a.category) - rank(b.category))
    .map((r) => exportedTerm(termItem(r, hasKey)))
}

export type ImportStatus = 'add' | 'duplicate' | 'refused'
export type ImportRow = {
  line: number
  category: string
  term: string
  status: ImportStatus
  /** refused: why (the term parser's message for INVALID_TERM); duplicate: what it repeats; add: null */
  reason: string | null
  code: 'UNKNOWN_CATEGORY' | 'FORUM_NOT_IN_PLAN' | 'INVALID_TERM' | 'INVALID_OPTION' | 'TERM_LIMIT' | 'TERM_EXISTS' | 'REPEATED' | null
  /** something left out while adding (channel settings for channels this account does not have) */
  note: string | null
}
export type ImportResult = {
  dryRun: boolean
  format: ImportFormat
  rows: ImportRow[]
  summary: Record<ImportStatus, number>
}

/** The stored values of a row's options. */
type Stored = { pausedAt: number | null; delivery: TermDelivery | null; mutedUntil: number | null; alwaysNotify: boolean }
/** What a row adds, once judged fit. */
type Addition = Stored & { category: Category; text: string }

const LABEL: Record<Category, string> = { wts: 'WTS', wtb: 'WTB', gd: 'deals' }

function bool(v: unknown, name: string): boolean | undefined | string {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'boolean') return v
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase()
    if (['true', '1', 'yes'].includes(s)) return true
    if (['false', '0', 'no'].includes(s)) return false
  }
  return `${name}: expected true or false`
}

/** The options of a row as stored values, or the message naming the bad one. */
function options(raw: RawRow, ownChannels: Set<string>, now: Date): { ok: true; stored: Stored; note: string | null } | { ok: false; error: string } {
  const paused = bool(raw.paused, 'paused')
  const push = bool(raw.push, 'push')
  const always = bool(raw.alwaysNotify, 'alwaysNotify')
  for (const v of [paused, push, always]) if (typeof v === 'string') return { ok: false, error: v }
  if (raw.email !== undefined && raw.email !== null && !(TERM_EMAIL as readonly unknown[]).includes(raw.email))
    return { ok: false, error: `email: expected one of ${TERM_EMAIL.join(', ')}` }
  const endpoints: Record<string, boolean> = {}
  let dropped = false
  if (raw.endpoints !== undefined && raw.endpoints !== null) {
    if (typeof raw.endpoints !== 'object' || Array.isArray(raw.endpoints))
      return { ok: false, error: 'endpoints: expected an object of channel id → true/false' }
    for (const [id, on] of Object.entries(raw.endpoints)) {
      if (typeof on !== 'boolean') return { ok: false, error: `endpoints: channel ${id} must be true or false` }
      if (ownChannels.has(id)) endpoints[id] = on
      else dropped = true
    }
  }
  let mutedUntil: number | null = null
  if (raw.mutedUntil !== undefined && raw.mutedUntil !== null && raw.mutedUntil !== '') {
    const at = raw.mutedUntil === 'forever' ? MUTED_FOREVER : typeof raw.mutedUntil === 'string' ? Date.parse(raw.mutedUntil) : Number.NaN
    if (!Number.isFinite(at)) return { ok: false, error: 'mutedUntil: expected "forever", an ISO time, or nothing' }
    mutedUntil = at > now.getTime() ? at : null // a mute that has run out is no mute
  }
  const delivery: TermDelivery = {
    email: (raw.email as TermEmail | undefined) ?? DEFAULT_DELIVERY.email,
    push: (push as boolean | undefined) ?? DEFAULT_DELIVERY.push,
    endpoints,
  }
  const isDefault = delivery.email === DEFAULT_DELIVERY.email && delivery.push === DEFAULT_DELIVERY.push && Object.keys(endpoints).length === 0
  return {
    ok: true,
    stored: { pausedAt: paused === true ? now.getTime() : null, delivery: isDefault ? null : delivery, mutedUntil, alwaysNotify: always === true },
    note: dropped ? 'Channel settings for channels this account does not have were left out.' : null,
  }
}

/** Judges every row against the account as it is now (see the order at the top). */
async function plan(
  deps: Pick<Deps, 'sqlite' | 'db' | 'now'>,
  tx: AsyncDb,
  userId: number,
  access: AccessState,
  raws: RawRow[],
  ownChannels: Set<string>,
): Promise<{ rows: ImportRow[]; additions: Addition[] }> {
  const now = deps.now()
  const saved = await tx.select({ category: searchTerms.category, term: searchTerms.term }).from(searchTerms).where(eq(searchTerms.userId, userId))
  const existing = new Set(saved.map((s) => `${s.category}\n${s.term.toLowerCase()}`))
  const counts = new Map<string, number>()
  for (const s of saved) counts.set(s.category, (counts.get(s.category) ?? 0) + 1)
  const seen = new Map<string, number>() // category + text → the line that adds it
  const max = termLimit(access.role)
  const rows: ImportRow[] = []
  const additions: Addition[] = []
  for (const raw of raws) {
    const rawTerm = typeof raw.term === 'string' ? raw.term : raw.term === undefined || raw.term === null ? '' : String(raw.term)
    const category = typeof raw.category === 'string' ? raw.category.trim().toLowerCase() : String(raw.category ?? '')
    const row: ImportRow = { line: raw.line, category, term: rawTerm.trim(), status: 'refused', reason: null, code: null, note: null }
    rows.push(row)
    const refuse = (code: NonNullable<ImportRow['code']>, reason: string) => Object.assign(row, { status: 'refused', code, reason })
    if (!isCategory(category)) {
      refuse('UNKNOWN_CATEGORY', `Unknown category "${category}": use wts, wtb or gd.`)
      continue
    }
    if (!canUseCategory(access, category, now)) {
      refuse('FORUM_NOT_IN_PLAN', TERM_TEXTS.forbidden.message)
      continue
    }
    if (rawTerm.length > MAX_TERM_LENGTH) {
      refuse('INVALID_TERM', `${TERM_TEXTS.invalidTitle}: a term is at most ${MAX_TERM_LENGTH} characters.`)
      continue
    }
    const text = normalizeTermText(rawTerm)
    const parsed = parseTerm(text)
    if (!parsed.ok) {
      refuse('INVALID_TERM', `${TERM_TEXTS.invalidTitle}: ${parsed.error}`) // shown as the file wrote it
      continue
    }
    row.term = text
    const opts = options(raw, ownChannels, now)
    if (!opts.ok) {
      refuse('INVALID_OPTION', `Invalid option — ${opts.error}.`)
      continue
    }
    const key = `${category}\n${text}`
    if (existing.has(key)) {
      Object.assign(row, { status: 'duplicate', code: 'TERM_EXISTS', reason: `Already in your ${LABEL[category]} terms.` })
      continue
    }
    const earlier = seen.get(key)
    if (earlier !== undefined) {
      Object.assign(row, { status: 'duplicate', code: 'REPEATED', reason: `Repeats line ${earlier} of this file.` })
      continue
    }
    const count = counts.get(category) ?? 0
    if (count >= max) {
      refuse('TERM_LIMIT', `${TERM_TEXTS.limit(max).title}: your plan allows ${max} ${LABEL[category]} terms.`)
      continue
    }
    counts.set(category, count + 1)
    seen.set(key, raw.line)
    Object.assign(row, { status: 'add', note: opts.note })
    additions.push({ category, text, ...opts.stored })
  }
  return { rows, additions }
}

function summary(rows: ImportRow[]): Record<ImportStatus, number> {
  const s: Record<ImportStatus, number> = { add: 0, duplicate: 0, refused: 0 }
  for (const r of rows) s[r.status]++
  return s
}

/** POST /api/terms/import: the plan (dryRun), or the plan applied in one transaction (the limits hold against a save at the same time: A3). */
export async function importTerms(
  deps: Deps & WithMatcher,
  userId: number,
  access: AccessState,
  input: { format: ImportFormat; body: string; dryRun: boolean },
): Promise<ImportResult> {
  const raws = readImport(input.format, input.body)
  // the account's channels (src/notify), read before the transaction
  const ownChannels = new Set((await userEndpoints(deps, userId)).map((e) => String(e.id)))
  if (input.dryRun) {
    const { rows } = await plan(deps, asAsync(deps.db), userId, access, raws, ownChannels)
    return { dryRun: true, format: input.format, rows, summary: summary(rows) }
  }
  const { rows, stored, results } = await asAsync(deps.db).transaction(async (tx) => {
    const { rows, additions } = await plan(deps, tx, userId, access, raws, ownChannels)
    const at = deps.now()
    const stored: TermRow[] = []
    const results: RecordResult[] = []
    for (const a of additions) {
      const row = termRow(
        (
          await tx
            .insert(searchTerms)
            .values({
              userId,
              category: a.category,
              term: a.text,
              createdAt: at,
              pausedAt: a.pausedAt === null ? null : new Date(a.pausedAt),
              delivery: a.delivery,
              mutedUntil: a.mutedUntil === null ? null : new Date(a.mutedUntil),
              alwaysNotify: a.alwaysNotify,
            })
            .returning()
        )[0]!,
      )
      stored.push(row)
      const parsed = parseTerm(a.text)
      if (row.paused_at === null && parsed.ok) results.push(await backfill({ ...deps, db: tx }, row, deps.matcher.compile(parsed.query)))
    }
    return { rows, stored, results }
  })
  for (const row of stored)
    if (row.paused_at === null)
      deps.matcher.add({ id: row.id, userId, category: row.category as Category, term: row.term, createdAt: new Date(row.created_at) })
  for (const r of results) await announceMatches(deps, r)
  if (stored.length > 0) await emitUnread(deps, userId)
  return { dryRun: false, format: input.format, rows, summary: summary(rows) }
}
