// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { eq } from 'drizzle-orm'
import { alertLatency } from '../db/schema'
import type { Deps } from '../deps'

/** The alert timings of the user's matches (alert_latency rows). */
export function latencyOfUser(deps: Pick<Deps, 'db'>, userId: number) {
  return deps.db.select().from(alertLatency).where(eq(alertLatency.userId, userId)).all()
}
