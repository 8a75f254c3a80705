// A local Discord webhook endpoint: POST /api/webhooks/<id>/<token> with a JSON body that has
// content or embeds answers 204 (no ?wait); a body Discord would refuse answers 400 with its
// error JSON. `rateLimit(seconds)` scripts Discord's 429: {message, retry_after, global} + Retry-After.
import { recordingServer } from './http-recorder'

export function fakeDiscord() {
  const base = recordingServer(
    () => ({ status: 204 }),
    (req) => {
      if (!/^\/api\/webhooks\/\d+\/[\w-]+$/.test(req.path)) return { status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' }
      let body: { content?: string; embeds?: unknown[] }
      try {
        body = JSON.parse(req.body)
      } catch {
        return { status: 400, body: '{"message": "Cannot send an empty message", "code": 50006}' }
      }
      if (!body.content && !(Array.isArray(body.embeds) && body.embeds.length))
        return { status: 400, body: '{"message": "Cannot send an empty message", "code": 50006}' }
      return null
    },
  )
  return {
    ...base,
    hookUrl: `${base.url}/api/webhooks/123456789/tok-en_abc`,
    rateLimit(seconds: number) {
      base.failNext({
        status: 429,
        body: JSON.stringify({ message: 'You are being rate limited.', retry_after: seconds, global: false }),
        headers: { 'content-type': 'application/json', 'retry-after': String(Math.ceil(seconds)) },
      })
    },
  }
}
