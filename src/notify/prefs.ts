// Notification preferences (spec user_notification_preferences): one row per user; no row means
// the defaults, email on (instant) and web push off. Gating (spec §6) is checked on every change
// that turns a channel on; turning a channel off is always allowed.
import { eq } from 'drizzle-orm'
import { notificationGate, type AccessState } from '../access/rules'
import { notificationPrefs } from '../db/schema'
import type { Deps } from '../deps'
import { forbidden } from '../lib/errors'

export type EmailFrequency = 'instant' | 'batched' | 'none'
export const EMAIL_FREQUENCIES: readonly EmailFrequency[] = ['instant', 'batched', 'none']
export type Prefs = { email_frequency: EmailFrequency; web_push_enabled: boolean }
export const DEFAULT_PREFS: Prefs = { email_frequency: 'instant', web_push_enabled: false }

export function getPrefs(deps: Pick<Deps, 'db'>, userId: number): Prefs & { lastDigestAt: Date | null; updatedAt: Date | null } {
  const row = deps.db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).get()
  if (!row) return { ...DEFAULT_PREFS, lastDigestAt: null, updatedAt: null }
  const freq = (EMAIL_FREQUENCIES as readonly string[]).includes(row.emailFrequency) ? (row.emailFrequency as EmailFrequency) : 'instant'
  return { email_frequency: freq, web_push_enabled: row.webPushEnabled, lastDigestAt: row.lastDigestAt, updatedAt: row.updatedAt }
}

export function prefsView(deps: Pick<Deps, 'db' | 'now'>, userId: number, access: AccessState) {
  const { email_frequency, web_push_enabled } = getPrefs(deps, userId)
  return { email_frequency, web_push_enabled, gates: notificationGate(access, deps.now()) }
}

/** Partial update; enabling a gated channel without the rank is refused with the spec's message. */
export function updatePrefs(deps: Pick<Deps, 'db' | 'now'>, userId: number, access: AccessState, change: Partial<Prefs>) {
  const gates = notificationGate(access, deps.now())
  if (change.email_frequency !== undefined && change.email_frequency !== 'none' && !gates.email.allowed) throw forbidden(gates.email.message!, 'FEATURE_LOCKED')
  if (change.web_push_enabled === true && !gates.webPush.allowed) throw forbidden(gates.webPush.message!, 'FEATURE_LOCKED')
  const current = getPrefs(deps, userId)
  const next: Prefs = {
    email_frequency: change.email_frequency ?? current.email_frequency,
    web_push_enabled: change.web_push_enabled ?? current.web_push_enabled,
  }
  const now = deps.now()
  // Switching to batched starts the digest window now, so matches already emailed one by one
  // are not repeated in the first digest.
  const lastDigestAt = next.email_frequency === 'batched' && current.email_frequency !== 'batched' ? now : current.lastDigestAt
  const values = { emailFrequency: next.email_frequency, webPushEnabled: next.web_push_enabled, lastDigestAt, updatedAt: now }
  deps.db
    .insert(notificationPrefs)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationPrefs.userId, set: values })
    .run()
  return { ...next, gates }
}
