// The shape every external channel provider shares (registry.ts lists them): its kind and label,
// the fields of its settings form with their validation (a wrong field is named: 400 INVALID_FIELD
// with `field`), the request one alert becomes (what 'Send test' sends and what the settings'
// "What Dibs sends" shows, secrets masked), and its reading of the service's errors. Delivery is
// generic: `providerChannel` reads the endpoint at send time, checks the URL (http.ts: SSRF rules,
// no redirects), sends, records the outcome on the endpoint and throws as the retry rules say.
// A provider that needs more (Telegram's linking by /start code and its button presses) adds
// `jobs`, which src/notify/jobs.ts schedules.
import type { Config } from '../../config'
import type { Deps } from '../../deps'
import { formatDollars, priceDropText } from '../../forums/price-history'
import type { Job } from '../../jobs/types'
import { badRequest } from '../../lib/errors'
import { checkPublicUrl, type Resolver } from '../../lib/public-url'
import { PermanentFailure } from '../queue'
import { judge, postTo, readEndpoint, recording, type Endpoint, type HttpOpts, type PostResult } from './http'
import type { Channel, ChannelStore, ExternalAlert } from './types'

export type ProviderDeps = Pick<Deps, 'db' | 'now' | 'config'>

/** One input of a provider's settings form (Notification Settings renders them from the API). */
export type FieldSpec = {
  name: string
  label: string
  type: 'url' | 'text' | 'secret' | 'textarea' | 'select'
  required: boolean
  placeholder?: string
  help?: string
  options?: { value: string; label: string }[]
}

/** What a validated form is stored as: `url` (the service address, shown), `secret` (never shown again), `options`. */
export type Stored = { url: string; secret: string | null; options: Record<string, unknown> }

export type HttpRequest = { method: 'POST' | 'PUT'; url: string; headers: Record<string, string>; body: string }

/** What providers may ask of the rest of the app (given by src/notify, which may import src/matches): its channel rows, and marking a match read. */
export type ProviderHooks = ChannelStore & { markRead(deps: Deps, userId: number, matchId: number): Promise<boolean> }

export type Provider<K extends string = string> = {
  kind: K
  label: string
  /** one sentence under the form: where to find what it asks */
  setup: string
  fields: FieldSpec[]
  /** why this installation cannot offer the kind (an admin setting is missing), else null */
  unavailable?(config: Config): string | null
  /** the form's values → what is stored; throws fieldError naming the field */
  validate(deps: Pick<Deps, 'config'>, input: Record<string, unknown>, resolve?: Resolver): Promise<Stored>
  /** what the channel list shows of it beyond kind, name, url and results (never a secret) */
  view?(ep: Endpoint, config: Config): Record<string, unknown>
  /** what adding it answers beyond the channel (a webhook's secret, Telegram's link code), shown once */
  created?(ep: Endpoint): Record<string, unknown>
  /** why it cannot send yet (Telegram before /start), else null: 'Send test' and deliveries say so */
  notReady?(ep: Endpoint, config: Config): string | null
  /** the request one alert becomes; `deliveryId` names the delivery (the outbox row's dedupe key) */
  request(deps: ProviderDeps, ep: Endpoint, alert: ExternalAlert, deliveryId: string): HttpRequest
  /** reads a non-2xx (or a 2xx that says it failed): throws RetryLater / PermanentFailure / Error with words for the user */
  judge?(r: PostResult): void
  /** background jobs the provider needs (Telegram: reading the bot's updates) */
  jobs?(hooks: ProviderHooks): Job[]
}

export const defineProvider = <K extends string>(p: Provider<K>): Provider<K> => p

/** 400 naming the field (`error.field`; the form marks that input): INVALID_URL for an address, else INVALID_FIELD. */
export function fieldError(field: string, message: string, code = field === 'url' ? 'INVALID_URL' : 'INVALID_FIELD') {
  return badRequest(message, code, { field })
}

/** A required text field, trimmed; its length capped. */
export function textField(input: Record<string, unknown>, field: string, label: string, max = 500): string {
  const v = typeof input[field] === 'string' ? (input[field] as string).trim() : ''
  if (!v) throw fieldError(field, `Enter the ${label}.`)
  if (v.length > max) throw fieldError(field, `The ${label} is too long (at most ${max} characters).`)
  return v
}

/** A URL the server will send to: the SSRF rules of src/lib/public-url.ts (again before every send). */
export async function publicUrlField(
  deps: Pick<Deps, 'config'>,
  input: Record<string, unknown>,
  field: string,
  label: string,
  resolve?: Resolver,
): Promise<URL> {
  const raw = textField(input, field, label, 2000)
  const check = await checkPublicUrl(raw, { allowPrivate: deps.config.channelsAllowPrivate, resolve })
  if (!check.ok) throw fieldError(field, check.reason, 'INVALID_URL')
  return check.url
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
export { cut }

/** The words every text channel shows: a title, lines of body, the link a tap opens. */
export function alertText(alert: ExternalAlert, appName: string): { title: string; lines: string[]; url: string } {
  if (alert.type === 'summary' && alert.summary) {
    const s = alert.summary
    const n = s.count
    const title =
      s.reason === 'quiet' ? `${n} new ${n === 1 ? 'match' : 'matches'} while you were away` : `${n} more ${n === 1 ? 'match' : 'matches'} in the last minute`
    const lines = s.matches.slice(0, 10).map((m) => cut(m.title, 200))
    if (s.matches.length > 10) lines.push(`…and ${s.matches.length - 10} more`)
    return { title, lines, url: alert.post.url }
  }
  const price = alert.post.price === null ? '' : ` · ${formatDollars(alert.post.price)}`
  const title =
    alert.type === 'test'
      ? `${appName} test notification`
      : alert.match.priceDrop
        ? priceDropText(alert.match.priceDrop)
        : `New ${alert.match.categoryLabel} match${price}`
  const lines = [alert.post.title, `Matched: ${alert.match.matchedTerms.join(', ') || 'Term'}${alert.post.author ? ` · u/${alert.post.author}` : ''}`]
  return { title, lines, url: alert.post.url }
}

/** Claim and Open links of an alert (a summary opens the dashboard). */
export function alertLinks(alert: ExternalAlert): { claim: string | null; open: string } {
  if (alert.type === 'summary') return { claim: null, open: alert.post.url }
  return { claim: alert.actions?.claim ?? null, open: alert.actions?.open ?? alert.post.url }
}

/** Sends one alert through a provider: ready check, request, SSRF-checked send, outcome recorded (`store`), retry rules. */
export async function deliver(
  deps: ProviderDeps,
  store: Pick<ChannelStore, 'recordResult'>,
  p: Provider,
  ep: Endpoint,
  alert: ExternalAlert,
  deliveryId: string,
  opts: HttpOpts = {},
): Promise<PostResult> {
  const why = p.notReady?.(ep, deps.config) ?? p.unavailable?.(deps.config) ?? null
  // the row fails with the reason, and the settings show it
  if (why) return recording(deps, store, ep.id, () => Promise.reject(new PermanentFailure(why)))
  const req = p.request(deps, ep, alert, deliveryId)
  return recording(
    deps,
    store,
    ep.id,
    () => postTo(deps, req.url, req.headers, req.body, opts, req.method),
    (r) => (p.judge ?? judge)(r),
  )
}

/** The outbox sender of a provider: rows `{endpointId, alert}` (src/notify/external.ts). */
export function providerChannel(deps: ProviderDeps, store: ChannelStore, p: Provider, opts: HttpOpts = {}): Channel {
  return {
    name: p.kind,
    async send(row) {
      const ep = await readEndpoint(deps, store, row)
      const { alert } = row.payload as { alert: ExternalAlert }
      await deliver(deps, store, p, ep, alert, row.dedupeKey ?? `outbox:${row.id}`, opts)
    },
  }
}

/** The request with the endpoint's secret and the admin's tokens masked: what the settings show as "What Dibs sends". */
export function redactedRequest(deps: ProviderDeps, p: Provider, ep: Endpoint, alert: ExternalAlert): HttpRequest {
  const req = p.request(deps, ep, alert, `preview:${ep.id}`)
  // a secret of several lines (Apprise URLs) is masked line by line too
  const secrets = [
    ep.secret,
    ...(ep.secret?.split('\n') ?? []),
    deps.config.notifyProviders.telegramBotToken,
    deps.config.notifyProviders.pushoverAppToken,
  ].filter((s): s is string => typeof s === 'string' && s.length >= 4)
  const mask = (s: string) => secrets.reduce((acc, x) => acc.split(x).join('•••'), s)
  return {
    method: req.method,
    url: mask(req.url),
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, /^(authorization|x-gotify-key|x-dibs-signature)$/i.test(k) ? '•••' : mask(v)])),
    body: mask(req.body),
  }
}
