// A local Pushover API (https://pushover.net/api): POST /1/messages.json, form-encoded or JSON,
// with `token` (the application) and `user` (a user key). Answers 200 {status: 1, request} with
// the X-Limit-App-* headers; a bad token or user key answers 400 {<field>: 'invalid', errors: [...],
// status: 0}; `overLimit(resetAt)` scripts the 429 an application gets when its monthly messages
// are used up (X-Limit-App-Remaining: 0, X-Limit-App-Reset).
import { randomUUID } from 'node:crypto'
import { recordingServer, type Recorded } from './http-recorder'

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
})

export function readPushover(req: Pick<Recorded, 'headers' | 'body'>): Record<string, string> {
  if (req.headers['content-type']?.includes('application/json')) return JSON.parse(req.body)
  return Object.fromEntries(new URLSearchParams(req.body))
}

export function fakePushover(opts: { appToken: string; users: string[] }) {
  const limits = { limit: 10000, remaining: 9999, reset: Math.floor(Date.now() / 1000) + 86400 * 20 }
  const base = recordingServer(
    () => json(200, { status: 1, request: randomUUID() }),
    (req) => {
      if (req.method !== 'POST' || req.path !== '/1/messages.json') return json(404, { status: 0, errors: ['not found'], request: randomUUID() })
      const f = readPushover(req)
      if (f.token !== opts.appToken) return json(400, { token: 'invalid', errors: ['application token is invalid'], status: 0, request: randomUUID() })
      if (!opts.users.includes(f.user ?? ''))
        return json(400, { user: 'invalid', errors: ['user identifier is not a valid user, group, or subscribed user key'], status: 0, request: randomUUID() })
      if (!f.message) return json(400, { message: 'cannot be blank', errors: ['message cannot be blank'], status: 0, request: randomUUID() })
      if (f.message.length > 1024 || (f.title?.length ?? 0) > 250 || (f.url?.length ?? 0) > 512)
        return json(400, { errors: ['message, title or url too long'], status: 0, request: randomUUID() })
      return null
    },
  )
  return {
    ...base,
    apiUrl: base.url,
    overLimit(resetAt: number) {
      base.failNext(
        json(
          429,
          { status: 0, errors: ['application is over its monthly message limit'], request: randomUUID() },
          {
            'x-limit-app-limit': String(limits.limit),
            'x-limit-app-remaining': '0',
            'x-limit-app-reset': String(resetAt),
          },
        ),
      )
    },
  }
}
