// The browser socket's connection rules (spec §4, §9) against a stand-in WebSocket: checking →
// success on the server's hello; on a drop, error and up to 3 reconnects 3 s apart, each after a
// session refresh; the counter resets on success; a reconnect asks listeners to refetch.
import { GlobalRegistrator } from '@happy-dom/global-registrator'
import { afterAll, describe, expect, jest, test } from 'bun:test'

GlobalRegistrator.register({ url: 'http://localhost:3000/dashboard' })

class FakeSocket {
  static all: FakeSocket[] = []
  static CLOSED = 3
  static CLOSING = 2
  readyState = 1
  onmessage: ((e: { data: string }) => void) | null = null
  onclose: ((e?: { code: number; reason: string }) => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  hello(userId: number | null = 1) {
    this.onmessage?.({ data: JSON.stringify({ type: 'hello', data: { userId } }) })
  }
  send(type: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type, data }) })
  }
  drop() {
    this.readyState = 3
    this.onclose?.()
  }
  close() {
    this.drop()
  }
  closeBy(code: number, reason: string) {
    this.readyState = 3
    this.onclose?.({ code, reason })
  }
}
;(globalThis as { WebSocket: unknown }).WebSocket = FakeSocket

const rt = await import('../../ui/realtime')
afterAll(async () => {
  jest.useRealTimers()
  await GlobalRegistrator.unregister()
})

describe('the live connection', () => {
  test('connects, retries 3 times 3 s apart after refreshing the session, then gives up; success resets the count', async () => {
    jest.useFakeTimers()
    let refreshes = 0
    const events: string[] = []
    rt.onMessage('reconnected', () => events.push('reconnected'))
    rt.onMessage('gave-up', () => events.push('gave-up'))
    rt.onMessage('match.new', (d) => events.push(`match ${d.match.id}`))
    rt.startRealtime({ refresh: async () => void refreshes++ })

    expect(rt.connection.value).toBe('checking')
    expect(FakeSocket.all[0]!.url).toBe('ws://localhost:3000/api/ws')
    FakeSocket.all[0]!.hello()
    expect(rt.connection.value).toBe('success')
    FakeSocket.all[0]!.send('match.new', { match: { id: 7 } })
    expect(events).toEqual(['match 7'])

    // Drop: error at once, a new attempt only after 3 s (and a session refresh).
    FakeSocket.all[0]!.drop()
    expect(rt.connection.value).toBe('error')
    jest.advanceTimersByTime(2999)
    expect(FakeSocket.all.length).toBe(1)
    jest.advanceTimersByTime(1)
    await Promise.resolve()
    await Promise.resolve()
    expect(refreshes).toBe(1)
    expect(FakeSocket.all.length).toBe(2)

    // It comes back: success, the counter resets, listeners refetch.
    FakeSocket.all[1]!.hello()
    expect(rt.connection.value).toBe('success')
    expect(rt.reconnectsLeft.value).toBe(3)
    expect(events).toContain('reconnected')

    // Down for good: exactly 3 more attempts, then 'gave-up'.
    let last = FakeSocket.all[1]!
    last.drop()
    for (let i = 0; i < 3; i++) {
      jest.advanceTimersByTime(3000)
      await Promise.resolve()
      await Promise.resolve()
      const next = FakeSocket.all.at(-1)!
      expect(next).not.toBe(last)
      last = next
      last.drop()
    }
    jest.advanceTimersByTime(10_000)
    await Promise.resolve()
    expect(FakeSocket.all.length).toBe(5)
    expect(events.at(-1)).toBe('gave-up')
    expect(rt.connection.value).toBe('error')
  })

  test("a close with 4401 'session revoked' tells the app at once and reconnects as a visitor, without a retry delay", () => {
    const events: string[] = []
    rt.onMessage('session-revoked', () => events.push('revoked'))
    rt.recheck()
    const before = FakeSocket.all.length
    FakeSocket.all.at(-1)!.hello(5)
    FakeSocket.all.at(-1)!.closeBy(4401, 'session revoked')
    expect(events).toEqual(['revoked'])
    expect(FakeSocket.all.length).toBe(before + 1)
    expect(rt.connection.value).toBe('checking')
    FakeSocket.all.at(-1)!.hello(1) // leave the socket following user 1, as other suites expect
  })

  test('Reload marks the reload as deliberate in session_protected', () => {
    const reload = jest.fn()
    Object.defineProperty(window.location, 'reload', { value: reload, configurable: true })
    rt.manualReload()
    expect(localStorage.getItem('session_protected')).not.toBeNull()
  })
})
