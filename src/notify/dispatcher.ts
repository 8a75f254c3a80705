// The dispatcher turns `match.new` bus events into queued deliveries. Order per event:
//   1. only live matches (`notify: true`) alert; nothing while the emergency pause is on;
//   2. the user must exist, be confirmed and not banned; the channel gates of spec §6 apply;
//   3. email `instant` → one queued email (dedupe `match:<id>:email`); `batched` → nothing here,
//      the digest job collects it; `none` → nothing;
//   4. web push on → one queued push per device (dedupe `match:<id>:push:<subscriptionId>`).
// The in-app channel needs nothing: the socket hub listens to the same event.
// Enqueueing is synchronous SQLite work; delivery happens in the outbox worker, so a slow SMTP
// server never slows the matcher and a failure of one channel never stops another.
import { eq } from 'drizzle-orm'
import { notificationGate } from '../access/rules'
import { userWithAccess } from '../access/state'
import type { BusEvents, MatchItem } from '../contract/events'
import { pushSubscriptions } from '../db/schema'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { enqueue, enqueueEmail } from '../outbox/queue'
import { isPaused } from '../settings/service'
import { holdAlerts } from './hold'
import { getPrefs } from './prefs'
import { categoryLabel, matchEmail, matchPageUrl, termText, type AlertMatch } from './templates'
import { unsubscribeUrl } from './unsubscribe'

/** The JSON a push carries; ui/sw.js shows it and opens `url` on click. */
export function pushMessage(deps: Pick<Deps, 'config'>, m: AlertMatch) {
  const label = categoryLabel(deps.config, m.category)
  return {
    title: `New ${label} match`,
    body: `${m.title}\nMatched: ${termText(m)}`,
    url: matchPageUrl(deps.config, m.category, m.id),
    tag: `match-${m.id}`,
    matchId: m.id,
    category: m.category,
    matchedTerm: termText(m),
    postTitle: m.title,
    postUrl: m.url,
  }
}

export type DispatchResult = { email: boolean; push: number; skipped?: string }

export function dispatchMatch(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>, userId: number, m: MatchItem): DispatchResult {
  const none = (skipped: string): DispatchResult => ({ email: false, push: 0, skipped })
  if (isPaused(deps)) return none('paused')
  const row = userWithAccess(deps, userId)
  if (!row) return none('no user')
  if (row.user.bannedAt !== null || row.user.emailConfirmedAt === null) return none('user not active')
  const gates = notificationGate(row.access, deps.now())
  const prefs = getPrefs(deps, userId)
  const result: DispatchResult = { email: false, push: 0 }

  if (prefs.email_frequency === 'instant' && gates.email.allowed) {
    const msg = matchEmail(deps.config, row.user.email, m, unsubscribeUrl(deps, userId))
    enqueueEmail(deps, 'match', msg, { userId, dedupeKey: `match:${m.id}:email` })
    result.email = true
  }
  if (prefs.web_push_enabled && gates.webPush.allowed) {
    const message = pushMessage(deps, m)
    for (const sub of deps.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).all()) {
      enqueue(deps, { channel: 'push', kind: 'match', userId, dedupeKey: `match:${m.id}:push:${sub.id}`, payload: { subscriptionId: sub.id, message } })
      result.push++
    }
  }
  holdAlerts(deps, userId, m.id) // 'Wait before email and push': src/notify/hold.ts
  return result
}

export type Dispatcher = {
  /** a `match.new` event (src/services.ts attaches this to the bus) */
  add(event: BusEvents['match.new']): void
  /** enqueue what is buffered now (a CLI process before it exits) */
  flush(): void
}

/**
 * Live matches are buffered and enqueued in one transaction on the next macrotask: the socket
 * hub's writes for the same burst go out first (a microtask would run before them), so in-app
 * alerts never wait for email/push bookkeeping.
 */
export function createDispatcher(deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus' | 'sqlite'>): Dispatcher {
  let pending: { userId: number; match: MatchItem }[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    const batch = pending
    pending = []
    if (batch.length === 0) return
    try {
      deps.sqlite.transaction(() => {
        for (const { userId, match } of batch) {
          try {
            dispatchMatch(deps, userId, match)
          } catch (err) {
            log.error('notify: dispatch failed', { userId, match: String(match.id), error: String(err) })
          }
        }
      })()
    } catch (err) {
      log.error('notify: dispatch batch failed', { count: batch.length, error: String(err) })
    }
  }
  return {
    add({ userId, match, notify }) {
      if (!notify) return
      pending.push({ userId, match })
      timer ??= setTimeout(flush, 0)
    },
    flush,
  }
}
