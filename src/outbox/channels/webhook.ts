// Webhook channel: POSTs the alert as JSON to the user's URL, signed like Stripe's and GitHub's
// webhooks so the receiver can prove it came from us and is fresh:
//   X-Dibs-Timestamp: <unix seconds>
//   X-Dibs-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
// The secret is the endpoint's own (shown once when made or regenerated). Retries: 5xx, 408,
// 429 and network errors; any other 4xx fails for good (http.ts).
import { timestampedHmacHex } from '../../lib/signature'
import { randomToken } from '../../lib/tokens'
import { defineProvider, publicUrlField } from './provider'
import type { ExternalAlert } from './types'

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

export const newWebhookSecret = () => `whsec_${randomToken(24)}`

export const webhook = defineProvider({
  kind: 'webhook',
  label: 'Webhook',
  setup: 'Any HTTPS URL that accepts a JSON POST; each request is signed (X-Dibs-Signature) with a secret shown once.',
  fields: [{ name: 'url', label: 'URL', type: 'url', required: true, placeholder: 'https://example.com/hooks/dibs' }],
  async validate(deps, input, resolve) {
    const url = await publicUrlField(deps, input, 'url', 'URL', resolve)
    return { url: url.toString(), secret: newWebhookSecret(), options: {} }
  },
  // The signing secret is shown this once; the list never carries it.
  created: (ep) => ({ secret: ep.secret }),
  request: (deps, ep, alert, deliveryId) => ({ method: 'POST', url: ep.url, ...webhookRequest(alert, ep.secret ?? '', deliveryId, deps.now()) }),
})
