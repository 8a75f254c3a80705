// Per-term delivery (issue 16 item 6). Each saved term may choose its channels; in-app is always
// on. A match that several of a user's terms produced is delivered on the UNION of those terms'
// channels; a muted term contributes nothing but in-app; one "always notify" term among them
// lets the match through quiet hours. Stored on search_terms: `delivery` JSON, `muted_until`,
// `always_notify`. The rules are pure (the UI imports this file: it must not reach the database
// layer); the dispatcher and the digest job apply them to the terms read by ./term-settings.ts.
import type { EmailFrequency } from './prefs'

/** 'default' follows the user's email frequency (instant → instant, batched → digest, none → off). */
export type TermEmail = 'default' | 'instant' | 'digest' | 'off'
export const TERM_EMAIL: readonly TermEmail[] = ['default', 'instant', 'digest', 'off']

/**
 * push: on unless false (and only when the user has push on); endpoints: id → on (default on);
 * important: the term's matches reach channels set to 'important' (src/notify/endpoints.ts Control).
 */
export type TermDelivery = { email: TermEmail; push: boolean; endpoints: Record<string, boolean>; important?: boolean }
export const DEFAULT_DELIVERY: TermDelivery = { email: 'default', push: true, endpoints: {} }

/** 'Until I unmute' is stored as the largest Date (year 275760): no expiry to reach. */
export const MUTED_FOREVER = 8_640_000_000_000_000
export const MUTE_CHOICES = { '1h': 3600_000, '8h': 8 * 3600_000, '24h': 24 * 3600_000, forever: null } as const
export type MuteChoice = keyof typeof MUTE_CHOICES

export type TermSettings = { delivery: TermDelivery; mutedUntil: Date | null; alwaysNotify: boolean }

/** The stored JSON, read leniently: unknown or missing fields take the defaults. */
export function readDelivery(raw: unknown): TermDelivery {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const email = (TERM_EMAIL as readonly unknown[]).includes(o.email) ? (o.email as TermEmail) : 'default'
  const endpoints: Record<string, boolean> = {}
  if (o.endpoints && typeof o.endpoints === 'object') for (const [k, v] of Object.entries(o.endpoints)) if (typeof v === 'boolean') endpoints[k] = v
  return { email, push: o.push !== false, endpoints, ...(o.important === true ? { important: true } : {}) }
}

export function mutedUntil(choice: MuteChoice, now: Date): Date {
  const ms = MUTE_CHOICES[choice]
  return new Date(ms === null ? MUTED_FOREVER : now.getTime() + ms)
}

export const isMuted = (t: Pick<TermSettings, 'mutedUntil'>, at: Date) => t.mutedUntil !== null && t.mutedUntil.getTime() > at.getTime()

export type EmailMode = 'instant' | 'digest' | 'off'
const RANK: Record<EmailMode, number> = { off: 0, digest: 1, instant: 2 }

function termEmailMode(e: TermEmail, userFrequency: EmailFrequency): EmailMode {
  if (e !== 'default') return e
  return userFrequency === 'instant' ? 'instant' : userFrequency === 'batched' ? 'digest' : 'off'
}

/** `important`: a term marked important made the match (channels set to 'important' take it). */
export type Plan = { email: EmailMode; push: boolean; endpoints: Set<number>; bypassQuiet: boolean; important: boolean }

/**
 * What a match produced by `terms` gets, at `at`. With no term settings (an old match, or terms
 * removed since) the user's defaults apply as if one default term had matched. `endpointIds` are
 * the user's external channels (each on unless a term turns it off).
 */
export function deliveryPlan(terms: TermSettings[], userFrequency: EmailFrequency, endpointIds: number[], at: Date): Plan {
  const list = terms.length > 0 ? terms : [{ delivery: DEFAULT_DELIVERY, mutedUntil: null, alwaysNotify: false }]
  const plan: Plan = { email: 'off', push: false, endpoints: new Set(), bypassQuiet: false, important: false }
  for (const t of list) {
    if (isMuted(t, at)) continue
    const mode = termEmailMode(t.delivery.email, userFrequency)
    if (RANK[mode] > RANK[plan.email]) plan.email = mode
    if (t.delivery.push) plan.push = true
    for (const id of endpointIds) if (t.delivery.endpoints[String(id)] !== false) plan.endpoints.add(id)
    if (t.alwaysNotify) plan.bypassQuiet = true
    if (t.delivery.important) plan.important = true
  }
  return plan
}

type TermSettingsRow = { delivery: string | null; muted_until: number | null; always_notify: number }

export function termSettingsOf(r: TermSettingsRow): TermSettings {
  let raw: unknown = null
  try {
    raw = r.delivery === null ? null : JSON.parse(r.delivery)
  } catch {
    raw = null
  }
  return { delivery: readDelivery(raw), mutedUntil: r.muted_until === null ? null : new Date(r.muted_until), alwaysNotify: r.always_notify === 1 }
}
