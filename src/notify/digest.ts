// Batched email digests: every DIGEST_INTERVAL_MINUTES each `batched` user whose window has
// elapsed gets one email listing the live matches made since the window opened, grouped by
// category. The window moves on whether or not there was anything to send; enqueueing the digest
// and moving the window happen in one transaction, and the dedupe key names the window, so a
// crash in between can neither lose nor repeat a digest.
import { and, asc, eq, gt, lte } from 'drizzle-orm'
import { notificationGate } from '../access/rules'
import { isPaused } from '../admin/settings'
import { accessStateOf } from '../auth/session'
import { matches, notificationPrefs, userAccess, users } from '../db/schema'
import type { Deps } from '../deps'
import { enqueueEmail } from './outbox'
import { digestEmail, type AlertCategory } from './templates'
import { unsubscribeUrl } from './unsubscribe'

export async function runDigests(deps: Pick<Deps, 'db' | 'now' | 'config'>): Promise<{ sent: number; users: number }> {
  if (isPaused(deps)) return { sent: 0, users: 0 }
  // The window is (start, end] with end one millisecond back, so a match written in the very
  // millisecond of this run belongs to the next window instead of falling between two.
  const now = new Date(deps.now().getTime() - 1)
  const intervalMs = deps.config.digestIntervalMinutes * 60_000
  const rows = deps.db
    .select({ prefs: notificationPrefs, user: users, access: userAccess })
    .from(notificationPrefs)
    .innerJoin(users, eq(users.id, notificationPrefs.userId))
    .leftJoin(userAccess, eq(userAccess.userId, users.id))
    .where(eq(notificationPrefs.emailFrequency, 'batched'))
    .all()
  let sent = 0
  let due = 0
  for (const { prefs, user, access } of rows) {
    const start = prefs.lastDigestAt ?? prefs.updatedAt ?? new Date(now.getTime() - intervalMs)
    if (now.getTime() - start.getTime() < intervalMs) continue
    due++
    const list = deps.db
      .select()
      .from(matches)
      .where(and(eq(matches.userId, user.id), eq(matches.source, 'live'), gt(matches.matchedAt, start), lte(matches.matchedAt, now)))
      .orderBy(asc(matches.matchedAt))
      .all()
    const allowed = notificationGate(accessStateOf(deps, user.email, access), now).email.allowed && user.bannedAt === null && user.emailConfirmedAt !== null
    deps.db.transaction((tx) => {
      if (list.length && allowed) {
        const items = list.map((m) => ({
          id: m.id,
          title: m.postTitle,
          url: m.postUrl,
          category: m.category as AlertCategory,
          matchedTerms: m.matchedTerms,
          author: m.postAuthor,
        }))
        const msg = digestEmail(deps.config, user.email, items, unsubscribeUrl(deps, user.id))
        if (enqueueEmail({ db: tx as unknown as Deps['db'], now: deps.now }, 'digest', msg, { userId: user.id, dedupeKey: `digest:${user.id}:${now.getTime()}` }) !== null) sent++
      }
      tx.update(notificationPrefs).set({ lastDigestAt: now }).where(eq(notificationPrefs.userId, user.id)).run()
    })
  }
  return { sent, users: due }
}
