// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export).
import { asc, eq } from 'drizzle-orm'
import { accessHistory, userAccess } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

/** The user's access row (undefined: none) and the history of its changes, oldest first. */
export async function accessOfUser(deps: OwnerDb, userId: number) {
  const db = asAsync(deps.db)
  return {
    access: (await db.select().from(userAccess).where(eq(userAccess.userId, userId)).limit(1))[0],
    history: await db
      .select({
        at: accessHistory.at,
        role: accessHistory.role,
        subscriptionStatus: accessHistory.subscriptionStatus,
        accessExpiresAt: accessHistory.accessExpiresAt,
        source: accessHistory.source,
      })
      .from(accessHistory)
      .where(eq(accessHistory.userId, userId))
      .orderBy(asc(accessHistory.id)),
  }
}
