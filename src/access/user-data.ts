// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { asc, eq } from 'drizzle-orm'
import { accessHistory, userAccess } from '../db/schema'
import type { Deps } from '../deps'

/** The user's access row (undefined: none) and the history of its changes, oldest first. */
export function accessOfUser(deps: Pick<Deps, 'db'>, userId: number) {
  return {
    access: deps.db.select().from(userAccess).where(eq(userAccess.userId, userId)).get(),
    history: deps.db
      .select({
        at: accessHistory.at,
        role: accessHistory.role,
        subscriptionStatus: accessHistory.subscriptionStatus,
        accessExpiresAt: accessHistory.accessExpiresAt,
        source: accessHistory.source,
      })
      .from(accessHistory)
      .where(eq(accessHistory.userId, userId))
      .orderBy(asc(accessHistory.id))
      .all(),
  }
}
