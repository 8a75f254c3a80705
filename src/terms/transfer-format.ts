// The file formats of terms import and export (issue 28 §3). Export writes every term with its
// category and the options the terms API stores (paused, email/push/channel delivery, mute, always
// notify); import reads the same JSON or CSV back into raw rows, each with the line it came from, and
// leaves judging them to ./transfer.ts. A file that cannot be read as a whole (bad JSON, bad CSV
// quoting, no category/term column, too many rows) throws 400 BAD_IMPORT naming the problem. Pure.
//
// JSON: {format: "dibs-terms", version: 1, exportedAt, terms: [{category, term, paused, delivery:
// {email, push, endpoints}, mutedUntil, alwaysNotify, createdAt}]}; a bare array of terms is read too.
// CSV (RFC 4180, header row): category,term,paused,email,push,channels_off,muted_until,always_notify,created_at
// (channels_off: the ids of the account's external channels the term does not alert on, space-separated).
import { badRequest } from '../lib/errors'
import { CsvError, formatCsv, parseCsv } from '../lib/csv'
import type { TermItem } from './service'

export const MAX_IMPORT_ROWS = 500
export const CSV_COLUMNS = ['category', 'term', 'paused', 'email', 'push', 'channels_off', 'muted_until', 'always_notify', 'created_at'] as const

export type ImportFormat = 'json' | 'csv'

/** A term as exported: its item of the terms API without the ids and notes that belong to one installation. */
export function exportedTerm(t: TermItem) {
  return {
    category: t.category,
    term: t.term,
    paused: t.paused,
    delivery: t.delivery,
    mutedUntil: t.mutedUntil,
    alwaysNotify: t.alwaysNotify,
    createdAt: t.createdAt,
  }
}
export type ExportedTerm = ReturnType<typeof exportedTerm>

export function exportJson(terms: ExportedTerm[], now: Date) {
  return { format: 'dibs-terms' as const, version: 1 as const, exportedAt: now.toISOString(), terms }
}

export function exportCsv(terms: ExportedTerm[]): string {
  return formatCsv(
    CSV_COLUMNS,
    terms.map((t) => [
      t.category,
      t.term,
      String(t.paused),
      t.delivery.email,
      String(t.delivery.push),
      Object.entries(t.delivery.endpoints)
        .filter(([, on]) => !on)
        .map(([id]) => id)
        .join(' '),
      t.mutedUntil ?? '',
      String(t.alwaysNotify),
      t.createdAt,
    ]),
  )
}

/**
 * One row of an import as read, before judging. Options are as the file gave them (undefined when
 * absent): booleans and text from CSV stay text here, ./transfer.ts checks them the same way for both.
 */
export type RawRow = {
  line: number
  category: unknown
  term: unknown
  paused?: unknown
  email?: unknown
  push?: unknown
  endpoints?: unknown
  mutedUntil?: unknown
  alwaysNotify?: unknown
}

const badImport = (message: string) => badRequest(message, 'BAD_IMPORT')

/** Which format a body is in: ?format= wins, then the Content-Type, then its first character. */
export function importFormat(asked: string | undefined, contentType: string | null, body: string): ImportFormat {
  if (asked === 'json' || asked === 'csv') return asked
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('csv')) return 'csv'
  if (type.includes('json')) return 'json'
  return /^\s*[[{]/.test(body) ? 'json' : 'csv'
}

export function readImport(format: ImportFormat, body: string): RawRow[] {
  const rows = format === 'json' ? readJson(body) : readCsv(body)
  if (rows.length === 0) throw badImport('The file has no terms.')
  if (rows.length > MAX_IMPORT_ROWS) throw badImport(`The file has ${rows.length} terms; at most ${MAX_IMPORT_ROWS} are read at once.`)
  return rows
}

function readJson(body: string): RawRow[] {
  let data: unknown
  try {
    data = JSON.parse(body)
  } catch (err) {
    throw badImport(`The file is not valid JSON (${err instanceof Error ? err.message : String(err)}).`)
  }
  const list = Array.isArray(data) ? data : data !== null && typeof data === 'object' ? (data as { terms?: unknown }).terms : undefined
  if (!Array.isArray(list)) throw badImport('Expected a JSON list of terms, or an object with a "terms" list (as the export writes).')
  return list.map((item, i): RawRow => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw badImport(`Term ${i + 1} is not an object with a category and a term.`)
    const o = item as Record<string, unknown>
    const d = o.delivery !== null && typeof o.delivery === 'object' ? (o.delivery as Record<string, unknown>) : undefined
    if (o.delivery !== undefined && o.delivery !== null && d === undefined) throw badImport(`Term ${i + 1}: "delivery" is not an object.`)
    return {
      line: i + 1,
      category: o.category,
      term: o.term,
      paused: o.paused,
      email: d?.email,
      push: d?.push,
      endpoints: d?.endpoints,
      mutedUntil: o.mutedUntil,
      alwaysNotify: o.alwaysNotify,
    }
  })
}

function readCsv(body: string): RawRow[] {
  let records
  try {
    records = parseCsv(body)
  } catch (err) {
    if (err instanceof CsvError) throw badImport(`The file is not valid CSV (${err.message}).`)
    throw err
  }
  const [header, ...rest] = records
  if (header === undefined) return []
  const names = header.fields.map((f) => f.trim().toLowerCase())
  for (const need of ['category', 'term'])
    if (!names.includes(need)) throw badImport(`The CSV header has no "${need}" column (the first line names the columns: ${CSV_COLUMNS.join(',')}).`)
  const col = (fields: string[], name: string): string | undefined => {
    const i = names.indexOf(name)
    const v = i < 0 ? undefined : fields[i]
    return v === undefined || v.trim() === '' ? undefined : v
  }
  return rest.map((r): RawRow => {
    if (r.fields.length > names.length) throw badImport(`CSV line ${r.line} has ${r.fields.length} fields; the header names ${names.length}.`)
    const off = col(r.fields, 'channels_off')
    return {
      line: r.line,
      category: col(r.fields, 'category')?.trim() ?? '',
      term: r.fields[names.indexOf('term')] ?? '',
      paused: col(r.fields, 'paused'),
      email: col(r.fields, 'email')?.trim(),
      push: col(r.fields, 'push'),
      endpoints:
        off === undefined
          ? undefined
          : Object.fromEntries(
              off
                .trim()
                .split(/\s+/)
                .map((id) => [id, false]),
            ),
      mutedUntil: col(r.fields, 'muted_until')?.trim(),
      alwaysNotify: col(r.fields, 'always_notify'),
    }
  })
}
