// GET /api/ws: the live stream (DESIGN.md). Same-origin only; the session cookie decides the
// topics (src/realtime/hub.ts). A script follows its matches with a personal access token instead
// (`?token=…` or `Authorization: Bearer …`, scope read): 401 when the token is not alive, and the
// socket closes when the token is revoked or expires. Server → client messages are {type, data};
// the client sends nothing but optional {type:'ping'} keep-alives, answered with {type:'pong'}.
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { readSessionToken, validateSession, type ValidSession } from '../auth/session'
import { validateAccessToken, type TokenSession } from '../auth/access-tokens'
import { bearerToken, TOKEN_INVALID } from '../auth/token-gate'
import { scopeRefusal, tokenAllows } from '../auth/token-scopes'
import { TOKEN_REVOKED_CLOSE } from '../contract/events'
import type { Hub } from './hub'

/** The token a socket request carries (query or header), or null. */
function socketToken(request: Request): string | null {
  return new URL(request.url).searchParams.get('token') || bearerToken(request)
}

export function realtimeRoutes(deps: Deps, hub: Hub) {
  const tokens = new WeakMap<Request, TokenSession>()
  /** the cookie's session of a socket request without a token, checked before the upgrade */
  const sessions = new WeakMap<Request, ValidSession | null>()
  return new Elysia({ name: 'realtime' })
    .decorate('hub', hub)
    .onStart(({ server }) => {
      hub.server = server as never
    })
    .onStop(() => hub.close())
    .ws('/api/ws', {
      // OpenAPI 3 cannot describe a socket (an operation `ws` breaks the document): docs/api.md does.
      detail: { hide: true },
      // Browsers always send Origin on a WebSocket handshake: refuse any other site.
      async beforeHandle({ request, set }) {
        // Read per request: APP_URL may be settled only after the port is known (tests).
        const origin = request.headers.get('origin')
        if (origin !== null && origin !== new URL(deps.config.appUrl).origin) {
          set.status = 403
          return { error: { code: 'BAD_ORIGIN', message: 'Cross-site WebSocket refused.' } }
        }
        const raw = socketToken(request)
        if (raw === null) {
          sessions.set(request, await validateSession(deps, readSessionToken(request.headers.get('cookie'))))
          return
        }
        const token = await validateAccessToken(deps, raw)
        if (token === null) {
          set.status = 401
          return { error: { code: 'TOKEN_INVALID', message: TOKEN_INVALID } }
        }
        if (!tokenAllows(token.token.scopes, 'read')) {
          set.status = 403
          return { error: { code: 'TOKEN_SCOPE', message: scopeRefusal('read', '/api/ws') } }
        }
        tokens.set(request, token)
      },
      async open(ws) {
        const request = ws.data.request
        const raw = ws.raw
        // A token socket is its token's user only (never the cookie's); checked in beforeHandle.
        const presented = socketToken(request)
        const token = presented === null ? null : (tokens.get(request) ?? (await validateAccessToken(deps, presented)))
        if (presented !== null && token === null) return raw.close(TOKEN_REVOKED_CLOSE.code, TOKEN_REVOKED_CLOSE.reason)
        const session =
          token !== null ? null : sessions.has(request) ? sessions.get(request)! : await validateSession(deps, readSessionToken(request.headers.get('cookie')))
        // closed while its session was read: nothing to join
        if (raw.readyState !== WebSocket.OPEN) return
        const peer = hub.join(
          { id: ws.id, subscribe: (t) => raw.subscribe(t), unsubscribe: (t) => raw.unsubscribe(t), close: (code, reason) => raw.close(code, reason) },
          session,
          token,
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
