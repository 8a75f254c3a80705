// A local Slack incoming webhook (https://api.slack.com/messaging/webhooks): POST JSON to
// /services/T…/B…/<secret>. Answers 200 "ok"; bad JSON 400 invalid_payload; no text and no blocks
// 400 no_text; a removed webhook (`remove(url)`) 404 no_service; `rateLimit(s)` 429 with Retry-After.
import { recordingServer } from './http-recorder'

export function fakeSlack() {
  const removed = new Set<string>()
  const text = (status: number, body: string, headers: Record<string, string> = {}) => ({ status, body, headers: { 'content-type': 'text/plain', ...headers } })
  const base = recordingServer(
    () => text(200, 'ok'),
    (req) => {
      if (req.method !== 'POST' || !/^\/services\/T\w+\/B\w+\/\w+$/.test(req.path)) return text(404, 'no_service')
      if (removed.has(req.path)) return text(404, 'no_service')
      let body: { text?: string; blocks?: unknown[] }
      try {
        body = JSON.parse(req.body)
      } catch {
        return text(400, 'invalid_payload')
      }
      if (!body.text && !(Array.isArray(body.blocks) && body.blocks.length)) return text(400, 'no_text')
      return null
    },
  )
  return {
    ...base,
    hookUrl: `${base.url}/services/T0001/B0002/s3cr3tXYZ`,
    /** the workspace removes this webhook */
    remove: (hookUrl: string) => void removed.add(new URL(hookUrl).pathname),
    rateLimit(seconds: number) {
      base.failNext(text(429, 'rate_limited', { 'retry-after': String(seconds) }))
    },
  }
}
