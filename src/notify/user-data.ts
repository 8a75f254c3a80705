// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export); the
// channels are endpoints.ts's userEndpoints.
import { eq } from 'drizzle-orm'
import { contactMessages, notificationPrefs, pushSubscriptions } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

/** The user's notification preferences row (undefined: the defaults), push devices and contact messages. */
export async function notifyOfUser(deps: OwnerDb, userId: number) {
  const db = asAsync(deps.db)
  return {
    prefs: (await db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).limit(1))[0],
    devices: await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
    messages: await db.select().from(contactMessages).where(eq(contactMessages.userId, userId)),
  }
}
