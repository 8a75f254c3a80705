// A full disk (or a database at its size limit) is not a bug: SQLite says SQLITE_FULL ("database
// or disk is full") and file writes say ENOSPC. src/app.ts answers 503 'Storage is full' for it and
// notes the moment here, per database handle, so /healthz (src/health/) can report it.
import { log } from './log'

export const STORAGE_FULL_MESSAGE = 'Storage is full'

/** /healthz reports 'full' for this long after the last failed write. */
export const STORAGE_FULL_REPORT_MS = 60_000

const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'])

export function isStorageFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (FULL_CODES.has(String((e as { code?: unknown }).code))) return true
  return false
}

const lastFull = new WeakMap<object, number>()

/** Records a failed write on this database handle (the key) at `at` (ms); logged once a minute. */
export function noteStorageFull(handle: object, at = Date.now(), err?: unknown) {
  if (!storageFullRecently(handle, at)) log.error('storage is full: writes fail until space is freed in DATA_DIR', { error: String(err) })
  lastFull.set(handle, at)
}

/** True when a write on this handle failed for lack of space within the last minute. */
export function storageFullRecently(handle: object, at = Date.now()): boolean {
  const t = lastFull.get(handle)
  return t !== undefined && at - t < STORAGE_FULL_REPORT_MS
}
