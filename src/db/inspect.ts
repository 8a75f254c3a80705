// The database looked at from inside (Admin → Database, which must not query sqlite_master or dbstat
// itself: this folder owns them, src/db/owners.json): rows and bytes per table, the file and its WAL,
// page figures, the integrity check and optimize. Sizes come from SQLite's dbstat table when the
// library has it (Bun's bundled SQLite does); otherwise each table gets a share of the file by its row
// count, marked as an estimate.
import { statSync } from 'node:fs'
import type { Database } from 'bun:sqlite'
import { conflict } from '../lib/errors'
import { sql } from 'drizzle-orm'
import type { AsyncDb } from './async-db'
import { asAsync } from './async-sqlite'
import type { Db } from './client'
import { rawRows } from './raw'

export type TableStat = { name: string; rows: number; bytes: number; indexBytes: number }
export type FileSizes = { db: number; wal: number; shm: number; total: number }

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
const sizeOf = (path: string) => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** The tags in `__migrations` on either engine (SQLite's ./migrate.ts and PostgreSQL's ./migrate-pg.ts keep the same table), for /readyz. */
export async function appliedMigrationTagsOf(db: Db | AsyncDb): Promise<string[]> {
  return (await rawRows<{ tag: string }>(asAsync(db), sql`SELECT tag FROM __migrations`)).map((r) => r.tag)
}

export function fileSizes(dbPath: string): FileSizes {
  const db = sizeOf(dbPath)
  const wal = sizeOf(`${dbPath}-wal`)
  const shm = sizeOf(`${dbPath}-shm`)
  return { db, wal, shm, total: db + wal }
}

export const pragma = (sqlite: Database, name: string) => Object.values(sqlite.query(`PRAGMA ${name}`).get() as Record<string, number>)[0] ?? 0

/** Bytes per table and per table's indexes from dbstat, or null when this SQLite lacks it. */
function dbstatBytes(sqlite: Database): Map<string, { bytes: number; indexBytes: number }> | null {
  let rows: { name: string; tbl: string | null; type: string | null; bytes: number }[]
  try {
    rows = sqlite
      .query<{ name: string; tbl: string | null; type: string | null; bytes: number }, []>(
        `SELECT d.name, m.tbl_name AS tbl, m.type, sum(d.pgsize) AS bytes FROM dbstat d
         LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY d.name`,
      )
      .all()
  } catch {
    return null
  }
  const out = new Map<string, { bytes: number; indexBytes: number }>()
  for (const r of rows) {
    const table = r.tbl ?? r.name
    const entry = out.get(table) ?? { bytes: 0, indexBytes: 0 }
    if (r.type === 'index') entry.indexBytes += r.bytes
    else entry.bytes += r.bytes
    out.set(table, entry)
  }
  return out
}

export function tableStats(sqlite: Database, opts: { dbstat?: boolean } = {}): { tables: TableStat[]; sizes: 'dbstat' | 'estimate' } {
  const names = sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name)
  const counted = names.map((name) => ({ name, rows: sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${quote(name)}`).get()?.n ?? 0 }))
  const measured = opts.dbstat === false ? null : dbstatBytes(sqlite)
  if (measured) return { tables: counted.map((t) => ({ ...t, bytes: 0, indexBytes: 0, ...measured.get(t.name) })), sizes: 'dbstat' }
  // Estimate: the used pages shared out by row count (rows differ in width, so this is rough).
  const used = (pragma(sqlite, 'page_count') - pragma(sqlite, 'freelist_count')) * pragma(sqlite, 'page_size')
  const allRows = counted.reduce((sum, t) => sum + t.rows, 0)
  return {
    tables: counted.map((t) => ({ ...t, bytes: allRows === 0 ? 0 : Math.round((used * t.rows) / allRows), indexBytes: 0 })),
    sizes: 'estimate',
  }
}

/** Page size, pages, bytes VACUUM can give back, and the SQLite library's version. */
export function pageFigures(sqlite: Database) {
  const pageSize = pragma(sqlite, 'page_size')
  return {
    pageSize,
    pages: pragma(sqlite, 'page_count'),
    freeBytes: pragma(sqlite, 'freelist_count') * pageSize,
    sqliteVersion: sqlite.query<{ v: string }, []>('SELECT sqlite_version() AS v').get()?.v ?? 'unknown',
  }
}

/** PRAGMA quick_check's lines as SQLite gives them ('ok' alone when the file is sound): `dibs doctor` on the file. */
export function quickCheckLines(sqlite: Database): string[] {
  return sqlite
    .query<{ quick_check: string }, []>('PRAGMA quick_check')
    .all()
    .map((r) => r.quick_check)
}

export type IntegrityResult = { mode: 'quick' | 'full'; ok: boolean; messages: string[]; ms: number }

/** PRAGMA quick_check (O(n), skips index contents) or integrity_check; at most 100 problems are listed. */
export function integrityCheck(deps: { sqlite: Database }, mode: 'quick' | 'full'): IntegrityResult {
  const t0 = performance.now()
  let messages: string[]
  try {
    const rows = deps.sqlite.query(`PRAGMA ${mode === 'quick' ? 'quick_check' : 'integrity_check'}(100)`).all() as Record<string, string>[]
    messages = rows.flatMap((r) => String(Object.values(r)[0] ?? '').split('\n'))
  } catch (err) {
    // A badly damaged file can make the check itself fail ('database disk image is malformed').
    messages = [(err as Error).message]
  }
  return { mode, ok: messages.length === 1 && messages[0] === 'ok', messages, ms: Math.round(performance.now() - t0) }
}

const isBusy = (err: unknown) => /SQLITE_BUSY|SQLITE_LOCKED|database is locked|statements in progress/i.test(String((err as Error)?.message ?? err))

/**
 * PRAGMA optimize (refreshes the planner's statistics where they are stale), VACUUM (rewrites the
 * file without its free pages; in WAL mode through the WAL), then wal_checkpoint(TRUNCATE) (copies
 * the WAL into the file and empties it). Sizes before and after.
 */
export function optimizeDatabase(deps: { config: { dbPath: string }; sqlite: Database }) {
  const before = fileSizes(deps.config.dbPath)
  const t0 = performance.now()
  try {
    deps.sqlite.run('PRAGMA optimize')
    deps.sqlite.run('VACUUM')
    deps.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  } catch (err) {
    if (isBusy(err)) throw conflict('The database is busy (another process is using it). Try again in a moment.', 'DB_BUSY')
    throw err
  }
  const after = fileSizes(deps.config.dbPath)
  return { before, after, savedBytes: before.total - after.total, ms: Math.round(performance.now() - t0) }
}
