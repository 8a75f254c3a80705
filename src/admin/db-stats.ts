// What the admin Database page reads: rows and bytes per table, the database file and its WAL, and
// the last backup. Sizes come from SQLite's dbstat table when the library has it (Bun's bundled
// SQLite does); otherwise each table gets a share of the file by its row count, marked as an estimate.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import type { Deps } from '../deps'

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

export function fileSizes(dbPath: string): FileSizes {
  const db = sizeOf(dbPath)
  const wal = sizeOf(`${dbPath}-wal`)
  const shm = sizeOf(`${dbPath}-shm`)
  return { db, wal, shm, total: db + wal }
}

const pragma = (sqlite: Database, name: string) => Object.values(sqlite.query(`PRAGMA ${name}`).get() as Record<string, number>)[0] ?? 0

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

export type BackupInfo = {
  /** DATA_DIR/backups: where automatic backups are written */
  dir: string
  files: number
  newestFile: { name: string; at: string; bytes: number } | null
  /** the last backup an admin downloaded or the CLI recorded in the audit log */
  lastRecorded: { at: string; actor: string; action: string } | null
  /** the later of the two, or null when no backup is known */
  at: string | null
}

/** Audit actions that mean "a backup was taken". */
export const BACKUP_ACTIONS = ['db.backup', 'db.backup_download']

export function lastBackup(deps: Pick<Deps, 'config' | 'sqlite'>): BackupInfo {
  const dir = join(deps.config.dataDir, 'backups')
  let newestFile: BackupInfo['newestFile'] = null
  let files = 0
  let entries: string[] = []
  try {
    entries = readdirSync(dir)
  } catch {}
  for (const name of entries) {
    try {
      const s = statSync(join(dir, name))
      if (!s.isFile()) continue
      files++
      if (newestFile === null || s.mtimeMs > Date.parse(newestFile.at)) newestFile = { name, at: new Date(s.mtimeMs).toISOString(), bytes: s.size }
    } catch {}
  }
  const row = deps.sqlite
    .query<{ at: number; actor: string; action: string }, []>(
      `SELECT created_at AS at, actor, action FROM audit_log WHERE result = 'ok' AND action IN (${BACKUP_ACTIONS.map((a) => `'${a}'`).join(', ')})
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .get()
  const lastRecorded = row ? { at: new Date(row.at).toISOString(), actor: row.actor, action: row.action } : null
  const times = [newestFile?.at, lastRecorded?.at].filter((x): x is string => !!x).sort()
  return { dir, files, newestFile, lastRecorded, at: times.at(-1) ?? null }
}

export function databaseStats(deps: Pick<Deps, 'config' | 'sqlite'>) {
  const { tables, sizes } = tableStats(deps.sqlite)
  const pageSize = pragma(deps.sqlite, 'page_size')
  return {
    path: deps.config.dbPath,
    files: fileSizes(deps.config.dbPath),
    pageSize,
    pages: pragma(deps.sqlite, 'page_count'),
    /** bytes VACUUM can give back */
    freeBytes: pragma(deps.sqlite, 'freelist_count') * pageSize,
    sqliteVersion: deps.sqlite.query<{ v: string }, []>('SELECT sqlite_version() AS v').get()?.v ?? 'unknown',
    sizes,
    tables,
    backup: lastBackup(deps),
  }
}
