// A consistent copy of a live database: VACUUM INTO takes a read snapshot (WAL readers don't
// block writers), then the copy is opened and must pass PRAGMA integrity_check. The copy holds
// what the database holds (password hashes, emails, push keys): it is created 600.
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, openSync, statSync } from 'node:fs'
import { resolve } from 'node:path'

export type BackupResult = { file: string; bytes: number; integrity: string; tables: number }

export function backupDatabase(sourcePath: string, target: string): BackupResult {
  const file = resolve(target)
  if (!existsSync(sourcePath)) throw new Error(`no database at ${sourcePath}`)
  if (existsSync(file)) throw new Error(`${file} already exists; choose a new file name`)
  // VACUUM INTO writes into an empty file it finds, keeping that file's mode.
  closeSync(openSync(file, 'wx', 0o600))
  const source = new Database(sourcePath, { readwrite: true })
  try {
    source.run('PRAGMA busy_timeout = 5000')
    source.query('VACUUM INTO ?').run(file)
  } finally {
    source.close()
  }
  const copy = new Database(file, { readonly: true })
  try {
    const integrity = copy.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()?.integrity_check ?? 'unknown'
    const tables = copy.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()?.n ?? 0
    if (integrity !== 'ok') throw new Error(`backup failed its integrity check: ${integrity}`)
    return { file, bytes: statSync(file).size, integrity, tables }
  } finally {
    copy.close()
  }
}
