// The restore point (src/db/restore.ts: why and when one is recorded) is a row of system_settings,
// which this folder owns: 'restore_point' (key-value JSON): {active, at, restoredAt, how}. A later
// restore only ever moves it forward. Read by the match runner and the digest (posts created up to it
// that are fetched again send no alerts); written by `dibs restore` and the start of a process, through
// src/db/restore.ts, which its callers give these functions (src/db imports no other folder).
import type { Database } from 'bun:sqlite'
import { eq } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { RestorePoint } from '../db/restore'
import { systemSettings } from '../db/schema'

export const RESTORE_POINT = 'restore_point'

/** Posts created at or before this time (ms) alert no more; null when never restored. */
export function restorePointAt(sqlite: Database): number | null {
  const row = sqlite.query<{ value: string }, [string]>('SELECT value FROM system_settings WHERE name = ?').get(RESTORE_POINT)
  if (!row) return null
  try {
    const at = (JSON.parse(row.value) as { at?: unknown }).at
    return typeof at === 'number' ? at : null
  } catch {
    return null
  }
}

/** restorePointAt on either engine (the digest): posts created at or before this time (ms) alert no more; null when never restored. */
export async function restoredUpTo(deps: OwnerDb): Promise<number | null> {
  const [row] = await asAsync(deps.db).select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.name, RESTORE_POINT)).limit(1)
  const at = (row?.value as { at?: unknown } | undefined)?.at
  return typeof at === 'number' ? at : null
}

/** Records the point unless one at least as late is there already; true when written. */
export function recordRestorePoint(sqlite: Database, point: RestorePoint): boolean {
  const current = restorePointAt(sqlite)
  if (current !== null && current >= point.at) return false
  sqlite
    .query(
      `INSERT INTO system_settings (name, value, description, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    )
    .run(
      RESTORE_POINT,
      JSON.stringify({ active: true, ...point }),
      'Restore point: posts created up to it that are fetched again send no alerts',
      point.restoredAt,
    )
  return true
}
