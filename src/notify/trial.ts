// Trial reminders: "ending soon" two days before an app trial ends, "ended" once it has.
// Each is sent once per trial (the notified-at columns on user_access, plus a dedupe key naming
// the trial's end, so a trial extended by an admin gets its own reminders).
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm'
import { userAccess, users } from '../db/schema'
import type { Deps } from '../deps'
import { enqueueEmail } from '../outbox/queue'
import { TRIAL_ENDING_DAYS } from '../access/rules'
import { trialEndedEmail, trialEndingEmail } from './templates'

/** The 'ending soon' window is the app's one rule (the modal's title and the prompt use it too). */
export const TRIAL_ENDING_NOTICE_MS = TRIAL_ENDING_DAYS * 24 * 60 * 60 * 1000
/** Trials that ended longer ago than this (e.g. before this feature existed) get no "ended" email. */
const ENDED_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000

export async function runTrialEmails(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>): Promise<{ ending: number; ended: number }> {
  const now = deps.now()
  const t = now.getTime()
  const confirmed = (rows: { user: typeof users.$inferSelect; access: typeof userAccess.$inferSelect }[]) =>
    rows.filter((r) => r.user.emailConfirmedAt !== null && r.user.bannedAt === null)

  const ending = confirmed(
    deps.db
      .select({ user: users, access: userAccess })
      .from(userAccess)
      .innerJoin(users, eq(users.id, userAccess.userId))
      .where(
        and(
          eq(userAccess.role, 'app_trial'),
          isNull(userAccess.trialEndingNotifiedAt),
          gt(userAccess.accessExpiresAt, now),
          lte(userAccess.accessExpiresAt, new Date(t + TRIAL_ENDING_NOTICE_MS)),
        ),
      )
      .all(),
  )
  for (const { user, access } of ending) {
    const end = access.accessExpiresAt!
    deps.db.transaction((tx) => {
      enqueueEmail({ db: tx as unknown as Deps['db'], now: deps.now, bus: deps.bus }, 'trial_ending', trialEndingEmail(deps.config, user.email, end, now), {
        userId: user.id,
        dedupeKey: `trial_ending:${user.id}:${end.getTime()}`,
      })
      tx.update(userAccess).set({ trialEndingNotifiedAt: now }).where(eq(userAccess.userId, user.id)).run()
    })
  }

  const ended = confirmed(
    deps.db
      .select({ user: users, access: userAccess })
      .from(userAccess)
      .innerJoin(users, eq(users.id, userAccess.userId))
      .where(
        and(
          inArray(userAccess.role, ['app_trial', 'trial_expired']),
          isNull(userAccess.trialEndedNotifiedAt),
          lte(userAccess.accessExpiresAt, now),
          gt(userAccess.accessExpiresAt, new Date(t - ENDED_LOOKBACK_MS)),
        ),
      )
      .all(),
  )
  for (const { user, access } of ended) {
    deps.db.transaction((tx) => {
      enqueueEmail({ db: tx as unknown as Deps['db'], now: deps.now, bus: deps.bus }, 'trial_ended', trialEndedEmail(deps.config, user.email), {
        userId: user.id,
        dedupeKey: `trial_ended:${user.id}:${access.accessExpiresAt!.getTime()}`,
      })
      tx.update(userAccess).set({ trialEndedNotifiedAt: now }).where(eq(userAccess.userId, user.id)).run()
    })
  }
  return { ending: ending.length, ended: ended.length }
}
