// Many rows of one table inserted at once, on the hot path (the runner's matches, their term links,
// alert latency and owed alerts; the scan's posts). drizzle's builder turns a multi-row insert into
// SQL value by value (about 5,000 values a scan) and SQLite then prepares a new statement for every
// row count: together they cost more than SQLite's own work (docs/SCALING.md, phase 1's price). So
// on SQLite one single-row statement per row shape is prepared once (bun:sqlite caches it by its
// text) and run once per row, values mapped by the columns as drizzle maps them; on PostgreSQL one
// statement per row shape too — `INSERT … SELECT * FROM unnest($1::bigint[], $2::text[], …)`, one
// array per column — so its text (and the plan the driver prepares for it) does not change with the
// row count either.
//
// A column a row leaves undefined is left out of the statement, so the database's default applies
// (the same default drizzle would write). Rows of one call may differ in shape: each shape has its
// statement.
import { Database } from 'bun:sqlite'
import { getTableColumns, getTableName, sql } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { chunksOf } from '../lib/id-lists'
import { engineOf, type AsyncDb } from './async-db'
import type { Db } from './client'
import { RAW, rawRows } from './raw'

type Returning = Record<string, SQLiteColumn>
type Returned<R extends Returning> = { [K in keyof R]: R[K]['_']['notNull'] extends true ? R[K]['_']['data'] : R[K]['_']['data'] | null }

export type InsertOptions<R extends Returning | undefined> = {
  /** `on conflict (…) do nothing`; `true` for any constraint */
  onConflictDoNothing?: SQLiteColumn[] | true
  /** the columns each inserted row answers (a row skipped by a conflict answers nothing) */
  returning?: R
}

/** How an SQLite handle runs one statement's text: through asyncSqlite's gate, or on the synchronous connection. */
export type SqliteStatements = { rows(text: string, rows: unknown[][], answer: boolean): Promise<unknown[][]> }

/** Inserts `rows` into `table`; answers the `returning` columns of the rows inserted, in order. */
export async function insertMany<T extends SQLiteTable, R extends Returning | undefined = undefined>(
  db: Db | AsyncDb,
  table: T,
  rows: readonly T['$inferInsert'][],
  options: InsertOptions<R> = {},
): Promise<R extends Returning ? Returned<R>[] : void> {
  type Out = R extends Returning ? Returned<R>[] : void
  if (rows.length === 0) return (options.returning ? [] : undefined) as Out
  if (engineOf(db) === 'postgres') return (await insertUnnest(db as AsyncDb, table, rows, options)) as Out
  const runner = sqliteStatements(db)
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>
  const answer = options.returning ? Object.entries(options.returning) : null
  const out: Record<string, unknown>[] = []
  for (const [keys, group] of byShape(rows as Record<string, unknown>[], columns)) {
    const text = insertText(getTableName(table), keys, columns, options.onConflictDoNothing, answer)
    const params = group.map((row) => keys.map((k) => driverValue(columns[k]!, row[k])))
    const got = await runner.rows(text, params, answer !== null)
    if (answer) for (const values of got) out.push(Object.fromEntries(answer.map(([name, col], i) => [name, appValue(col, values[i])])))
  }
  return (answer ? out : undefined) as Out
}

/** Rows grouped by the columns they set, in first-seen order (a call's rows are nearly always one shape). */
function byShape(rows: Record<string, unknown>[], columns: Record<string, SQLiteColumn>): Map<string[], Record<string, unknown>[]> {
  const groups = new Map<string, { keys: string[]; rows: Record<string, unknown>[] }>()
  for (const row of rows) {
    const keys = Object.keys(row).filter((k) => row[k] !== undefined && k in columns)
    const id = keys.join(',')
    let g = groups.get(id)
    if (!g) groups.set(id, (g = { keys, rows: [] }))
    g.rows.push(row)
  }
  return new Map([...groups.values()].map((g) => [g.keys, g.rows]))
}

const TEXTS = new Map<string, string>()

function insertText(
  name: string,
  keys: string[],
  columns: Record<string, SQLiteColumn>,
  conflict: SQLiteColumn[] | true | undefined,
  answer: [string, SQLiteColumn][] | null,
): string {
  const id = `${name}|${keys.join(',')}|${conflict === true ? '*' : (conflict?.map((c) => c.name).join(',') ?? '')}|${answer?.map(([, c]) => c.name).join(',') ?? ''}`
  let text = TEXTS.get(id)
  if (text === undefined) {
    text = `insert into ${quote(name)} (${keys.map((k) => quote(columns[k]!.name)).join(', ')}) values (${keys.map(() => '?').join(', ')})`
    if (conflict === true) text += ' on conflict do nothing'
    else if (conflict) text += ` on conflict (${conflict.map((c) => quote(c.name)).join(', ')}) do nothing`
    if (answer) text += ` returning ${answer.map(([, c]) => quote(c.name)).join(', ')}`
    TEXTS.set(id, text)
  }
  return text
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
const driverValue = (col: SQLiteColumn, v: unknown) => (v === null || v === undefined ? null : col.mapToDriverValue(v))
const appValue = (col: SQLiteColumn, v: unknown) => (v === null || v === undefined ? null : col.mapFromDriverValue(v))

/** The statement runner of an SQLite handle: asyncSqlite's (it knows its gate), or the synchronous connection's own. */
function sqliteStatements(db: Db | AsyncDb): SqliteStatements {
  const attached = (db as unknown as { [RAW]?: { statements?: SqliteStatements } })[RAW]?.statements
  if (attached) return attached
  const client = (db as { $client?: unknown }).$client
  if (!(client instanceof Database)) throw new Error('insertMany: not an SQLite handle')
  return { rows: async (text, rows, answer) => runRows(client, text, rows, answer) }
}

/** Runs one statement once per row of parameters; answers the rows it returned. */
export function runRows(sqlite: Database, text: string, rows: unknown[][], answer: boolean): unknown[][] {
  const stmt = sqlite.query(text)
  const out: unknown[][] = []
  for (const params of rows) {
    if (!answer) stmt.run(...(params as never[]))
    else for (const r of stmt.values(...(params as never[])) as unknown[][]) out.push(r)
  }
  return out
}

/** The PostgreSQL type of a column of src/db/schema.ts, as src/db/schema-pg.ts derives it (not imported: the SQLite server never loads pg-core). */
function pgType(col: SQLiteColumn): string {
  switch (col.columnType) {
    case 'SQLiteInteger':
    case 'SQLiteTimestamp':
      return 'bigint'
    case 'SQLiteBoolean':
      return 'boolean'
    case 'SQLiteTextJson':
      return 'jsonb'
    case 'SQLiteReal':
      return 'double precision'
    case 'SQLiteText':
      return 'text'
    default:
      throw new Error(`insertMany: column ${col.name} (${col.columnType}) has no PostgreSQL form`)
  }
}

/** PostgreSQL's array literal: `{"a","b \\"q\\"",NULL}` — every element quoted, backslashes and quotes escaped. */
export function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((v) => (v === null || v === undefined ? 'NULL' : `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`
}

/** One `INSERT … SELECT * FROM unnest(…)` per row shape and 5,000 rows; returned rows mapped back by their columns. */
async function insertUnnest<T extends SQLiteTable>(db: AsyncDb, table: T, rows: readonly T['$inferInsert'][], options: InsertOptions<Returning | undefined>) {
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>
  const answer = options.returning ? Object.entries(options.returning) : null
  const out: Record<string, unknown>[] = []
  for (const [keys, group] of byShape(rows as Record<string, unknown>[], columns))
    for (const chunk of chunksOf(group, 5000)) {
      const arrays = keys.map((k) => {
        const col = columns[k]!
        const type = pgType(col)
        // one array literal per column, read by the column type's own input (booleans from SQLite's 1/0)
        const values = chunk.map((row) => {
          const v = driverValue(col, row[k])
          return v === null || type !== 'boolean' ? v : v === 1 || v === true ? 't' : 'f'
        })
        return sql`${arrayLiteral(values)}::${sql.raw(type)}[]`
      })
      const conflict = options.onConflictDoNothing
      const onConflict =
        conflict === undefined
          ? sql``
          : conflict === true
            ? sql` on conflict do nothing`
            : sql` on conflict (${sql.raw(conflict.map((c) => quote(c.name)).join(', '))}) do nothing`
      const returning = answer ? sql` returning ${sql.raw(answer.map(([, c]) => quote(c.name)).join(', '))}` : sql``
      const target = sql.raw(`${quote(getTableName(table))} (${keys.map((k) => quote(columns[k]!.name)).join(', ')})`)
      const got = await rawRows<Record<string, unknown>>(
        db,
        sql`insert into ${target} select * from unnest(${sql.join(arrays, sql`, `)})${onConflict}${returning}`,
      )
      if (answer) for (const r of got) out.push(Object.fromEntries(answer.map(([name, col]) => [name, appValue(col, r[col.name])])))
    }
  return options.returning ? out : undefined
}
