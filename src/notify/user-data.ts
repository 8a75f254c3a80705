// This folder's rows of one user for the data export (src/me/export.ts, GET /api/me/export); the
// channels are endpoints.ts's userEndpoints.
import { eq } from 'drizzle-orm'
import { contactMessages, notificationPrefs, pushSubscriptions } from '../db/schema'
import type { Deps } from '../deps'

/** The user's notification preferences row (undefined: the defaults), push devices and contact messages. */
export function notifyOfUser(deps: Pick<Deps, 'db'>, userId: number) {
  return {
    prefs: deps.db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).get(),
    devices: deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).all(),
    messages: deps.db.select().from(contactMessages).where(eq(contactMessages.userId, userId)).all(),
  }
}
