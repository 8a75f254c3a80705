// THE channel registry: every external alert channel is one provider file (the shape is
// provider.ts) plus one line in PROVIDERS below. Everything else reads from here — the outbox's
// senders (index.ts), the add/list/test routes and their validation (src/notify/endpoints.ts),
// the dispatcher, "Why didn't I get an alert?" (src/notify/explain-delivery.ts), Admin → Alerts
// (src/admin/alerts/view.ts) and the settings dialogs (the UI gets kinds, labels and fields from
// GET /api/notifications/channels). tests/unit/notify/registry.test.ts checks that every provider
// has a label, a validation, a 'Send test' and a fake-backed scenario test.
import type { Deps } from '../../deps'
import type { Job } from '../../jobs/types'
import { apprise } from './apprise'
import { discord } from './discord'
import { gotify } from './gotify'
import type { HttpOpts } from './http'
import { matrix } from './matrix'
import { ntfy } from './ntfy'
import { providerChannel, type Provider, type ProviderHooks } from './provider'
import { pushover } from './pushover'
import { slack } from './slack'
import { telegram } from './telegram'
import type { Channel, ChannelStore } from './types'
import { webhook } from './webhook'

export const PROVIDERS = [webhook, ntfy, discord, telegram, pushover, gotify, matrix, slack, apprise] as const

export type ProviderKind = (typeof PROVIDERS)[number]['kind']
export const PROVIDER_KINDS = PROVIDERS.map((p) => p.kind) as ProviderKind[]

const byKind = new Map<string, Provider>(PROVIDERS.map((p) => [p.kind, p as Provider]))

export function providerOf(kind: string): Provider | null {
  return byKind.get(kind) ?? null
}

/** The channels that are not providers: built into Dibs. */
const CORE_LABELS: Record<string, string> = { email: 'Email', push: 'Web push', inapp: 'In-app' }

/** A channel's name in texts ('Telegram', 'Web push'); an unknown kind reads as itself. */
export function channelLabel(kind: string): string {
  return CORE_LABELS[kind] ?? byKind.get(kind)?.label ?? kind
}

/** Every label, for pages that name channels (Admin → Alerts). */
export function channelLabels(): Record<string, string> {
  return { ...CORE_LABELS, ...Object.fromEntries(PROVIDERS.map((p) => [p.kind, p.label])) }
}

/** The outbox senders of every provider. */
export function providerChannels(deps: Pick<Deps, 'db' | 'now' | 'config'>, store: ChannelStore, http: HttpOpts = {}): Channel[] {
  return PROVIDERS.map((p) => providerChannel(deps, store, p as Provider, http))
}

/** The providers' background jobs (Telegram's update reader), given what they may ask of the app. */
export function providerJobs(hooks: ProviderHooks): Job[] {
  return PROVIDERS.flatMap((p) => (p as Provider).jobs?.(hooks) ?? [])
}
