// A user's external channels (issue 16 item 8): webhook, ntfy topic, Discord webhook, in the
// `notify_endpoints` table. Plan gate: the same as web push (spec §6: alerts beyond in-app need
// a plan with the product forum), since these are push notifications by another road.
// URLs: https only, no credentials, no loopback/private/link-local hosts (src/lib/public-url.ts;
// checked again before every send); a Discord URL must be Discord's own webhook URL. The admin may
// lift the address rules with CHANNELS_ALLOW_PRIVATE=1 (tests use it to reach local fakes).
// Secrets: a webhook's signing secret is made here and shown once (on creation and when
// regenerated); an ntfy token is write-only. Both are stored as written, like TOTP secrets: the
// server needs them in clear to sign and to send.
import { and, asc, eq, sql } from 'drizzle-orm'
import { notificationGate, type AccessState } from '../access/rules'
import type { OutboxRow } from '../db/schema'
import { notifyEndpoints } from '../db/schema'
import type { Deps } from '../deps'
import { AppError, badRequest, forbidden, notFound } from '../lib/errors'
import { checkPublicUrl, type Resolver } from '../lib/public-url'
import { randomToken } from '../lib/tokens'
import { discordChannel } from '../outbox/channels/discord'
import { ntfyChannel } from '../outbox/channels/ntfy'
import { webhookChannel } from '../outbox/channels/webhook'
import { testAlert } from './external'

export type EndpointKind = 'webhook' | 'ntfy' | 'discord'
export const ENDPOINT_KINDS: readonly EndpointKind[] = ['webhook', 'ntfy', 'discord']
export const MAX_ENDPOINTS = 10
export const LOCKED_MESSAGE = 'Webhook, ntfy and Discord alerts require a subscription'

type Row = typeof notifyEndpoints.$inferSelect
export type EndpointInput = { kind: EndpointKind; name?: string; url: string; token?: string; priority?: number; tags?: string }

const DISCORD_HOSTS = ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']

/** Discord webhook URLs show their id, never their token (the token is what lets anyone post). */
function shownUrl(r: Row): string {
  if (r.kind !== 'discord') return r.url
  return r.url.replace(/(\/api\/webhooks\/[^/]+\/).+$/, '$1…')
}

export function endpointView(r: Row) {
  const o = r.options as { priority?: number; tags?: string }
  return {
    id: r.id,
    kind: r.kind as EndpointKind,
    name: r.name,
    url: shownUrl(r),
    hasToken: r.kind === 'ntfy' && !!r.secret,
    priority: r.kind === 'ntfy' ? (o.priority ?? 3) : undefined,
    tags: r.kind === 'ntfy' ? (o.tags ?? '') : undefined,
    createdAt: r.createdAt.toISOString(),
    lastResult: r.lastResult,
    lastResultAt: r.lastResultAt?.toISOString() ?? null,
  }
}

export const externalGate = (access: AccessState, now: Date) => {
  const allowed = notificationGate(access, now).webPush.allowed
  return { allowed, message: allowed ? null : LOCKED_MESSAGE }
}

export function userEndpoints(deps: Pick<Deps, 'db'>, userId: number): Row[] {
  return deps.db.select().from(notifyEndpoints).where(eq(notifyEndpoints.userId, userId)).orderBy(asc(notifyEndpoints.id)).all()
}

export function listEndpoints(deps: Pick<Deps, 'db' | 'now'>, userId: number, access: AccessState) {
  return { channels: userEndpoints(deps, userId).map(endpointView), gate: externalGate(access, deps.now()), max: MAX_ENDPOINTS }
}

/** The URL rules of one kind; throws 400 INVALID_URL with the reason. */
export async function validateEndpointUrl(deps: Pick<Deps, 'config'>, kind: EndpointKind, raw: string, resolve?: Resolver): Promise<string> {
  const text = raw.trim()
  // Discord's own host and path first: no need to resolve a name that is refused anyway.
  if (kind === 'discord' && !deps.config.channelsAllowPrivate) {
    const u = URL.canParse(text) ? new URL(text) : null
    if (!u || !DISCORD_HOSTS.includes(u.hostname.toLowerCase()) || !/^\/api\/webhooks\/\d+\/[\w-]+\/?$/.test(u.pathname))
      throw badRequest('Enter a Discord webhook URL (https://discord.com/api/webhooks/…)', 'INVALID_URL')
  }
  const check = await checkPublicUrl(text, { allowPrivate: deps.config.channelsAllowPrivate, resolve })
  if (!check.ok) throw badRequest(check.reason, 'INVALID_URL')
  const u = check.url
  if (kind === 'ntfy' && u.pathname.replace(/\/+$/, '').split('/').filter(Boolean).length !== 1)
    throw badRequest('Enter the topic URL, e.g. https://ntfy.sh/my-secret-topic', 'INVALID_URL')
  return u.toString()
}

function assertAllowed(deps: Pick<Deps, 'now'>, access: AccessState) {
  if (!externalGate(access, deps.now()).allowed) throw forbidden(LOCKED_MESSAGE, 'FEATURE_LOCKED')
}

export async function addEndpoint(deps: Pick<Deps, 'db' | 'now' | 'config'>, userId: number, access: AccessState, input: EndpointInput, resolve?: Resolver) {
  assertAllowed(deps, access)
  const url = await validateEndpointUrl(deps, input.kind, input.url, resolve)
  const count = deps.db
    .select({ n: sql<number>`count(*)` })
    .from(notifyEndpoints)
    .where(eq(notifyEndpoints.userId, userId))
    .get()!.n
  if (count >= MAX_ENDPOINTS) throw new AppError(409, 'CHANNEL_LIMIT', `You can add up to ${MAX_ENDPOINTS} channels.`)
  const secret = input.kind === 'webhook' ? `whsec_${randomToken(24)}` : input.kind === 'ntfy' ? input.token?.trim() || null : null
  const options = input.kind === 'ntfy' ? { priority: input.priority ?? 3, tags: (input.tags ?? '').trim().slice(0, 100) } : {}
  const row = deps.db
    .insert(notifyEndpoints)
    .values({ userId, kind: input.kind, name: (input.name ?? '').trim().slice(0, 60), url, secret, options, createdAt: deps.now() })
    .returning()
    .get()
  // The signing secret is shown this once; the list never carries it.
  return { channel: endpointView(row), ...(input.kind === 'webhook' ? { secret } : {}) }
}

function ownEndpoint(deps: Pick<Deps, 'db'>, userId: number, id: number): Row {
  const row = deps.db
    .select()
    .from(notifyEndpoints)
    .where(and(eq(notifyEndpoints.id, id), eq(notifyEndpoints.userId, userId)))
    .get()
  if (!row) throw notFound('Channel not found.', 'CHANNEL_NOT_FOUND')
  return row
}

export function removeEndpoint(deps: Pick<Deps, 'db'>, userId: number, id: number) {
  ownEndpoint(deps, userId, id)
  deps.db.delete(notifyEndpoints).where(eq(notifyEndpoints.id, id)).run()
  return { id }
}

export function regenerateSecret(deps: Pick<Deps, 'db'>, userId: number, id: number) {
  const row = ownEndpoint(deps, userId, id)
  if (row.kind !== 'webhook') throw badRequest('Only webhooks have a signing secret.', 'NO_SECRET')
  const secret = `whsec_${randomToken(24)}`
  deps.db.update(notifyEndpoints).set({ secret }).where(eq(notifyEndpoints.id, id)).run()
  return { secret }
}

const senders = { webhook: webhookChannel, ntfy: ntfyChannel, discord: discordChannel }

/**
 * 'Send test': one sample alert through the channel's own sender, at once (not queued: the user
 * waits for the answer), and its outcome as the settings show it ('delivered (200)', 'failed (…)').
 */
export async function testEndpoint(deps: Pick<Deps, 'db' | 'now' | 'config'>, userId: number, access: AccessState, id: number) {
  assertAllowed(deps, access)
  const row = ownEndpoint(deps, userId, id)
  const now = deps.now()
  const fake = {
    id: 0,
    dedupeKey: `test:${row.id}:${now.getTime()}`,
    payload: { endpointId: row.id, alert: testAlert(deps.config, now) },
  } as unknown as OutboxRow
  let ok = true
  try {
    await senders[row.kind as EndpointKind](deps).send(fake)
  } catch {
    ok = false
  }
  const after = ownEndpoint(deps, userId, id)
  return { ok, result: after.lastResult ?? (ok ? 'delivered' : 'failed'), channel: endpointView(after) }
}
