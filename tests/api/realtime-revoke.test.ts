// Issue 11 item 3: every revocation closes the revoked session's open sockets at once (4401
// 'session revoked'), and nothing more reaches them; other sessions keep theirs.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { banUser } from '../../src/auth/service'
import { SESSION_REVOKED_CLOSE } from '../../src/contract/events'
import { issueToken } from '../../src/auth/one-time-tokens'
import { createSession, SESSION_COOKIE } from '../../src/auth/session'
import { createUserWithSession, startTestServer } from '../helpers'

type Server = Awaited<ReturnType<typeof startTestServer>>
let server: Server
beforeEach(async () => {
  server = await startTestServer()
})
afterEach(async () => {
  await server?.stop()
})

function socket(cookie: string) {
  const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin: server.url, cookie } } as never)
  const types: string[] = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, reason: e.reason })))
  const hello = new Promise<void>((resolve) => {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { type: string }
      types.push(m.type)
      if (m.type === 'hello') resolve()
    }
  })
  return { ws, types, closed, hello }
}

const within = <T>(p: Promise<T>, ms = 2000) => Promise.race([p, Bun.sleep(ms).then(() => 'timeout' as const)])

async function post(path: string, cookie: string, json: unknown) {
  return fetch(server.url + path, { method: 'POST', headers: { origin: server.url, cookie, 'content-type': 'application/json' }, body: JSON.stringify(json) })
}

async function twoSessions() {
  const u = await createUserWithSession(server.deps, { email: 'sock@example.com', password: 'old-password' })
  const other = await createSession(server.deps, u.userId)
  const a = socket(u.cookie)
  const b = socket(`${SESSION_COOKIE}=${other.token}`)
  await Promise.all([a.hello, b.hello])
  return { u, a, b, otherCookie: `${SESSION_COOKIE}=${other.token}` }
}

function expectRevoked(result: unknown) {
  expect(result).toEqual({ code: SESSION_REVOKED_CLOSE.code, reason: SESSION_REVOKED_CLOSE.reason })
}

describe('revocation closes sockets', () => {
  test('sign-out on all devices closes every socket of the user; nothing more arrives', async () => {
    const { u, a, b } = await twoSessions()
    expect((await post('/api/auth/logout', u.cookie, { scope: 'global' })).status).toBe(200)
    expectRevoked(await within(a.closed))
    expectRevoked(await within(b.closed))
    server.deps.bus.emit('unread', { userId: u.userId, counts: { wts: 1, wtb: 0, gd: 0 } })
    await Bun.sleep(50)
    expect(a.types).toEqual(['hello'])
  })

  test('signing out this device closes only its socket', async () => {
    const { u, a, b } = await twoSessions()
    await post('/api/auth/logout', u.cookie, {})
    expectRevoked(await within(a.closed))
    expect(await within(b.closed, 300)).toBe('timeout')
    server.deps.bus.emit('unread', { userId: u.userId, counts: { wts: 1, wtb: 0, gd: 0 } })
    await Bun.sleep(100)
    expect(b.types).toContain('unread')
    b.ws.close()
  })

  test('a password change closes the other sessions, not the one that changed it', async () => {
    const { u, a, b } = await twoSessions()
    const r = await post('/api/me/password', u.cookie, { currentPassword: 'old-password', newPassword: 'new-password-1' })
    expect(r.status).toBe(200)
    expectRevoked(await within(a.closed))
    expectRevoked(await within(b.closed))
  })

  test('a password reset closes every socket', async () => {
    const { u, a, b } = await twoSessions()
    const token = await issueToken(server.deps, u.userId, 'reset')
    expect((await post('/api/auth/reset', '', { token, password: 'reset-password-1' })).status).toBe(200)
    expectRevoked(await within(a.closed))
    expectRevoked(await within(b.closed))
  })

  test('a ban closes every socket', async () => {
    const { u, a, b } = await twoSessions()
    await banUser(server.deps, u.userId)
    expectRevoked(await within(a.closed))
    expectRevoked(await within(b.closed))
  })

  test('signing out one device from the device list closes that device', async () => {
    const { u, a, b } = await twoSessions()
    const list = (await (await fetch(server.url + '/api/auth/sessions', { headers: { cookie: u.cookie } })).json()) as {
      sessions: { id: string; current: boolean }[]
    }
    const other = list.sessions.find((s) => !s.current)!
    const r = await fetch(server.url + `/api/auth/sessions/${other.id}`, { method: 'DELETE', headers: { origin: server.url, cookie: u.cookie } })
    expect(r.status).toBe(200)
    expectRevoked(await within(b.closed))
    expect(await within(a.closed, 300)).toBe('timeout')
    a.ws.close()
  })

  test('deleting the account closes every socket', async () => {
    const { u, a, b } = await twoSessions()
    const r = await fetch(server.url + '/api/me', {
      method: 'DELETE',
      headers: { origin: server.url, cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'old-password' }),
    })
    expect(r.status).toBe(200)
    expectRevoked(await within(a.closed))
    expectRevoked(await within(b.closed))
  })
})
