// A user's external channels (issue 16 item 8, issue 27 §3–4), in the `notify_endpoints` table: one
// row per channel of a kind the registry knows (src/outbox/channels/registry.ts: webhook, ntfy,
// Discord, Telegram, Pushover, Gotify, Matrix, Slack, Apprise). Everything kind-specific — the form's
// fields, their validation, what the list shows, what adding answers, the request — is the
// provider's; this file is the same for every kind. Plan gate: the same as web push (spec §6: alerts
// beyond in-app need a plan with the product forum), since these are push notifications by another road.
// URLs: https only, no credentials, no loopback/private/link-local hosts (src/lib/public-url.ts;
// checked again before every send); the admin may lift the address rules with CHANNELS_ALLOW_PRIVATE=1
// (tests use it to reach local fakes). Secrets (a webhook's signing secret, tokens, user keys) are
// stored as written, like TOTP secrets: the server needs them in clear to send; the list never
// carries them.
// Per-channel control (options.control): `level` 'all' | 'important' (only price drops and terms
// marked important), `ratePerMinute` (at most N alerts a minute; the rest fold into one message:
// src/notify/dispatcher.ts and quiet-summary.ts).
import { and, asc, eq, sql } from 'drizzle-orm'
import { notificationGate, type AccessState } from '../access/rules'
import { notifyEndpoints } from '../db/schema'
import { engineOf, type OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import type { Deps } from '../deps'
import { AppError, badRequest, forbidden, notFound } from '../lib/errors'
import type { Resolver } from '../lib/public-url'
import { newWebhookSecret } from '../outbox/channels/webhook'
import { deliver, redactedRequest, type Provider } from '../outbox/channels/provider'
import { PROVIDERS, PROVIDER_KINDS, providerOf, type ProviderKind } from '../outbox/channels/registry'
import { testAlert } from './external'

export type EndpointKind = ProviderKind
export const ENDPOINT_KINDS: readonly EndpointKind[] = PROVIDER_KINDS
export const MAX_ENDPOINTS = 10
export const LOCKED_MESSAGE = 'Alerts on other channels (webhooks, chat apps, push services) require a subscription'
export const MAX_RATE_PER_MINUTE = 60

type Row = typeof notifyEndpoints.$inferSelect
export type Level = 'all' | 'important'
export type Control = { level: Level; ratePerMinute: number | null }
export const DEFAULT_CONTROL: Control = { level: 'all', ratePerMinute: null }
export type EndpointInput = { kind: string; name?: string; level?: Level; ratePerMinute?: number | null } & Record<string, unknown>

/** The channel's control (level, cap), read leniently. */
export function controlOf(r: Pick<Row, 'options'>): Control {
  const c = ((r.options as { control?: Partial<Control> }).control ?? {}) as Partial<Control>
  const rate = typeof c.ratePerMinute === 'number' && c.ratePerMinute >= 1 ? Math.floor(c.ratePerMinute) : null
  return { level: c.level === 'important' ? 'important' : 'all', ratePerMinute: rate }
}

const provider = (kind: string): Provider => {
  const p = providerOf(kind)
  if (!p) throw badRequest(`Unknown channel kind: ${kind}`, 'INVALID_KIND')
  return p
}

export function endpointView(r: Row, config: Deps['config']) {
  const p = providerOf(r.kind)
  return {
    id: r.id,
    kind: r.kind as EndpointKind,
    label: p?.label ?? r.kind,
    name: r.name,
    url: r.url,
    createdAt: r.createdAt.toISOString(),
    lastResult: r.lastResult,
    lastResultAt: r.lastResultAt?.toISOString() ?? null,
    /** the last delivery failed: the settings show its words as an alert */
    failing: r.lastResult?.startsWith('failed') ?? false,
    ...controlOf(r),
    ...p?.view?.(r, config),
  }
}

/** The kinds the add form offers: label, one line of setup, the fields, and why a kind is unavailable here. */
export function kindsView(config: Deps['config']) {
  return PROVIDERS.map((p) => ({
    kind: p.kind,
    label: p.label,
    setup: p.setup,
    fields: p.fields,
    unavailable: (p as Provider).unavailable?.(config) ?? null,
  }))
}

export const externalGate = (access: AccessState, now: Date) => {
  const allowed = notificationGate(access, now).webPush.allowed
  return { allowed, message: allowed ? null : LOCKED_MESSAGE }
}

export async function userEndpoints(deps: OwnerDb, userId: number): Promise<Row[]> {
  return asAsync(deps.db).select().from(notifyEndpoints).where(eq(notifyEndpoints.userId, userId)).orderBy(asc(notifyEndpoints.id))
}

export async function listEndpoints(deps: OwnerDb & Pick<Deps, 'now' | 'config'>, userId: number, access: AccessState) {
  return {
    channels: (await userEndpoints(deps, userId)).map((r) => endpointView(r, deps.config)),
    kinds: kindsView(deps.config),
    gate: externalGate(access, deps.now()),
    max: MAX_ENDPOINTS,
    maxRatePerMinute: MAX_RATE_PER_MINUTE,
  }
}

function assertAllowed(deps: Pick<Deps, 'now'>, access: AccessState) {
  if (!externalGate(access, deps.now()).allowed) throw forbidden(LOCKED_MESSAGE, 'FEATURE_LOCKED')
}

/** Validates a control change (400 INVALID_FIELD naming `level` or `ratePerMinute`). */
function readControl(input: { level?: unknown; ratePerMinute?: unknown }, current: Control): Control {
  const next = { ...current }
  if (input.level !== undefined) {
    if (input.level !== 'all' && input.level !== 'important') throw badRequest("Level is 'all' or 'important'.", 'INVALID_FIELD', { field: 'level' })
    next.level = input.level
  }
  if (input.ratePerMinute !== undefined) {
    const n = input.ratePerMinute
    if (n !== null && (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_RATE_PER_MINUTE))
      throw badRequest(`The cap is a whole number of alerts per minute from 1 to ${MAX_RATE_PER_MINUTE}, or none.`, 'INVALID_FIELD', { field: 'ratePerMinute' })
    next.ratePerMinute = n as number | null
  }
  return next
}

/**
 * The count and the insert are one transaction, so two adds at once cannot pass the limit together
 * (docs/atomicity-audit.md A5). The provider's check (a network call) comes before it.
 */
export async function addEndpoint(deps: Pick<Deps, 'db' | 'now' | 'config'>, userId: number, access: AccessState, input: EndpointInput, resolve?: Resolver) {
  assertAllowed(deps, access)
  const p = provider(input.kind)
  const why = p.unavailable?.(deps.config)
  if (why) throw badRequest(why, 'KIND_UNAVAILABLE')
  const control = readControl(input, DEFAULT_CONTROL)
  const stored = await p.validate(deps, input, resolve)
  const row = await asAsync(deps.db).transaction(async (tx) => {
    const [count] = await tx
      .select({ n: sql<number>`count(*)` })
      .from(notifyEndpoints)
      .where(eq(notifyEndpoints.userId, userId))
    if (Number(count!.n) >= MAX_ENDPOINTS) throw new AppError(409, 'CHANNEL_LIMIT', `You can add up to ${MAX_ENDPOINTS} channels.`)
    const [made] = await tx
      .insert(notifyEndpoints)
      .values({
        userId,
        kind: p.kind,
        name: (typeof input.name === 'string' ? input.name : '').trim().slice(0, 60),
        url: stored.url,
        secret: stored.secret,
        options: { ...stored.options, control },
        createdAt: deps.now(),
      })
      .returning()
    return made!
  })
  return { channel: endpointView(row, deps.config), ...p.created?.(row) }
}

async function ownEndpoint(deps: OwnerDb, userId: number, id: number): Promise<Row> {
  const [row] = await asAsync(deps.db)
    .select()
    .from(notifyEndpoints)
    .where(and(eq(notifyEndpoints.id, id), eq(notifyEndpoints.userId, userId)))
    .limit(1)
  if (!row) throw notFound('Channel not found.', 'CHANNEL_NOT_FOUND')
  return row
}

/** PATCH: the name and the per-channel control (level, cap per minute). */
/**
 * PATCH: the name and the per-channel control (level, cap per minute). The read and the write of
 * the options are one transaction, so a Telegram link written meanwhile is not lost
 * (docs/atomicity-audit.md C6).
 */
export async function updateEndpoint(
  deps: OwnerDb & Pick<Deps, 'config'>,
  userId: number,
  id: number,
  change: { name?: string; level?: unknown; ratePerMinute?: unknown },
) {
  const updated = await asAsync(deps.db).transaction(async (tx) => {
    const row = await ownEndpoint({ db: tx }, userId, id)
    const control = readControl(change, controlOf(row))
    const name = change.name === undefined ? row.name : change.name.trim().slice(0, 60)
    const [changed] = await tx
      .update(notifyEndpoints)
      .set({ name, options: { ...row.options, control } })
      .where(eq(notifyEndpoints.id, id))
      .returning()
    return changed!
  })
  return { channel: endpointView(updated, deps.config) }
}

export async function removeEndpoint(deps: OwnerDb, userId: number, id: number) {
  await ownEndpoint(deps, userId, id)
  await asAsync(deps.db).delete(notifyEndpoints).where(eq(notifyEndpoints.id, id))
  return { id }
}

export async function regenerateSecret(deps: OwnerDb, userId: number, id: number) {
  const row = await ownEndpoint(deps, userId, id)
  if (row.kind !== 'webhook') throw badRequest('Only webhooks have a signing secret.', 'NO_SECRET')
  const secret = newWebhookSecret()
  await asAsync(deps.db).update(notifyEndpoints).set({ secret }).where(eq(notifyEndpoints.id, id))
  return { secret }
}

/**
 * 'Send test': one sample alert through the channel's own provider, at once (not queued: the user
 * waits for the answer), and its outcome as the settings show it ('delivered (200)', 'failed (…)').
 */
export async function testEndpoint(deps: Pick<Deps, 'db' | 'now' | 'config'>, userId: number, access: AccessState, id: number) {
  assertAllowed(deps, access)
  const row = await ownEndpoint(deps, userId, id)
  const now = deps.now()
  let ok = true
  try {
    await deliver(deps, { recordResult: recordEndpointResult }, provider(row.kind), row, testAlert(deps.config, now), `test:${row.id}:${now.getTime()}`)
  } catch {
    ok = false
  }
  const after = await ownEndpoint(deps, userId, id)
  return { ok, result: after.lastResult ?? (ok ? 'delivered' : 'failed'), channel: endpointView(after, deps.config) }
}

/** "What Dibs sends": the request of the sample alert, secrets masked. */
export async function endpointPayload(deps: Pick<Deps, 'db' | 'now' | 'config'>, userId: number, id: number) {
  const row = await ownEndpoint(deps, userId, id)
  return { request: redactedRequest(deps, provider(row.kind), row, testAlert(deps.config, deps.now())) }
}

// The outbox's senders read and write the channels through these (src/notify/channel-store.ts gives
// them to src/outbox/channels, which may not import this folder: it imports the outbox).

/** An external channel by id, whoever owns it; null once removed. */
export async function endpointById(deps: OwnerDb, id: number): Promise<Row | null> {
  return (await asAsync(deps.db).select().from(notifyEndpoints).where(eq(notifyEndpoints.id, id)).limit(1))[0] ?? null
}

/** The outcome of a send on the channel, in words ('delivered (204)', 'failed (…)'; 300 characters at most), and its time. */
export async function recordEndpointResult(deps: OwnerDb & Pick<Deps, 'now'>, id: number, result: string): Promise<void> {
  await asAsync(deps.db)
    .update(notifyEndpoints)
    .set({ lastResult: result.slice(0, 300), lastResultAt: deps.now() })
    .where(eq(notifyEndpoints.id, id))
}

/** A Telegram channel whose options' `key` is this JSON value (SQLite: json_extract of the text; PostgreSQL: the jsonb member). */
function telegramWithOption(db: OwnerDb['db'], key: 'linkCode' | 'chatId', value: string | number) {
  const member =
    engineOf(db) === 'postgres'
      ? sql`${notifyEndpoints.options} -> ${key} = ${JSON.stringify(value)}::jsonb`
      : sql`json_extract(${notifyEndpoints.options}, ${`$.${key}`}) = ${value}`
  return and(eq(notifyEndpoints.kind, 'telegram'), member)
}

/** Telegram: the channel whose one-time link code (options.linkCode) this is, linked or not; null when none. */
export async function telegramEndpointByLinkCode(deps: OwnerDb, code: string): Promise<Row | null> {
  return (
    (
      await asAsync(deps.db)
        .select()
        .from(notifyEndpoints)
        .where(telegramWithOption(deps.db, 'linkCode', code))
        .limit(1)
    )[0] ?? null
  )
}

/** Telegram: the channel is linked to a chat: its options (the chat) and the address shown change, its last result reads 'linked'. */
export async function markTelegramLinked(deps: OwnerDb & Pick<Deps, 'now'>, id: number, options: Record<string, unknown>, url: string): Promise<void> {
  await asAsync(deps.db).update(notifyEndpoints).set({ options, url, lastResult: 'linked', lastResultAt: deps.now() }).where(eq(notifyEndpoints.id, id))
}

/** Telegram: the users whose channels are linked to this chat (options.chatId). */
export async function telegramChatOwners(deps: OwnerDb, chatId: number): Promise<number[]> {
  const rows = await asAsync(deps.db)
    .select({ userId: notifyEndpoints.userId })
    .from(notifyEndpoints)
    .where(telegramWithOption(deps.db, 'chatId', chatId))
  return rows.map((r) => r.userId)
}
