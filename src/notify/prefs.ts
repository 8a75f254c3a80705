// Notification preferences (spec user_notification_preferences): one row per user; no row means
// the spec's defaults, email on and web push off. "Email on" is the batched digest (every
// DIGEST_INTERVAL_MINUTES): one email per match is a choice, never the default, since a busy term
// can match many posts an hour. Gating (spec §6) is checked on every change that turns a channel
// on; turning a channel off is always allowed. Quiet hours (quiet-hours.ts) live in the same row.
import { eq } from 'drizzle-orm'
import { notificationGate, type AccessState } from '../access/rules'
import { notificationPrefs } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { badRequest, forbidden } from '../lib/errors'
import { DEFAULT_CLAIM_TEMPLATE, MAX_CLAIM_TEMPLATE } from './claim'
import { isHhmm, isTimeZone, quietSummary, type QuietHours } from './quiet-hours'

export type EmailFrequency = 'instant' | 'batched' | 'none'
export const EMAIL_FREQUENCIES: readonly EmailFrequency[] = ['instant', 'batched', 'none']
export type Prefs = { email_frequency: EmailFrequency; web_push_enabled: boolean; quiet: QuietHours | null; claim_template: string | null }
export const DEFAULT_PREFS: Prefs = { email_frequency: 'batched', web_push_enabled: false, quiet: null, claim_template: null }
/** The API's form of quiet hours; null turns them off. */
export type QuietInput = { start: string; end: string; time_zone: string } | null

/** The stored row as it is, or undefined when the account never saved preferences (Admin → Users detail). */
export async function storedPrefs(deps: OwnerDb, userId: number) {
  return (await asAsync(deps.db).select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).limit(1))[0]
}

/** The stored preferences, with what the jobs need besides: the last digest, the 'Wait before email and push' (src/notify/hold.ts). */
export async function getPrefs(deps: OwnerDb, userId: number): Promise<Prefs & { lastDigestAt: Date | null; updatedAt: Date | null; holdSeconds: number }> {
  const row = await storedPrefs(deps, userId)
  if (!row) return { ...DEFAULT_PREFS, lastDigestAt: null, updatedAt: null, holdSeconds: 0 }
  const freq = (EMAIL_FREQUENCIES as readonly string[]).includes(row.emailFrequency) ? (row.emailFrequency as EmailFrequency) : DEFAULT_PREFS.email_frequency
  const quiet = row.quietStart && row.quietEnd && row.timeZone ? { start: row.quietStart, end: row.quietEnd, timeZone: row.timeZone } : null
  return {
    email_frequency: freq,
    web_push_enabled: row.webPushEnabled,
    quiet,
    claim_template: row.claimTemplate,
    lastDigestAt: row.lastDigestAt,
    updatedAt: row.updatedAt,
    holdSeconds: row.holdSeconds,
  }
}

/** The answer of GET and PUT: the preferences, the digest interval the dialog names, the gates, quiet hours in words. */
function view(deps: Pick<Deps, 'config' | 'now'>, prefs: Prefs, access: AccessState) {
  const { email_frequency, web_push_enabled, quiet } = prefs
  return {
    email_frequency,
    web_push_enabled,
    /** the claim message (src/notify/claim.ts); null = the default, claim_template_default */
    claim_template: prefs.claim_template,
    claim_template_default: DEFAULT_CLAIM_TEMPLATE,
    quiet_hours: quiet ? { start: quiet.start, end: quiet.end, time_zone: quiet.timeZone } : null,
    quiet_summary: quietSummary(quiet),
    digest_interval_minutes: deps.config.digestIntervalMinutes,
    gates: notificationGate(access, deps.now()),
  }
}

function readQuiet(input: QuietInput): QuietHours | null {
  if (input === null) return null
  if (!isHhmm(input.start) || !isHhmm(input.end)) throw badRequest('Quiet hours need a start and an end as HH:MM (00:00–23:59).', 'INVALID_QUIET_HOURS')
  if (input.start === input.end) throw badRequest('Quiet hours must start and end at different times.', 'INVALID_QUIET_HOURS')
  if (!isTimeZone(input.time_zone)) throw badRequest(`Unknown time zone "${input.time_zone}". Use an IANA name such as Europe/Berlin.`, 'INVALID_TIME_ZONE')
  return { start: input.start, end: input.end, timeZone: input.time_zone }
}

/** A template as stored: trimmed; empty or the default itself → null (the default, which may improve later). */
function readClaimTemplate(input: string | null): string | null {
  const t = input?.trim() ?? ''
  if (t.length > MAX_CLAIM_TEMPLATE) throw badRequest(`The claim message can have at most ${MAX_CLAIM_TEMPLATE} characters.`, 'INVALID_CLAIM_TEMPLATE')
  return t === '' || t === DEFAULT_CLAIM_TEMPLATE ? null : t
}

/** The user's claim message template (src/notify/claim.ts), null for the default. */
export async function claimTemplateOf(deps: OwnerDb, userId: number): Promise<string | null> {
  return (await storedPrefs(deps, userId))?.claimTemplate ?? null
}

export async function prefsView(deps: OwnerDb & Pick<Deps, 'now' | 'config'>, userId: number, access: AccessState) {
  return view(deps, await getPrefs(deps, userId), access)
}

/**
 * Partial update; enabling a gated channel without the rank is refused with the spec's message. The
 * read and the write are one transaction, so a one-click unsubscribe or the digest's cursor written
 * meanwhile is not overwritten with what was read before it (docs/atomicity-audit.md B6).
 */
export async function updatePrefs(
  deps: OwnerDb & Pick<Deps, 'now' | 'config'>,
  userId: number,
  access: AccessState,
  change: Partial<Omit<Prefs, 'quiet'>> & { quiet_hours?: QuietInput },
) {
  const gates = notificationGate(access, deps.now())
  if (change.email_frequency !== undefined && change.email_frequency !== 'none' && !gates.email.allowed) throw forbidden(gates.email.message!, 'FEATURE_LOCKED')
  if (change.web_push_enabled === true && !gates.webPush.allowed) throw forbidden(gates.webPush.message!, 'FEATURE_LOCKED')
  return asAsync(deps.db).transaction(async (tx) => {
    const current = await getPrefs({ db: tx }, userId)
    const next: Prefs = {
      email_frequency: change.email_frequency ?? current.email_frequency,
      web_push_enabled: change.web_push_enabled ?? current.web_push_enabled,
      quiet: change.quiet_hours === undefined ? current.quiet : readQuiet(change.quiet_hours),
      claim_template: change.claim_template === undefined ? current.claim_template : readClaimTemplate(change.claim_template),
    }
    const now = deps.now()
    // Switching to batched starts the digest window now, so matches already emailed one by one
    // are not repeated in the first digest.
    const lastDigestAt = next.email_frequency === 'batched' && current.email_frequency !== 'batched' ? now : current.lastDigestAt
    const values = {
      emailFrequency: next.email_frequency,
      webPushEnabled: next.web_push_enabled,
      quietStart: next.quiet?.start ?? null,
      quietEnd: next.quiet?.end ?? null,
      timeZone: next.quiet?.timeZone ?? null,
      claimTemplate: next.claim_template,
      lastDigestAt,
      updatedAt: now,
    }
    await tx
      .insert(notificationPrefs)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: notificationPrefs.userId, set: values })
    return view(deps, next, access)
  })
}
