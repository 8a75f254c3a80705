// Issue 28 §1: a script follows its matches live on /api/ws with a personal access token (?token=
// or Authorization: Bearer), and the socket closes when the token is revoked or expires.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { TOKEN_REVOKED_CLOSE } from '../../src/contract/events'
import { asAsync } from '../../src/db/async-sqlite'
import { accessTokens } from '../../src/db/schema'
import { createUserWithSession, startTestServer } from '../helpers'

type Server = Awaited<ReturnType<typeof startTestServer>>
let server: Server
beforeEach(async () => {
  server = await startTestServer()
})
afterEach(async () => {
  await server?.stop()
})

const within = <T>(p: Promise<T>, ms = 3000) => Promise.race([p, Bun.sleep(ms).then(() => 'timeout' as const)])

async function newToken(cookie: string, scopes = ['read']) {
  const r = await fetch(server.url + '/api/tokens', {
    method: 'POST',
    headers: { origin: server.url, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'live', scopes }),
  })
  expect(r.status).toBe(201)
  return (await r.json()) as { id: number; token: string }
}

/** A script's socket: no Origin, no cookie; the token in the query or the header. */
function socket(token: string, via: 'query' | 'header' = 'query') {
  const base = server.url.replace(/^http/, 'ws') + '/api/ws'
  const ws =
    via === 'query'
      ? new WebSocket(`${base}?token=${encodeURIComponent(token)}`)
      : new WebSocket(base, { headers: { authorization: `Bearer ${token}` } } as never)
  const messages: { type: string; data: unknown }[] = []
  let onMessage = () => {}
  ws.onmessage = (e) => {
    messages.push(JSON.parse(String(e.data)))
    onMessage()
  }
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, reason: e.reason })))
  const next = (type: string) =>
    new Promise<{ type: string; data: unknown }>((resolve) => {
      const look = () => {
        const m = messages.find((x) => x.type === type)
        if (m) resolve(m)
      }
      onMessage = look
      look()
    })
  return { ws, messages, closed, next }
}

describe('a socket with a token', () => {
  test.each(['query', 'header'] as const)("opened with the token in the %s, it is the token's user and receives their events", async (via) => {
    const u = await createUserWithSession(server.deps)
    const { token } = await newToken(u.cookie)
    const s = socket(token, via)
    expect(await within(s.next('hello'))).toMatchObject({ data: { userId: u.userId, admin: false } })
    server.deps.bus.emit('unread', { userId: u.userId, counts: { wts: 3, wtb: 0, gd: 0 } })
    expect(await within(s.next('unread'))).toMatchObject({ data: { counts: { wts: 3 } } })
    s.ws.close()
  })

  test("an admin's token socket does not join the admin topic", async () => {
    const admin = await createUserWithSession(server.deps, { role: 'admin' })
    const { token } = await newToken(admin.cookie)
    const s = socket(token)
    expect(await within(s.next('hello'))).toMatchObject({ data: { userId: admin.userId, admin: false } })
    s.ws.close()
  })

  test('an unknown token is refused at the handshake (401)', async () => {
    const r = await fetch(server.url + '/api/ws?token=dibs_pat_nope', {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    })
    expect(r.status).toBe(401)
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('TOKEN_INVALID')
  })

  test('revoking the token closes its open socket at once; a session socket of the same user stays', async () => {
    const u = await createUserWithSession(server.deps)
    const { id, token } = await newToken(u.cookie)
    const s = socket(token)
    await within(s.next('hello'))
    const browser = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin: server.url, cookie: u.cookie } } as never)
    const browserClosed = new Promise((resolve) => (browser.onclose = resolve))
    await new Promise((resolve) => (browser.onopen = resolve))
    const r = await fetch(`${server.url}/api/tokens/${id}`, { method: 'DELETE', headers: { origin: server.url, cookie: u.cookie } })
    expect(r.status).toBe(200)
    expect(await within(s.closed)).toEqual({ code: TOKEN_REVOKED_CLOSE.code, reason: TOKEN_REVOKED_CLOSE.reason })
    expect(await within(browserClosed, 300)).toBe('timeout')
    browser.close()
  })

  test('the socket closes when its token expires', async () => {
    const u = await createUserWithSession(server.deps)
    const { id, token } = await newToken(u.cookie)
    // a token that expires in a moment (the API's shortest is a day)
    await asAsync(server.deps.db)
      .update(accessTokens)
      .set({ expiresAt: new Date(Date.now() + 400) })
      .where(eq(accessTokens.id, id))
    const s = socket(token)
    await within(s.next('hello'))
    expect(await within(s.closed)).toEqual({ code: TOKEN_REVOKED_CLOSE.code, reason: TOKEN_REVOKED_CLOSE.reason })
  })
})
