// Batched email digests: every DIGEST_INTERVAL_MINUTES each `batched` user whose window has
// elapsed gets one email listing the live matches made since the window opened, grouped by
// category. The window moves on whether or not there was anything to send; enqueueing the digest
// and moving the window happen in one transaction, and the dedupe key names the window, so a
// crash in between can neither lose nor repeat a digest.
// A user without a preferences row has the default, `batched` (src/notify/prefs.ts): the first
// window opens at the email's confirmation (at most two intervals back) and the first run that
// moves it writes the row. A match already emailed on its own (`match:<id>:email`: the user was
// on `instant` then) is never repeated in a digest.
// Per-term delivery (delivery.ts): a match goes in the digest only when the union of its terms'
// email choices is 'digest' (a term set to Digest also brings an `instant` or `none` user here;
// a term set to Off or muted at the match's time leaves it out). During quiet hours the window
// simply stays open: the first digest after them carries what came in the meantime.
import { eq, sql, type SQLWrapper } from 'drizzle-orm'
import { notificationGate } from '../access/rules'
import { usersWithAccess } from '../access/state'
import { isPaused } from '../settings/service'
import { restoredUpTo as restorePoint } from '../settings/restore-point'
import { allUserIds } from '../auth/users'
import { asAsync } from '../db/async-sqlite'
import { notificationPrefs } from '../db/schema'
import type { Deps } from '../deps'
import { enqueueEmail } from '../outbox/queue'
import { rowWithKey } from '../outbox/stats'
import type { Category } from '../access/categories'
import { liveMatchesForDigest } from '../matches/alert-reads'
import { userIdsWithDigestTerm } from '../terms/reads'
import { deliveryPlan } from './delivery'
import { matchTermSettings } from './term-settings'
import { getPrefs } from './prefs'
import { quietUntil } from './quiet-hours'
import { digestEmail } from './templates'
import { unsubscribeUrl } from './unsubscribe'

export async function runDigests(deps: Pick<Deps, 'db' | 'sqlite' | 'now' | 'config' | 'bus'>): Promise<{ sent: number; users: number }> {
  if (await isPaused(deps)) return { sent: 0, users: 0 }
  // The window is (start, end] with end one millisecond back, so a match written in the very
  // millisecond of this run belongs to the next window instead of falling between two.
  const now = new Date(deps.now().getTime() - 1)
  const intervalMs = deps.config.digestIntervalMinutes * 60_000
  // Who may be due: a `batched` user, a user without a preferences row (the default), and a user
  // with a term set to Digest (src/terms/reads.ts), by id; each with the end of their last window.
  const db = asAsync(deps.db)
  const stored = new Map(
    (
      await db
        .select({ userId: notificationPrefs.userId, emailFrequency: notificationPrefs.emailFrequency, lastDigestAt: notificationPrefs.lastDigestAt })
        .from(notificationPrefs)
    ).map((p) => [p.userId, p]),
  )
  const digestTerms = await userIdsWithDigestTerm(deps)
  const batched = (await allUserIds(deps))
    .filter((id) => {
      const p = stored.get(id)
      return p === undefined || p.emailFrequency === 'batched' || digestTerms.has(id)
    })
    .map((id) => ({ userId: id, lastDigestAt: stored.get(id)?.lastDigestAt ?? null }))
  const accounts = new Map(
    (
      await usersWithAccess(
        deps,
        batched.map((p) => p.userId),
      )
    ).map((u) => [u.user.id, u]),
  )
  // After a restored backup, posts up to the restore point were digested by the replaced database.
  const restoredUpTo = await restorePoint(deps)
  const postedAfter = restoredUpTo === null ? null : new Date(restoredUpTo)
  // A match emailed on its own has the outbox row `match:<id>:email` (src/notify/dispatcher.ts).
  const sentAlone = (matchId: SQLWrapper) => rowWithKey(deps, sql`'match:' || ${matchId} || ':email'`)
  let sent = 0
  let due = 0
  for (const prefs of batched) {
    const account = accounts.get(prefs.userId)
    if (account === undefined) continue
    const { user, access } = account
    // No digest yet: the window opened when the email was confirmed, at most two intervals back:
    // a first run that comes a little late loses nothing, and an account from before the default
    // changed does not get its whole history.
    const opened = Math.max(user.emailConfirmedAt?.getTime() ?? 0, now.getTime() - 2 * intervalMs)
    const start = prefs.lastDigestAt ?? new Date(opened)
    if (now.getTime() - start.getTime() < intervalMs) continue
    const userPrefs = await getPrefs(deps, user.id)
    if (quietUntil(userPrefs.quiet, deps.now()) !== null) continue
    due++
    // live matches of the window, none on a post found sold, removed or pending sale (the re-check, src/scanner/recheck.ts)
    const rows = await liveMatchesForDigest(deps, { userId: user.id, after: start, upTo: now, postedAfter, sentAlone })
    const list: typeof rows = []
    for (const m of rows) if (deliveryPlan(await matchTermSettings(deps, m.id), userPrefs.email_frequency, [], m.matchedAt).email === 'digest') list.push(m)
    const allowed = notificationGate(access, now).email.allowed && user.bannedAt === null && user.emailConfirmedAt !== null
    // The cursor is checked and moved in the transaction that queues the digest (docs/atomicity-audit.md
    // C10): a run that finds it moved since its read sends nothing.
    await db.transaction(async (tx) => {
      const [cursor] = await tx.select({ at: notificationPrefs.lastDigestAt }).from(notificationPrefs).where(eq(notificationPrefs.userId, user.id)).limit(1)
      if ((cursor?.at?.getTime() ?? null) !== (prefs.lastDigestAt?.getTime() ?? null)) return
      if (list.length && allowed) {
        const items = list.map((m) => ({
          id: m.id,
          title: m.postTitle,
          url: m.postUrl,
          category: m.category as Category,
          matchedTerms: m.matchedTerms,
          author: m.postAuthor,
          priceDrop: m.priceDrop,
        }))
        const msg = digestEmail(deps.config, user.email, items, unsubscribeUrl(deps, user.id))
        if (
          (await enqueueEmail({ ...deps, db: tx }, 'digest', msg, {
            userId: user.id,
            dedupeKey: `digest:${user.id}:${now.getTime()}`,
          })) !== null
        )
          sent++
      }
      await tx
        .insert(notificationPrefs)
        .values({ userId: user.id, emailFrequency: userPrefs.email_frequency, lastDigestAt: now, updatedAt: deps.now() })
        .onConflictDoUpdate({ target: notificationPrefs.userId, set: { lastDigestAt: now } })
    })
  }
  return { sent, users: due }
}
