// Issue 12 item 2: the server pushes access.changed at the moment a trial or gifted period ends
// (one timer for the next expiry, re-armed on every change), so an open tab locks at once.
import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accessExpiryWatch, type ExpiryWatch } from '../../src/access/expiry'
import { asAsync } from '../../src/db/async-sqlite'
import { grantPlan } from '../../src/access/service'
import { userAccess } from '../../src/db/schema'
import { attachListeners } from '../../src/services'
import { createUserWithSession, makeDeps, startTestServer, testClock, type TestDeps } from '../helpers'
import { until } from '../pg'

/** Timers under test control: the pending callback and its delay. */
function fakeTimers() {
  const pending: { fn: () => void; delay: number; id: number }[] = []
  let seq = 0
  return {
    pending,
    setTimeout: ((fn: () => void, delay: number) => {
      const t = { fn, delay, id: ++seq }
      pending.push(t)
      return t
    }) as unknown as typeof setTimeout,
    clearTimeout: ((t: { id: number }) => {
      const i = pending.findIndex((p) => p.id === t?.id)
      if (i >= 0) pending.splice(i, 1)
    }) as unknown as typeof clearTimeout,
  }
}

/** Runs `act`, then waits until the watch has re-armed for another expiry (it reads the database first: on PostgreSQL over the wire). */
async function rearmedAfter(watch: ExpiryWatch, act: () => unknown) {
  const before = watch.nextAt
  await act()
  await until(() => watch.nextAt !== before, 'the expiry watch to re-arm')
}

let deps: TestDeps | null = null
afterEach(() => {
  deps?.close()
  deps = null
})

describe('the access expiry watch', () => {
  test('arms for the next expiry, announces exactly the users whose access ended, and re-arms', async () => {
    const clock = testClock(1_763_640_000_000)
    const d = (deps = await makeDeps({}, clock))
    const a = await createUserWithSession(d, { role: 'app_trial', accessExpiresAt: new Date(clock.now().getTime() + 5_000) })
    const b = await createUserWithSession(d, { role: 'gd', accessExpiresAt: new Date(clock.now().getTime() + 60_000) })
    await createUserWithSession(d, { role: 'product+gd', accessExpiresAt: null })
    const timers = fakeTimers()
    const watch = accessExpiryWatch(d, timers)
    const seen: number[] = []
    d.bus.on('access.changed', (e) => seen.push(e.userId))
    attachListeners(d, { expiry: watch })
    await watch.rearm()
    expect(timers.pending.map((t) => t.delay)).toEqual([5_000])

    clock.advance(5_000)
    await rearmedAfter(watch, () => timers.pending.shift()!.fn()) // the firing reads the database, then re-arms
    expect(seen).toEqual([a.userId])
    expect(timers.pending.map((t) => t.delay)).toEqual([55_000])

    // a grant moves b's expiry earlier: the watch re-arms for it
    await rearmedAfter(watch, () => grantPlan(d, b.userId, 'gd', new Date(clock.now().getTime() + 10_000), 'test')) // the re-arm the event started (an async listener) reads the next expiry
    expect(timers.pending.map((t) => t.delay)).toEqual([10_000])
    clock.advance(10_000)
    await rearmedAfter(watch, () => timers.pending.shift()!.fn()) // the firing reads the database, then re-arms
    expect(seen.filter((id) => id === b.userId).length).toBe(2) // the grant, then the expiry
    expect(timers.pending).toEqual([]) // nothing left to expire
    expect((await asAsync(d.db).select().from(userAccess).where(eq(userAccess.userId, b.userId)).limit(1))[0]!.accessExpiresAt!.getTime()).toBe(
      clock.now().getTime(),
    )
    watch.stop()
  })

  test('expiries beyond setTimeout’s range are reached in hops', async () => {
    const clock = testClock(1_763_640_000_000)
    const d = (deps = await makeDeps({}, clock))
    await createUserWithSession(d, { role: 'gd', accessExpiresAt: new Date(clock.now().getTime() + 90 * 86_400_000) })
    const timers = fakeTimers()
    const watch = accessExpiryWatch(d, timers)
    await watch.rearm()
    expect(timers.pending[0]!.delay).toBe(2 ** 31 - 1)
    watch.stop()
  })
})

describe('on a real server', () => {
  test('an open socket gets access.changed when the trial ends, without any request', async () => {
    const server = await startTestServer()
    try {
      const u = await createUserWithSession(server.deps, { role: 'app_trial', subscriptionStatus: 'trialing', accessExpiresAt: new Date(Date.now() + 600) })
      attachListeners(server.deps, { expiry: server.deps.expiry })
      await server.deps.expiry.rearm()
      const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin: server.url, cookie: u.cookie } } as never)
      const got = await new Promise<string>((resolve, reject) => {
        ws.onmessage = (e) => {
          const m = JSON.parse(String(e.data)) as { type: string }
          if (m.type === 'access.changed') resolve(m.type)
        }
        setTimeout(() => reject(new Error('no access.changed within 5 s')), 5_000)
      })
      expect(got).toBe('access.changed')
      const me = await fetch(server.url + '/api/me', { headers: { cookie: u.cookie } })
      expect(((await me.json()) as { access: { hasAccess: boolean } }).access.hasAccess).toBe(false)
      ws.close()
    } finally {
      await server.stop()
    }
  })
})
