// GET /api/ws against a real server: origin check, topics by session, bus events forwarded as
// {type, data}, and per-user isolation.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createUserWithSession, startTestServer } from '../helpers'

type Msg = { type: string; data: any }

function connect(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/api/ws', { headers } as never)
  const messages: Msg[] = []
  const waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = []
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as Msg
    messages.push(m)
    for (const w of [...waiters])
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(m)
      }
  }
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve()
    ws.onerror = () => reject(new Error('socket error'))
    ws.onclose = (e) => reject(new Error('closed ' + e.code))
  })
  const next = (type: string, ms = 2000) =>
    new Promise<Msg>((resolve, reject) => {
      const found = messages.find((m) => m.type === type)
      if (found) return resolve(found)
      waiters.push({ pred: (m) => m.type === type, resolve })
      setTimeout(() => reject(new Error(`no ${type} within ${ms} ms`)), ms)
    })
  return { ws, messages, opened, next }
}

describe('GET /api/ws', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.stop()
  })
  const origin = () => new URL(server.deps.config.appUrl).origin

  test('a socket from another site is refused', async () => {
    const c = connect(server.url, { origin: 'http://evil.example' })
    expect(c.opened).rejects.toThrow() // bun:test settles the promise before it returns
  })

  test('an anonymous socket follows the public feed and gets post.new', async () => {
    const c = connect(server.url, { origin: origin() })
    await c.opened
    expect((await c.next('hello')).data.userId).toBeNull()
    server.deps.bus.emit('post.new', { post: { id: 1, title: '[WTS] Trijicon RMR' } as never })
    expect((await c.next('post.new')).data.post.title).toBe('[WTS] Trijicon RMR')
    c.ws.close()
  })

  test("a signed-in socket gets its own match.new and unread, never another user's", async () => {
    const alice = await createUserWithSession(server.deps)
    const bob = await createUserWithSession(server.deps)
    const a = connect(server.url, { origin: origin(), cookie: alice.cookie })
    const b = connect(server.url, { origin: origin(), cookie: bob.cookie })
    await Promise.all([a.opened, b.opened])
    expect((await a.next('hello')).data.userId).toBe(alice.userId)
    await b.next('hello')
    server.deps.bus.emit('match.new', { userId: alice.userId, match: { id: 7, title: 'x' } as never, notify: true })
    server.deps.bus.emit('unread', { userId: alice.userId, counts: { wts: 1, wtb: 0, gd: 0 } })
    expect((await a.next('match.new')).data).toEqual({ match: { id: 7, title: 'x' } })
    expect((await a.next('unread')).data.counts.wts).toBe(1)
    await Bun.sleep(50)
    expect(b.messages.map((m) => m.type)).toEqual(['hello'])
    a.ws.close()
    b.ws.close()
  })

  test('admins follow the admin topic; others do not', async () => {
    const admin = await createUserWithSession(server.deps, { role: 'admin' })
    const user = await createUserWithSession(server.deps)
    const a = connect(server.url, { origin: origin(), cookie: admin.cookie })
    const u = connect(server.url, { origin: origin(), cookie: user.cookie })
    await Promise.all([a.opened, u.opened])
    expect((await a.next('hello')).data.admin).toBe(true)
    await u.next('hello')
    server.deps.bus.emit('scan.metric', { metric: { matchesFound: 3 } as never })
    expect((await a.next('scan.metric')).data.metric.matchesFound).toBe(3)
    await Bun.sleep(50)
    expect(u.messages.some((m) => m.type === 'scan.metric')).toBe(false)
    a.ws.close()
    u.ws.close()
  })
})
