// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { eq } from 'drizzle-orm'
import { alertLatency } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

/** The alert timings of the user's matches (alert_latency rows). */
export async function latencyOfUser(deps: OwnerDb, userId: number) {
  return asAsync(deps.db).select().from(alertLatency).where(eq(alertLatency.userId, userId))
}
