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
import { isPaused } from '../admin/settings'
import { accessStateOf } from '../auth/session'
import { pushSubscriptions, userAccess, users } from '../db/schema'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { enqueue, enqueueEmail } from './outbox'
import { getPrefs } from './prefs'
import { categoryLabel, matchEmail, matchPageUrl, termText, type AlertCategory, type AlertMatch } from './templates'
import { unsubscribeUrl } from './unsubscribe'

/** Reads a `match.new` payload tolerantly (matchedTerms may be an array, a string or {term}). */
export function toAlertMatch(m: Record<string, unknown>): AlertMatch | null {
  const id = Number(m.id)
  const category = String(m.category ?? '') as AlertCategory
  if (!Number.isInteger(id) || !['wts', 'wtb', 'gd'].includes(category) || typeof m.title !== 'string' || typeof m.url !== 'string') return null
  const raw = m.matchedTerms ?? m.matchedTerm
  const terms = Array.isArray(raw)
    ? raw.map(String)
    : typeof raw === 'string'
      ? [raw]
      : raw && typeof raw === 'object' && 'term' in raw
        ? [String((raw as { term: unknown }).term)]
        : []
  return {
    id,
    category,
    title: m.title,
    url: m.url,
    linkUrl: typeof m.linkUrl === 'string' ? m.linkUrl : null,
    matchedTerms: terms,
    author: typeof m.author === 'string' ? m.author : null,
    postCreatedAt: typeof m.postCreatedAt === 'string' ? m.postCreatedAt : null,
  }
}

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

export function dispatchMatch(deps: Pick<Deps, 'db' | 'now' | 'config'>, userId: number, raw: Record<string, unknown>): DispatchResult {
  const none = (skipped: string): DispatchResult => ({ email: false, push: 0, skipped })
  if (isPaused(deps)) return none('paused')
  const m = toAlertMatch(raw)
  if (m === null) return none('unreadable match')
  const row = deps.db.select({ user: users, access: userAccess }).from(users).leftJoin(userAccess, eq(userAccess.userId, users.id)).where(eq(users.id, userId)).get()
  if (!row) return none('no user')
  if (row.user.bannedAt !== null || row.user.emailConfirmedAt === null) return none('user not active')
  const gates = notificationGate(accessStateOf(deps, row.user.email, row.access), deps.now())
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
  return result
}

const attached = new WeakMap<object, () => void>()

/**
 * Subscribes the dispatcher to the bus once per bus (the app and the jobs both call this).
 * Events are buffered and enqueued in one transaction on the next macrotask: the socket hub's
 * writes for the same burst go out first (a microtask would run before them), so in-app alerts
 * never wait for email/push bookkeeping. Returns a flush for callers that need it done now.
 */
export function attachDispatcher(deps: Deps): () => void {
  const existing = attached.get(deps.bus)
  if (existing) return existing
  let pending: { userId: number; match: Record<string, unknown> }[] = []
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
  attached.set(deps.bus, flush)
  deps.bus.on('match.new', ({ userId, match, notify }) => {
    if (!notify) return
    pending.push({ userId, match })
    timer ??= setTimeout(flush, 0)
  })
  return flush
}
