// A webhook receiver as a user would write one: it verifies X-Dibs-Signature (HMAC-SHA256 over
// "<X-Dibs-Timestamp>.<raw body>" with the endpoint's secret) and answers 401 when it does not
// match, 204 when it does. `secret` is set once the app has shown it.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { recordingServer, type Recorded } from './http-recorder'

export function verifySignature(secret: string, req: Pick<Recorded, 'headers' | 'body'>): boolean {
  const ts = req.headers['x-dibs-timestamp'] ?? ''
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${req.body}`).digest('hex')}`)
  const got = Buffer.from(req.headers['x-dibs-signature'] ?? '')
  return got.length === expected.length && timingSafeEqual(got, expected)
}

export function fakeWebhookReceiver() {
  const state = { secret: '' }
  const base = recordingServer(
    () => ({ status: 204 }),
    (req) => (state.secret && !verifySignature(state.secret, req) ? { status: 401, body: 'bad signature' } : null),
  )
  return { ...base, hookUrl: `${base.url}/hooks/dibs`, setSecret: (s: string) => void (state.secret = s) }
}
