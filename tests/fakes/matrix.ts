// A local Matrix homeserver's send endpoint (client-server API v3): PUT
// /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId} with `Authorization: Bearer`.
// An unknown token answers 401 M_UNKNOWN_TOKEN (`revoke()` makes the token unknown, as a signed-out
// session does), no token 401 M_MISSING_TOKEN, a room the account is not in 403 M_FORBIDDEN. The
// same txnId (per token) answers the same event id without a second event, as the spec says.
// `rateLimit(ms)` scripts 429 M_LIMIT_EXCEEDED with retry_after_ms.
import { recordingServer } from './http-recorder'

export function fakeMatrix(opts: { token: string; roomId: string }) {
  const state = { token: opts.token as string | null }
  const txns = new Map<string, string>()
  const events: { roomId: string; txnId: string; content: Record<string, unknown> }[] = []
  const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
  const base = recordingServer(
    () => json(500, {}),
    (req) => {
      const m = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/]+)$/.exec(req.path)
      if (!m || req.method !== 'PUT') return json(404, { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' })
      const auth = req.headers.authorization
      if (!auth) return json(401, { errcode: 'M_MISSING_TOKEN', error: 'Missing access token' })
      if (auth !== `Bearer ${state.token}`) return json(401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: false })
      const roomId = decodeURIComponent(m[1]!)
      if (roomId !== opts.roomId) return json(403, { errcode: 'M_FORBIDDEN', error: `User not in room ${roomId}` })
      const txnId = decodeURIComponent(m[2]!)
      const known = txns.get(txnId)
      if (known) return json(200, { event_id: known })
      let content: Record<string, unknown>
      try {
        content = JSON.parse(req.body)
      } catch {
        return json(400, { errcode: 'M_NOT_JSON', error: 'Content not JSON.' })
      }
      if (content.msgtype !== 'm.text' || typeof content.body !== 'string') return json(400, { errcode: 'M_BAD_JSON', error: 'Invalid m.room.message' })
      const eventId = `$ev${events.length + 1}`
      txns.set(txnId, eventId)
      events.push({ roomId, txnId, content })
      return json(200, { event_id: eventId })
    },
  )
  return {
    ...base,
    events,
    revoke: () => void (state.token = null),
    rateLimit(ms: number) {
      base.failNext(json(429, { errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retry_after_ms: ms }))
    },
  }
}
