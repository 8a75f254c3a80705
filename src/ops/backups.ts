// Automatic backups (BACKUP_INTERVAL_HOURS, default 24, 0 = off; BACKUP_KEEP, default 7): verified
// VACUUM INTO copies (src/db/backup.ts) in DATA_DIR/backups, 600 in a 700 folder, named by their
// UTC time (dibs-2026-11-24T04-40-00Z.db, so names sort by age). A copy is written under a
// temporary name and renamed only after it passed its integrity check: a file with the backup
// name is always a whole, verified database. Then the newest BACKUP_KEEP stay and older ones go.
// Only files with that name pattern are ever deleted: a backup an operator put there stays.
//
// The job looks every minute whether a backup is due (the newest one is older than the interval),
// so a server restarted daily still backs up daily, and a fresh server backs up at once.
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config'
import type { Deps } from '../deps'
import { JOB, logJob } from '../jobs/log'
import type { Job } from '../jobs/types'
import { backupDatabase } from '../db/backup'

const NAME = /^dibs-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.db$/

export const backupDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'backups')

/** dibs-2026-11-24T04-40-00Z.db for that time (seconds, UTC). */
export function backupName(at: Date): string {
  return `dibs-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.db`
}

/** The time in a backup's name, or null for a file that is not an automatic backup. */
export function backupTime(name: string): number | null {
  const m = NAME.exec(name)
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : null
}

/** The automatic backups in `dir`, newest first. */
export function listBackups(dir: string): { name: string; at: number }[] {
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {}
  return names
    .map((name) => ({ name, at: backupTime(name) }))
    .filter((b): b is { name: string; at: number } => b.at !== null)
    .sort((a, b) => b.at - a.at)
}

/** Which backups go so that the newest `keep` stay (pure). */
export function toDelete(backups: { name: string; at: number }[], keep: number): string[] {
  return [...backups]
    .sort((a, b) => b.at - a.at)
    .slice(keep)
    .map((b) => b.name)
}

export type AutoBackup = { file: string; bytes: number; integrity: string; deleted: string[]; kept: number }

/** One verified backup into DATA_DIR/backups now, then the rotation; logged to maintenance_logs. */
export async function writeBackup(
  deps: Pick<Deps, 'config' | 'db' | 'now'>,
  onStep?: (step: string, done: number, total: number) => void,
): Promise<AutoBackup> {
  const { config } = deps
  const dir = backupDir(config)
  const t0 = performance.now()
  const at = deps.now()
  const name = backupName(at)
  const partial = join(dir, `.${name}.partial`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
    rmSync(partial, { force: true })
    onStep?.('copying and verifying the database', 0, 2)
    const r = backupDatabase(config.dbPath, partial) // throws unless integrity_check says ok
    const file = join(dir, name)
    renameSync(partial, file)
    onStep?.('removing old backups', 1, 2)
    const all = listBackups(dir)
    const deleted = toDelete(all, config.backupKeep)
    for (const old of deleted) rmSync(join(dir, old), { force: true })
    onStep?.('done', 2, 2)
    const result = { file, bytes: r.bytes, integrity: r.integrity, deleted, kept: all.length - deleted.length }
    await logJob(deps, JOB.backup, 'success', Math.round(performance.now() - t0), { file: name, bytes: r.bytes, deleted: deleted.length, kept: result.kept })
    return result
  } catch (err) {
    rmSync(partial, { force: true })
    await logJob(deps, JOB.backup, 'failed', Math.round(performance.now() - t0), { file: name, error: String(err instanceof Error ? err.message : err) })
    throw err
  }
}

/** True when automatic backups are on and the newest is older than the interval (or there is none). */
export function backupDue(config: Pick<Config, 'dataDir' | 'backupIntervalHours'>, now: number): boolean {
  if (config.backupIntervalHours === 0) return false
  const newest = listBackups(backupDir(config))[0]
  return !newest || now - newest.at >= config.backupIntervalHours * 3600_000
}

/** The job of src/services.ts's jobList: looks each minute, backs up when due. None when BACKUP_INTERVAL_HOURS=0. */
export function backupJobs(config: Pick<Config, 'backupIntervalHours' | 'databaseUrl'>): Job[] {
  // PostgreSQL is backed up with pg_dump on its server (docs/operating.md): Dibs' copies are of its SQLite file
  if (config.backupIntervalHours === 0 || config.databaseUrl !== null) return []
  return [
    {
      name: JOB.backup,
      every: 60_000,
      immediate: true,
      run: (deps: Deps) => (backupDue(deps.config, deps.now().getTime()) ? writeBackup(deps) : null),
    },
  ]
}
