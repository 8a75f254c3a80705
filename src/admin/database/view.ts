// Admin → Database, the view model: rows and bytes per table, the files, page figures (src/db/inspect.ts)
// and the last backup (DATA_DIR/backups and the audit log's backup rows). SQLite's only: on PostgreSQL the
// page says so (`engine`).
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { lastSuccessOf } from '../../audit/log'
import { engineOf } from '../../db/async-db'
import type { Deps } from '../../deps'
import { fileSizes, pageFigures, tableStats } from '../../db/inspect'

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

export async function lastBackup(deps: Pick<Deps, 'config' | 'db'>): Promise<BackupInfo> {
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
  const row = await lastSuccessOf(deps, BACKUP_ACTIONS)
  const lastRecorded = row ? { at: row.at.toISOString(), actor: row.actor, action: row.action } : null
  const times = [newestFile?.at, lastRecorded?.at].filter((x): x is string => !!x).sort()
  return { dir, files, newestFile, lastRecorded, at: times.at(-1) ?? null }
}

/** SQLite's file looked at from inside; on PostgreSQL the figures are not SQLite's to give: `engine: 'postgres'`, no tables or pages. */
export async function databaseStats(deps: Pick<Deps, 'config' | 'sqlite' | 'db'>) {
  if (engineOf(deps.db) === 'postgres' || deps.sqlite === null)
    return {
      engine: 'postgres' as const,
      path: deps.config.dbPath,
      files: fileSizes(deps.config.dbPath),
      pageSize: 0,
      pages: 0,
      freeBytes: 0,
      sqliteVersion: 'not applicable: the database is PostgreSQL',
      sizes: 'estimate' as const,
      tables: [],
      backup: await lastBackup(deps),
    }
  const sqlite = deps.sqlite!
  const { tables, sizes } = tableStats(sqlite)
  const { pageSize, pages, freeBytes, sqliteVersion } = pageFigures(sqlite)
  return {
    path: deps.config.dbPath,
    files: fileSizes(deps.config.dbPath),
    pageSize,
    pages,
    /** bytes VACUUM can give back */
    freeBytes,
    sqliteVersion,
    sizes,
    tables,
    backup: await lastBackup(deps),
  }
}
