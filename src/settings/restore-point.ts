// The restore point (src/db/restore.ts: why and when one is recorded) is a row of system_settings,
// which this folder owns: 'restore_point' (key-value JSON): {active, at, restoredAt, how}. A later
// restore only ever moves it forward. Read by the match runner and the digest (posts created up to it
// that are fetched again send no alerts); written by `dibs restore` and the start of a process, through
// src/db/restore.ts, which its callers give these functions (src/db imports no other folder).
import { sql } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { rawRow } from '../db/raw'
import type { RestorePoint } from '../db/restore'
import { systemSettings } from '../db/schema'

export const RESTORE_POINT = 'restore_point'

/** Posts created at or before this time (ms) alert no more; null when never restored (or the row is not JSON). */
export async function restorePointAt(deps: OwnerDb): Promise<number | null> {
  // read raw: a value that is not JSON reads as no restore point (the builder's JSON column would throw)
  const row = await rawRow<{ value: unknown }>(
    asAsync(deps.db),
    sql`SELECT ${systemSettings.value} AS value FROM ${systemSettings} WHERE ${systemSettings.name} = ${RESTORE_POINT}`,
  )
  if (!row) return null
  try {
    const value = (typeof row.value === 'string' ? JSON.parse(row.value) : row.value) as { at?: unknown } | null
    return typeof value?.at === 'number' ? value.at : null
  } catch {
    return null
  }
}

/** restorePointAt, as the match runner and the digest name it. */
export const restoredUpTo = restorePointAt

/** Records the point unless one at least as late is there already (read and written in one transaction); true when written. */
export async function recordRestorePoint(deps: OwnerDb, point: RestorePoint): Promise<boolean> {
  return asAsync(deps.db).transaction(async (tx) => {
    const current = await restorePointAt({ db: tx })
    if (current !== null && current >= point.at) return false
    const set = { value: { active: true, ...point }, updatedAt: new Date(point.restoredAt) }
    await tx
      .insert(systemSettings)
      .values({ name: RESTORE_POINT, ...set, description: 'Restore point: posts created up to it that are fetched again send no alerts' })
      .onConflictDoUpdate({ target: systemSettings.name, set })
    return true
  })
}
