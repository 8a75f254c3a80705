// Sign-in limits on a real server (issue 11, items 1 and 2): concurrent guesses are reserved before
// the password check, a browser that signed in before keeps its owner in, and X-Forwarded-For only
// counts behind a TRUST_PROXY proxy.
import { afterEach, describe, expect, test } from 'bun:test'
import { asAsync } from '../../src/db/async-sqlite'
import { createUserWithSession, startTestServer } from '../helpers'

type Running = Awaited<ReturnType<typeof startTestServer>>
let running: Running | null = null
afterEach(async () => {
  await running?.stop()
  running = null
})

async function start(env: Record<string, string> = {}) {
  running = await startTestServer(env)
  await createUserWithSession(running.deps, { email: 'owner@example.com', password: 'right-password' })
  return `http://127.0.0.1:${running.port}`
}

function login(base: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: JSON.stringify(body),
  })
}

const deviceCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('dibs_device_'))
    ?.split(';')[0]

describe('concurrent guesses (item 1)', () => {
  test('200 parallel wrong guesses at one account: at most 10 are checked, the rest get 429', async () => {
    const base = await start()
    const res = await Promise.all(Array.from({ length: 200 }, (_, i) => login(base, { email: 'owner@example.com', password: `guess-${i}` })))
    const statuses = res.map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0)
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([])
  })

  test('200 parallel guesses at 200 accounts from one address: at most 50 are checked', async () => {
    const base = await start()
    const res = await Promise.all(Array.from({ length: 200 }, (_, i) => login(base, { email: `spray${i}@example.com`, password: 'guess' })))
    const checked = res.filter((r) => r.status === 401).length
    expect(checked).toBeLessThanOrEqual(50)
    expect(checked).toBeGreaterThan(0)
  })
})

describe('owner lockout and device cookies (item 2)', () => {
  test('failures from elsewhere do not lock out a browser that signed in before; unknown browsers are locked', async () => {
    const base = await start({ TRUST_PROXY: 'loopback' })
    const first = await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '198.51.100.7' })
    expect(first.status).toBe(200)
    const device = deviceCookieOf(first)
    expect(device).toBeDefined()
    expect(first.headers.getSetCookie().find((c) => c.startsWith('dibs_device_'))).toContain('HttpOnly')

    for (let i = 0; i < 10; i++)
      expect((await login(base, { email: 'owner@example.com', password: `guess-${i}` }, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(401)
    // an unknown browser (even from the owner's address) is now held off…
    expect((await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429)
    // …the owner's browser is not
    const owner = await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '198.51.100.7', cookie: device! })
    expect(owner.status).toBe(200)
  })

  test('a forged or foreign device cookie counts as an unknown device', async () => {
    const base = await start({ TRUST_PROXY: 'loopback' })
    await createUserWithSession(running!.deps, { email: 'other@example.com', password: 'other-password' })
    const other = deviceCookieOf(await login(base, { email: 'other@example.com', password: 'other-password' }))!
    for (let i = 0; i < 10; i++) await login(base, { email: 'owner@example.com', password: `guess-${i}` }, { 'x-forwarded-for': '203.0.113.9' })
    const [name] = other.split('=')
    const forged = `${name!.replace(/.$/, '0')}=${other.split('=')[1]}`
    for (const cookie of [other, forged])
      expect((await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '198.51.100.7', cookie })).status).toBe(429)
  })

  test('a device that keeps guessing locks only itself', async () => {
    const base = await start({ TRUST_PROXY: 'loopback' })
    const device = deviceCookieOf(await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '198.51.100.7' }))!
    for (let i = 0; i < 10; i++) await login(base, { email: 'owner@example.com', password: `typo-${i}` }, { 'x-forwarded-for': '198.51.100.7', cookie: device })
    expect((await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '198.51.100.7', cookie: device })).status).toBe(
      429,
    )
    // the account itself is not locked for other (unknown) browsers
    expect((await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '192.0.2.1' })).status).toBe(200)
  })
})

describe('X-Forwarded-For and TRUST_PROXY', () => {
  test('without TRUST_PROXY a rotating X-Forwarded-For does not escape the per-address limit', async () => {
    const base = await start()
    let last = 0
    for (let i = 0; i < 51; i++) last = (await login(base, { email: `spray${i}@example.com`, password: 'x' }, { 'x-forwarded-for': `203.0.113.${i}` })).status
    expect(last).toBe(429)
  })

  test('behind a trusted proxy each forwarded client has its own per-address limit', async () => {
    const base = await start({ TRUST_PROXY: '127.0.0.1/32' })
    for (let i = 0; i < 50; i++) await login(base, { email: `spray${i}@example.com`, password: 'x' }, { 'x-forwarded-for': '203.0.113.5' })
    expect((await login(base, { email: 'spray99@example.com', password: 'x' }, { 'x-forwarded-for': '203.0.113.5' })).status).toBe(429)
    expect((await login(base, { email: 'spray99@example.com', password: 'x' }, { 'x-forwarded-for': '203.0.113.6' })).status).toBe(401)
    // the session records the forwarded client's address
    const ok = await login(base, { email: 'owner@example.com', password: 'right-password' }, { 'x-forwarded-for': '10.9.8.7, 203.0.113.77' })
    expect(ok.status).toBe(200)
    const { sessions } = await import('../../src/db/schema')
    const ips = await asAsync(running!.deps.db).select({ ip: sessions.ip }).from(sessions)
    expect(ips.map((r) => r.ip)).toContain('203.0.113.77')
  })
})
