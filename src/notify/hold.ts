// "Wait before email and push" (opt-in, 0–120 s, default 0): a user's email and push rows for a
// match are written `waiting` with next_attempt_at = now + hold, so the outbox worker (which only claims
// `pending`) leaves them alone. (`held` is the other parked status: rows held for quiet hours, released
// as one summary by quiet-summary.ts; a row that waits here and then falls in quiet hours is released
// to `pending` and goes out at once — the hold is seconds, and quiet hours were checked when it was queued.) When the hold ends the re-check job (src/scanner/recheck.ts) reads the
// due rows' posts once (one /api/info request for the batch, on the re-check's budget share) and
// releases each row: `pending` at once if the post is still there (open or pending sale), `skipped`
// with the reason if it was removed or sold. In-app alerts never wait: the socket hub sends them
// before the dispatcher runs.
//
// When the read cannot happen (re-check off, budget busy, Reddit failing) a row waits at most
// HOLD_GRACE_MS beyond its hold, then goes by the post's stored state: a hold never loses an alert.
// Without a Reddit key there is no /api/info: the stored state changes only when a later poll of the feed
// still lists the post (a title edited to [SOLD]); the setting says so (`recheck_note`, src/forums/key-only.ts).
//
// The same cancellation covers rows that are not held: when the re-check finds a post removed or
// sold, its matches' `pending`, `waiting` and quiet-hours `held` email/push rows become `skipped` (cancelAlertsForPost). A
// row already sent is never sent again (its dedupe key stays).
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import { notificationPrefs } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { badRequest } from '../lib/errors'
import type { PostState } from '../forums/post-state'
import { postStateOf, redditIdsOf } from '../forums/store'
import { matchIdsOfPost, postsOfMatches } from '../matches/alert-reads'
import { getPrefs } from './prefs'
import { hasRedditKey, KEY_ONLY_TEXTS } from '../forums/key-only'
import { cancel, dueWaiting, release, skip, wait } from '../outbox/store'
import { NotificationsHoldGetResponse, NotificationsHoldPutResponse } from './models'
import { errors } from '../lib/models'

export const HOLD_MAX_SECONDS = 120
/** How long past its hold a row may wait for the one re-check before it goes by the stored state. */
export const HOLD_GRACE_MS = 30_000

export async function getHoldSeconds(deps: OwnerDb, userId: number): Promise<number> {
  return (await getPrefs(deps, userId)).holdSeconds
}

export async function setHoldSeconds(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, seconds: unknown): Promise<{ hold_seconds: number }> {
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0 || seconds > HOLD_MAX_SECONDS)
    throw badRequest(`The wait must be a whole number of seconds from 0 to ${HOLD_MAX_SECONDS}.`, 'INVALID_HOLD')
  // A new row keeps the other preferences at their column defaults, as src/notify/prefs.ts reads them.
  await asAsync(deps.db)
    .insert(notificationPrefs)
    .values({ userId, holdSeconds: seconds, emailFrequency: 'batched', updatedAt: deps.now() })
    .onConflictDoUpdate({ target: notificationPrefs.userId, set: { holdSeconds: seconds, updatedAt: deps.now() } })
  return { hold_seconds: seconds }
}

const tags = ['notifications']

/** What the setting adds to its answers: the maximum, and without a Reddit key the note that re-checks come only from the feed. */
function holdLimits(deps: Pick<Deps, 'config'>) {
  return { max_seconds: HOLD_MAX_SECONDS, recheck_note: hasRedditKey(deps.config) ? null : KEY_ONLY_TEXTS.hold }
}

/** GET/PUT /api/notifications/hold: the 'Wait before email and push' setting. */
export const holdRoutes = (deps: Deps) =>
  new Elysia({ name: 'notify-hold' })
    .use(authPlugin(deps))
    .get('/api/notifications/hold', async ({ user }) => ({ hold_seconds: await getHoldSeconds(deps, user.id), ...holdLimits(deps) }), {
      response: { 200: NotificationsHoldGetResponse, ...errors(401) },
      auth: true,
      detail: {
        summary: "'Wait before email and push': seconds email and push wait for a re-check of the post (0 = off)",
        description: '`recheck_note`: without a Reddit key, why the wait may not catch a sold or removed post (null with a key).',
        tags,
      },
    })
    .put('/api/notifications/hold', async ({ user, body }) => ({ ...(await setHoldSeconds(deps, user.id, body.hold_seconds)), ...holdLimits(deps) }), {
      response: { 200: NotificationsHoldPutResponse, ...errors(400, 401) },
      auth: true,
      body: t.Object({ hold_seconds: t.Unknown() }),
      detail: { summary: 'Set the wait before email and push, 0–120 s', tags },
    })

/** Called by the dispatcher after it queued a match's rows: its email and push rows wait for the user's wait (`hold`, seconds; getPrefs reads it). */
export async function holdAlerts(deps: OwnerDb & Pick<Deps, 'now'>, userId: number, matchId: number, hold: number): Promise<void> {
  if (hold <= 0) return
  await wait(deps, { userId, matchId, until: new Date(deps.now().getTime() + hold * 1000) })
}

export type HeldRow = { id: number; postId: number; redditId: string; dueAt: number }

/** Held rows whose wait is over, with their post (oldest first; rows whose match or post is gone are left out). */
export async function dueHeld(deps: Pick<Deps, 'db' | 'sqlite'>, now: number, limit = 500): Promise<HeldRow[]> {
  const rows = await dueWaiting(deps, new Date(now))
  if (rows.length === 0) return []
  // each match's post (src/matches/), then those posts' Reddit ids (src/forums/): a match or post that is gone is left out
  const ofMatch = await postsOfMatches(deps, [...new Set(rows.map((r) => r.matchId))])
  const redditIds = await redditIdsOf(
    deps,
    ofMatch.map((m) => m.postId),
  )
  const posts = new Map<number, { postId: number; redditId: string }>()
  for (const { matchId, postId } of ofMatch) {
    const redditId = redditIds.get(postId)
    if (redditId !== undefined) posts.set(matchId, { postId, redditId })
  }
  const out: HeldRow[] = []
  for (const r of rows) {
    const post = posts.get(r.matchId)
    if (post !== undefined) out.push({ id: r.id, postId: post.postId, redditId: post.redditId, dueAt: r.dueAt })
    if (out.length >= limit) break
  }
  return out
}

/** Why a row was not sent, as last_error says it. */
export function skipReason(state: PostState): string {
  return `not sent: the post was ${state === 'removed' ? 'removed' : 'marked sold'} before delivery`
}

/**
 * Releases waiting rows by their post's stored state: removed/sold → `skipped` with the reason; else
 * `pending` now. Returns how many were released to the worker (the caller wakes it).
 */
export async function releaseHeld(deps: Pick<Deps, 'db' | 'sqlite' | 'now'>, rows: HeldRow[]): Promise<{ released: number; skipped: number }> {
  const now = deps.now()
  let released = 0
  let skipped = 0
  await asAsync(deps.db).transaction(async (tx) => {
    for (const row of rows) {
      const state = ((await postStateOf({ db: tx }, row.postId)) ?? 'open') as PostState
      if (state === 'removed' || state === 'sold') skipped += await skip({ db: tx }, row.id, skipReason(state))
      else released += await release({ db: tx }, row.id, now)
    }
  })
  return { released, skipped }
}

/** The post became removed or sold: its matches' queued (pending, waiting or held) email/push rows are not sent. */
export async function cancelAlertsForPost(deps: Pick<Deps, 'db' | 'sqlite'>, postId: number, state: PostState): Promise<number> {
  if (state !== 'removed' && state !== 'sold') return 0
  return cancel(deps, await matchIdsOfPost(deps, postId), skipReason(state))
}
