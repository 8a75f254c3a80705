// The PostgreSQL form of the schema (issue 29 §2), derived from src/db/schema.ts, which stays the
// one place a table or column is declared: every SQLite table becomes a PostgreSQL table of the same
// name with the same columns, keys, indexes and foreign keys. `drizzle-kit generate` reads this file
// (drizzle-pg.config.ts) and writes the PostgreSQL migrations into drizzle-pg/.
//
// Types keep what the code stores (tests/unit/db/schema-pg.test.ts holds the two in step):
//   integer                → bigint (JS number): counts, ids, milliseconds
//   integer timestamp_ms   → bigint of epoch milliseconds, read as a Date (as on SQLite)
//   integer boolean        → boolean (SQL text compares with TRUE / FALSE, which SQLite reads too)
//   text json              → jsonb
//   real                   → double precision
//   text                   → text
// An integer primary key with autoIncrement is an identity column (BY DEFAULT: a restore or a test
// may give its own id). A default written in SQLite's SQL is translated by `PG_DEFAULTS`; one not
// listed there throws, so a new SQLite-only default cannot slip into PostgreSQL unnoticed.
import { Column, is, SQL, sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
} from 'drizzle-orm/pg-core'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as sqliteSchema from './schema'

/** Epoch milliseconds in a bigint, a Date in code, as SQLite's `integer({ mode: 'timestamp_ms' })`. */
const epochMs = customType<{ data: Date; driverData: string | number }>({
  dataType: () => 'bigint',
  toDriver: (d) => d.getTime(),
  fromDriver: (v) => new Date(Number(v)),
})

/** SQLite default expressions → PostgreSQL's (both as drizzle renders them, parentheses included). */
export const PG_DEFAULTS: Record<string, string> = {
  "(unixepoch('subsec') * 1000)": '(floor(extract(epoch from clock_timestamp()) * 1000))::bigint',
  "'[]'": "'[]'::jsonb",
}

function sqlText(s: SQL): string {
  return s.queryChunks.map((c) => (typeof c === 'object' && c !== null && 'value' in c ? (c.value as string[]).join('') : String(c))).join('')
}

type SqliteColumn = ReturnType<typeof getTableConfig>['columns'][number]

function pgColumn(col: SqliteColumn, table: string): PgColumnBuilderBase {
  const mode = (col as unknown as { mode?: string }).mode
  let b
  switch (col.columnType) {
    case 'SQLiteInteger':
      b = bigint(col.name, { mode: 'number' })
      break
    case 'SQLiteTimestamp':
      if (mode !== 'timestamp_ms') throw new Error(`${table}.${col.name}: timestamp mode ${mode} has no PostgreSQL form`)
      b = epochMs(col.name)
      break
    case 'SQLiteBoolean':
      b = boolean(col.name)
      break
    case 'SQLiteTextJson':
      b = jsonb(col.name)
      break
    case 'SQLiteReal':
      b = doublePrecision(col.name)
      break
    case 'SQLiteText':
      b = text(col.name)
      break
    default:
      throw new Error(`${table}.${col.name}: column type ${col.columnType} has no PostgreSQL form`)
  }
  if (col.primary) {
    b = b.primaryKey()
    if ((col as unknown as { autoIncrement?: boolean }).autoIncrement) b = (b as ReturnType<typeof bigint>).generatedByDefaultAsIdentity()
  }
  if (col.notNull && !col.primary) b = b.notNull()
  if (col.isUnique) b = b.unique(col.uniqueName)
  if (col.hasDefault && col.default !== undefined) {
    if (is(col.default, SQL)) {
      const text = sqlText(col.default)
      const pg = PG_DEFAULTS[text]
      if (pg === undefined) throw new Error(`${table}.${col.name}: the SQLite default ${text} has no PostgreSQL form in PG_DEFAULTS`)
      b = b.default(sql.raw(pg))
    } else b = b.default(col.default)
  }
  return b
}

type AnyPgTable = PgTableWithColumns<any>

/** The same SQL with every SQLite column of it replaced by the PostgreSQL column of the same name. */
function onPg(expr: SQL, cols: Record<string, AnyPgColumn>): SQL {
  return new SQL(expr.queryChunks.map((c) => (is(c, Column) ? cols[c.name]! : c)))
}

const built = new Map<string, AnyPgTable>()

/** The PostgreSQL form of one SQLite table (and of the tables its foreign keys reach). */
export function pgFromSqlite(table: SQLiteTable): AnyPgTable {
  const config = getTableConfig(table)
  const existing = built.get(config.name)
  if (existing) return existing
  const columns = Object.fromEntries(
    Object.entries(table).flatMap(([key, col]) => (is(col, Column) ? [[key, pgColumn(col as SqliteColumn, config.name)]] : [])),
  )
  const result = pgTable(config.name, columns, (t) => {
    const byName = Object.fromEntries(Object.values(t).map((c) => [(c as AnyPgColumn).name, c as AnyPgColumn]))
    const pick = (cs: { name: string }[]) => cs.map((c) => byName[c.name]!) as [AnyPgColumn, ...AnyPgColumn[]]
    return [
      ...config.primaryKeys.map((pk) => primaryKey({ name: pk.getName(), columns: pick(pk.columns) })),
      ...config.indexes.map((i) => {
        const parts = i.config.columns.map((c) => (is(c, SQL) ? onPg(c, byName) : byName[(c as { name: string }).name]!))
        const make = (i.config.unique ? uniqueIndex : index)(i.config.name)
        const on = make.on(...(parts as [AnyPgColumn, ...AnyPgColumn[]]))
        return i.config.where ? on.where(onPg(i.config.where, byName)) : on
      }),
      ...config.foreignKeys.map((fk) => {
        const ref = fk.reference()
        const target = ref.foreignTable === table ? { cols: byName } : null
        const foreign = target ? null : pgFromSqlite(ref.foreignTable as SQLiteTable)
        const foreignCols = ref.foreignColumns.map((c) =>
          target ? target.cols[c.name]! : (Object.values(foreign!).find((fc) => is(fc, Column) && (fc as AnyPgColumn).name === c.name) as AnyPgColumn),
        )
        let f = foreignKey({ name: fk.getName(), columns: pick(ref.columns), foreignColumns: foreignCols as [AnyPgColumn, ...AnyPgColumn[]] })
        if (fk.onDelete) f = f.onDelete(fk.onDelete)
        if (fk.onUpdate) f = f.onUpdate(fk.onUpdate)
        return f
      }),
    ]
  })
  built.set(config.name, result)
  return result
}

/** Every table of src/db/schema.ts in its PostgreSQL form, under the same export names. */
export const pgSchema: Record<string, AnyPgTable> = Object.fromEntries(
  Object.entries(sqliteSchema).flatMap(([key, value]) => (is(value, SQLiteTable) ? [[key, pgFromSqlite(value)]] : [])),
)
