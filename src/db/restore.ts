// Restoring a backup takes the database back in time, but not Reddit: the next scan fetches every
// post since the backup again, stores it as new and, unguarded, alerts again for each (issue 11:
// 520 alerts re-sent). So a restore records a restore point: the creation time of the newest post
// the replaced database had seen. A post created up to it that is stored again is matched (visible
// in the app) but sends no email or push (src/matches/runner.ts, src/notify/digest.ts).
//
// Two ways in, one rule:
//   - `dibs restore <file>` reads the newest post of the database it replaces;
//   - an operator who copies a backup over dibs.db by hand is noticed at the next start
//     (detectRestore): DATA_DIR/newest-post.json (600) remembers the newest post time this DATA_DIR
//     has seen, and a database whose newest post is older than that was restored.
// The restore point lives in the restored database, system_settings 'restore_point' (key-value
// JSON): {active, at, restoredAt, how}, src/settings/restore-point.ts. A later restore only ever
// moves it forward. The posts and that row belong to other folders: the callers pass their reads
// and writes in (RestoreStore).
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { log } from '../lib/log'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import type { OwnerDb } from './async-db'
import { openDb, type Db } from './client'
import * as schema from './schema'

const SEEN_FILE = 'newest-post.json'

export type RestorePoint = { at: number; restoredAt: number; how: 'dibs restore' | 'detected' }

export function restorePointText(at: number): string {
  return `restore point ${new Date(at).toISOString()}: posts created up to it that are fetched again send no alerts`
}

/**
 * What a restore reads and writes in tables other folders own. src/db is the lowest layer and imports
 * no other folder, so its callers pass these in (src/services.ts restoreStore): the newest stored
 * post's creation time (src/forums/stats.ts newestPostAt) and the restore point, kept in
 * system_settings (src/settings/restore-point.ts recordRestorePoint: true when written, never moved back).
 */
export type RestoreStore = {
  newestPostAt(deps: OwnerDb): Promise<number | null>
  recordRestorePoint(deps: OwnerDb, point: RestorePoint): Promise<boolean>
}

/** The newest post time this DATA_DIR has seen (DATA_DIR/newest-post.json), or null. */
export function readNewestSeen(dataDir: string): number | null {
  try {
    const at = (JSON.parse(readFileSync(join(dataDir, SEEN_FILE), 'utf8')) as { newestPostAt?: unknown }).newestPostAt
    return typeof at === 'number' ? at : null
  } catch {
    return null
  }
}

/** Moves DATA_DIR/newest-post.json forward to `at` (never back); written 600, replaced atomically. */
export function noteNewestSeen(dataDir: string, at: number): void {
  const seen = readNewestSeen(dataDir)
  if (seen !== null && seen >= at) return
  const file = join(dataDir, SEEN_FILE)
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify({ newestPostAt: at, newestPostTime: new Date(at).toISOString() }) + '\n', { mode: 0o600 })
    renameSync(`${file}.tmp`, file)
  } catch (err) {
    log.warn(`could not write ${file} (a restored backup would not be noticed)`, { error: String(err) })
  }
}

/**
 * At the start of a server or CLI process: a database behind what this DATA_DIR has seen was
 * restored from a backup; its restore point is recorded (logged and returned). Otherwise the
 * newest post time seen moves forward.
 */
export async function detectRestore(deps: OwnerDb, dataDir: string, now: number, store: RestoreStore): Promise<RestorePoint | null> {
  const seen = readNewestSeen(dataDir)
  const newest = await store.newestPostAt(deps)
  if (seen !== null && (newest === null || newest < seen)) {
    const point: RestorePoint = { at: seen, restoredAt: now, how: 'detected' }
    if (!(await store.recordRestorePoint(deps, point))) return null
    log.warn(`the database is older than what DATA_DIR has seen, so it was restored from a backup; ${restorePointText(seen)}`)
    return point
  }
  if (newest !== null) noteNewestSeen(dataDir, newest)
  return null
}

export type RestoreResult = { file: string; previous: string | null; point: RestorePoint }

/**
 * `dibs restore <file>`, with the server stopped: checks the backup, keeps the current database
 * beside it (dibs.db.before-restore-<time>, with its -wal), puts a copy of the backup in place
 * (600), migrates it forward and records the restore point in it.
 */
export async function restoreDatabase(
  dbPath: string,
  dataDir: string,
  backupFile: string,
  now: Date,
  store: RestoreStore,
  onStep: (step: string, done: number, total: number) => void = () => {},
): Promise<RestoreResult> {
  const file = resolve(backupFile)
  onStep('checking the backup', 0, 4)
  if (!existsSync(file)) throw new Error(`no backup at ${file}`)
  if (file === resolve(dbPath)) throw new Error(`${file} is the live database; give a backup file`)
  const backup = new Database(file, { readonly: true })
  try {
    const integrity = backup.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()?.integrity_check
    if (integrity !== 'ok') throw new Error(`${file} failed its integrity check: ${integrity}`)
    if (!backup.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'posts'").get()) throw new Error(`${file} is not a Dibs database`)
  } finally {
    backup.close()
  }

  // What the replaced database had seen. It may be damaged (often why one restores): then the
  // DATA_DIR's own record stands for it, and failing both, the restore time.
  let newest: number | null = null
  onStep('reading the current database', 1, 4)
  if (existsSync(dbPath)) {
    try {
      const current = new Database(dbPath, { readwrite: true })
      try {
        current.run('PRAGMA busy_timeout = 5000')
        newest = await store.newestPostAt({ db: drizzle(current, { schema }) as Db })
        current.run('PRAGMA wal_checkpoint(TRUNCATE)')
      } finally {
        current.close()
      }
    } catch (err) {
      log.warn(`could not read the current database ${dbPath}`, { error: String(err) })
    }
  }
  const seen = [newest, readNewestSeen(dataDir)].filter((t): t is number => t !== null)
  const point: RestorePoint = { at: seen.length ? Math.max(...seen) : now.getTime(), restoredAt: now.getTime(), how: 'dibs restore' }

  onStep('copying the backup into place', 2, 4)
  const incoming = `${dbPath}.restoring`
  rmSync(incoming, { force: true })
  closeSync(openSync(incoming, 'wx', 0o600)) // VACUUM INTO keeps the mode of the empty file it fills
  const source = new Database(file, { readonly: true })
  try {
    source.query('VACUUM INTO ?').run(incoming)
  } finally {
    source.close()
  }
  let previous: string | null = null
  if (existsSync(dbPath)) {
    previous = `${dbPath}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, previous + suffix)
  }
  renameSync(incoming, dbPath)

  onStep('migrating and recording the restore point', 3, 4)
  const opened = openDb(dbPath)
  try {
    await store.recordRestorePoint(opened, point)
  } finally {
    opened.close()
  }
  noteNewestSeen(dataDir, point.at)
  onStep('done', 4, 4)
  return { file, previous, point }
}
