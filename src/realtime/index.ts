// GET /api/ws: the live stream (DESIGN.md). Same-origin only; the session cookie decides the
// topics (src/realtime/hub.ts). Server → client messages are {type, data}; the client sends
// nothing but optional {type:'ping'} keep-alives, answered with {type:'pong'}.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { readSessionToken } from '../auth/session'
import type { Hub } from './hub'

export function realtimeRoutes(deps: Deps, hub: Hub) {
  return new Elysia({ name: 'realtime' })
    .decorate('hub', hub)
    .onStart(({ server }) => {
      hub.server = server as never
    })
    .onStop(() => hub.close())
    .ws('/api/ws', {
      // Browsers always send Origin on a WebSocket handshake: refuse any other site.
      beforeHandle({ request, set }) {
        // Read per request: APP_URL may be settled only after the port is known (tests).
        const origin = request.headers.get('origin')
        if (origin !== null && origin !== new URL(deps.config.appUrl).origin) {
          set.status = 403
          return { error: { code: 'BAD_ORIGIN', message: 'Cross-site WebSocket refused.' } }
        }
      },
      open(ws) {
        const cookie = ws.data.request.headers.get('cookie')
        const raw = ws.raw
        const peer = hub.join(
          { id: ws.id, subscribe: (t) => raw.subscribe(t), unsubscribe: (t) => raw.unsubscribe(t), close: (code, reason) => raw.close(code, reason) },
          readSessionToken(cookie),
        )
        ws.send(JSON.stringify({ type: 'hello', data: { userId: peer.userId, admin: peer.admin } }))
      },
      message(ws, message) {
        const msg = typeof message === 'string' ? safeJson(message) : message
        if ((msg as { type?: string } | null)?.type === 'ping') ws.send(JSON.stringify({ type: 'pong', data: null }))
      },
      close(ws) {
        hub.leave(ws.id)
      },
    })
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
