// Web push channel (RFC 8030 + VAPID RFC 8292 + aes128gcm RFC 8291) through web-push's request
// builder, sent with fetch. The signed VAPID JWT is cached per push-service origin (the JWT's
// audience) and reused until shortly before it expires instead of re-signing for every message;
// bench/notify.ts measures the difference. 404/410 mean the subscription is gone: it is deleted
// (and an audit row 'push.gone' by 'system' records it; src/admin/audit.ts is not imported, as
// admin/ imports the outbox).
import webpush from 'web-push'
import { recordAudit } from '../../audit/log'
import { asAsync } from '../../db/async-sqlite'
import type { Deps } from '../../deps'
import { PermanentFailure } from '../queue'
import type { Channel, ChannelStore } from './types'

/** JWTs are signed for 12 h and replaced when less than 1 h is left. */
const VAPID_TTL_S = 12 * 60 * 60
const VAPID_RENEW_BEFORE_S = 60 * 60

type Vapid = { subject: string; publicKey: string; privateKey: string }

/** Signed Authorization header values keyed by audience (push service origin). */
export class VapidHeaderCache {
  private byAudience = new Map<string, { header: string; exp: number }>()
  signed = 0
  constructor(
    private readonly vapid: Vapid,
    private readonly now: () => Date = () => new Date(),
    private readonly reuse = true,
  ) {}

  authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin
    const nowS = Math.floor(this.now().getTime() / 1000)
    const hit = this.byAudience.get(audience)
    if (this.reuse && hit && hit.exp - nowS > VAPID_RENEW_BEFORE_S) return hit.header
    const exp = nowS + VAPID_TTL_S
    const { Authorization } = webpush.getVapidHeaders(audience, this.vapid.subject, this.vapid.publicKey, this.vapid.privateKey, 'aes128gcm', exp) as {
      Authorization: string
    }
    this.signed++
    this.byAudience.set(audience, { header: Authorization, exp })
    return Authorization
  }

  forget(endpoint: string) {
    this.byAudience.delete(new URL(endpoint).origin)
  }
}

/** How pushes travel: TLS options for fetch (tests trust the fake push service's self-signed certificate) and the timeout. */
export type PushTransport = { tls?: { ca?: string; rejectUnauthorized?: boolean }; timeoutMs?: number }

export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } }
export type PushResult = { status: number }

/** One encrypted push to one subscription. Returns the push service's status; throws only on network errors. */
export async function sendPush(
  cache: VapidHeaderCache,
  target: PushTarget,
  payload: string,
  opts: { ttl?: number; urgency?: 'normal' | 'high'; transport?: PushTransport } = {},
): Promise<PushResult> {
  const details = webpush.generateRequestDetails(target, payload, {
    vapidDetails: null,
    TTL: opts.ttl ?? 24 * 60 * 60,
    urgency: opts.urgency ?? 'high',
    headers: { Authorization: cache.authorization(target.endpoint) },
  } as never) as { headers: Record<string, string | number>; body: Buffer }
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(details.headers)) if (k.toLowerCase() !== 'content-length') headers[k] = String(v)
  const res = await fetch(target.endpoint, {
    method: 'POST',
    headers,
    body: details.body,
    signal: AbortSignal.timeout(opts.transport?.timeoutMs ?? 10_000),
    ...(opts.transport?.tls ? { tls: opts.transport.tls } : {}),
  } as RequestInit)
  await res.arrayBuffer().catch(() => null)
  return { status: res.status }
}

/** Queued push rows carry {subscriptionId, message}; the subscription is read at send time. */
// The JWT's expiry is checked by push services against real time, so the cache uses the wall
// clock, not deps.now.
export function webpushChannel(
  deps: Pick<Deps, 'db' | 'config' | 'now'>,
  store: Pick<ChannelStore, 'subscription' | 'markPushDelivered' | 'deleteSubscription'>,
  { cache = new VapidHeaderCache(deps.config.secrets.vapid), transport }: { cache?: VapidHeaderCache; transport?: PushTransport } = {},
): Channel {
  return {
    name: 'push',
    async send(row) {
      const { subscriptionId, message } = row.payload as { subscriptionId: number; message: Record<string, unknown> }
      const sub = await store.subscription(deps, subscriptionId)
      if (!sub) throw new PermanentFailure('push subscription no longer exists')
      const target = { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }
      const { status } = await sendPush(cache, target, JSON.stringify(message), { transport })
      if (status >= 200 && status < 300) {
        await store.markPushDelivered(deps, sub.id)
        return
      }
      if (status === 404 || status === 410) {
        // Recorded as a system audit row: the admin Alerts page lists subscriptions removed as gone.
        await asAsync(deps.db).transaction(async (tx) => {
          await store.deleteSubscription({ db: tx }, sub.id)
          await recordAudit(
            { db: tx, now: deps.now },
            {
              actor: 'system',
              action: 'push.gone',
              target: `push_subscription:${sub.id}`,
              details: { userId: sub.userId, status, service: new URL(sub.endpoint).origin, userAgent: sub.userAgent },
            },
          )
        })
        throw new PermanentFailure(`push endpoint gone (${status}); subscription deleted`)
      }
      // A rejected JWT may be stale on the service's side: sign afresh next time.
      if (status === 401 || status === 403) cache.forget(sub.endpoint)
      if (status === 429 || status >= 500 || status === 401 || status === 403) throw new Error(`push service answered ${status}`)
      throw new PermanentFailure(`push service refused the message (${status})`)
    },
  }
}
