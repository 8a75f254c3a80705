// Trial reminders: "ending soon" two days before an app trial ends, "ended" once it has.
// Each is sent once per trial (the notified-at columns on user_access, plus a dedupe key naming
// the trial's end, so a trial extended by an admin gets its own reminders).
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { enqueueEmail } from '../outbox/queue'
import { TRIAL_ENDING_DAYS } from '../access/rules'
import { markTrialEndedNotified, markTrialEndingNotified, trialsEndedSince, trialsEndingBy, type TrialRow } from '../access/trial-notices'
import { accountUsers, type AccountUser } from '../auth/user-rows'
import { trialEndedEmail, trialEndingEmail } from './templates'

/** The 'ending soon' window is the app's one rule (the modal's title and the prompt use it too). */
export const TRIAL_ENDING_NOTICE_MS = TRIAL_ENDING_DAYS * 24 * 60 * 60 * 1000
/** Trials that ended longer ago than this (e.g. before this feature existed) get no "ended" email. */
const ENDED_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000

export async function runTrialEmails(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>): Promise<{ ending: number; ended: number }> {
  const now = deps.now()
  const t = now.getTime()
  /** Each row with its account (in the rows' order): those confirmed and not banned. */
  const confirmed = async (rows: TrialRow[]) => {
    const accounts = await accountUsers(
      deps.db,
      rows.map((r) => r.userId),
    )
    const byId = new Map(accounts.map((u) => [u.id, u]))
    const out: { user: AccountUser; access: TrialRow }[] = []
    for (const access of rows) {
      const user = byId.get(access.userId)
      if (user !== undefined && user.emailConfirmedAt !== null && user.bannedAt === null) out.push({ user, access })
    }
    return out
  }

  const ending = await confirmed(await trialsEndingBy(deps, now, new Date(t + TRIAL_ENDING_NOTICE_MS)))
  for (const { user, access } of ending) {
    const end = access.accessExpiresAt!
    await asAsync(deps.db).transaction(async (tx) => {
      await enqueueEmail({ ...deps, db: tx }, 'trial_ending', trialEndingEmail(deps.config, user.email, end, now), {
        userId: user.id,
        dedupeKey: `trial_ending:${user.id}:${end.getTime()}`,
      })
      await markTrialEndingNotified({ db: tx }, user.id, now)
    })
  }

  const ended = await confirmed(await trialsEndedSince(deps, now, new Date(t - ENDED_LOOKBACK_MS)))
  for (const { user, access } of ended) {
    await asAsync(deps.db).transaction(async (tx) => {
      await enqueueEmail({ ...deps, db: tx }, 'trial_ended', trialEndedEmail(deps.config, user.email), {
        userId: user.id,
        dedupeKey: `trial_ended:${user.id}:${access.accessExpiresAt!.getTime()}`,
      })
      await markTrialEndedNotified({ db: tx }, user.id, now)
    })
  }
  return { ending: ending.length, ended: ended.length }
}
