// The trial reminders' side of user_access (src/notify/trial.ts sends them): which trials are due an
// "ending soon" or an "ended" email, and the notified-at columns that make each one go out once per
// trial. This folder owns user_access (src/db/owners.json); the users columns (confirmed, banned,
// email) are notify's to read from src/auth.
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm'
import { userAccess } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

export type TrialRow = typeof userAccess.$inferSelect

/** App trials that end after `now` and by `until`, not yet told "ending soon". */
export async function trialsEndingBy(deps: OwnerDb, now: Date, until: Date): Promise<TrialRow[]> {
  return asAsync(deps.db)
    .select()
    .from(userAccess)
    .where(
      and(
        eq(userAccess.role, 'app_trial'),
        isNull(userAccess.trialEndingNotifiedAt),
        gt(userAccess.accessExpiresAt, now),
        lte(userAccess.accessExpiresAt, until),
      ),
    )
}

/** Trials (app_trial or trial_expired) that ended by `now` and after `since`, not yet told "ended". */
export async function trialsEndedSince(deps: OwnerDb, now: Date, since: Date): Promise<TrialRow[]> {
  return asAsync(deps.db)
    .select()
    .from(userAccess)
    .where(
      and(
        inArray(userAccess.role, ['app_trial', 'trial_expired']),
        isNull(userAccess.trialEndedNotifiedAt),
        lte(userAccess.accessExpiresAt, now),
        gt(userAccess.accessExpiresAt, since),
      ),
    )
}

/** The "ending soon" email is queued (called in the transaction that queues it). */
export async function markTrialEndingNotified(deps: OwnerDb, userId: number, at: Date): Promise<void> {
  await asAsync(deps.db).update(userAccess).set({ trialEndingNotifiedAt: at }).where(eq(userAccess.userId, userId))
}

/** The "ended" email is queued (called in the transaction that queues it). */
export async function markTrialEndedNotified(deps: OwnerDb, userId: number, at: Date): Promise<void> {
  await asAsync(deps.db).update(userAccess).set({ trialEndedNotifiedAt: at }).where(eq(userAccess.userId, userId))
}
