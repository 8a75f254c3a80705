// Webhook channel: POSTs the alert as JSON to the user's URL, signed like Stripe's and GitHub's
// webhooks so the receiver can prove it came from us and is fresh:
//   X-Dibs-Timestamp: <unix seconds>
//   X-Dibs-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
// The secret is the endpoint's own (shown once when made or regenerated). Retries: 5xx, 408,
// 429 and network errors; any other 4xx fails for good (http.ts).
import type { Deps } from '../../deps'
import { timestampedHmacHex } from '../../lib/signature'
import { judge, postTo, readEndpoint, recording, type HttpOpts } from './http'
import type { Channel, ExternalAlert } from './types'

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${timestampedHmacHex(secret, timestamp, body)}`
}

export function webhookRequest(alert: ExternalAlert, secret: string, deliveryId: string, now: Date) {
  const body = JSON.stringify({ ...alert, deliveryId, sentAt: now.toISOString() })
  const timestamp = Math.floor(now.getTime() / 1000)
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Dibs-Webhook/1',
      'x-dibs-event': alert.type,
      'x-dibs-delivery': deliveryId,
      'x-dibs-timestamp': String(timestamp),
      'x-dibs-signature': signWebhook(secret, timestamp, body),
    },
  }
}

export function webhookChannel(deps: Pick<Deps, 'db' | 'now' | 'config'>, opts: HttpOpts = {}): Channel {
  return {
    name: 'webhook',
    async send(row) {
      const ep = readEndpoint(deps, row)
      const { alert } = row.payload as { alert: ExternalAlert }
      const req = webhookRequest(alert, ep.secret ?? '', row.dedupeKey ?? `outbox:${row.id}`, deps.now())
      judge(await recording(deps, ep.id, () => postTo(deps, ep.url, req.headers, req.body, opts)))
    },
  }
}
