// The one timestamped HMAC both signed-request directions use, Stripe's scheme: hex HMAC-SHA256 with the
// shared secret over "<unix seconds>.<raw body>". The webhook channel signs what Dibs sends with it
// (outbox/channels/webhook.ts), pushed posts are checked with it (sources/push.ts). Signing the timestamp
// with the body is what lets a receiver refuse a replay outside its window.
import { createHmac } from 'node:crypto'

export function timestampedHmacHex(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}
