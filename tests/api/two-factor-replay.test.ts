// A reused TOTP code (security review item 4, ASVS 2.8.5): a right code whose step was already used is
// refused as before, and now also logged and told to the owner by email, once per burst.
import { describe, expect, test } from 'bun:test'
import { recentLogLines } from '../../src/lib/log'
import { totp } from '../../src/auth/totp'
import { call, createUserWithSession, eachTestApp } from '../helpers'
import { emails } from './auth-helpers'

const t = eachTestApp()

const EMAIL = 'replayed@example.com'
const PASSWORD = 'replay-password-1'
const login = (body: Record<string, unknown>) => call(t.app, 'POST', '/api/auth/login', { json: { email: EMAIL, password: PASSWORD, ...body } })
const reuseMails = async () => (await emails(t.deps, EMAIL)).filter((m) => m.kind === '2fa_code_reused')
const reuseLogs = (after: number) => recentLogLines({ after, minLevel: 'warn' }).lines.filter((l) => l.text.startsWith('two-factor code reused'))

async function enrolled() {
  const u = await createUserWithSession(t.deps, { email: EMAIL, password: PASSWORD })
  const start = await call(t.app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: { password: PASSWORD } })
  await call(t.app, 'POST', '/api/me/2fa/enable', { cookie: u.cookie, json: { code: totp(start.body.secret, t.clock.now().getTime()) } })
  t.clock.advance(30_000)
  return { ...u, secret: start.body.secret as string }
}

describe('a reused code', () => {
  test('is refused, logged each time and emailed to the owner once per burst', async () => {
    const { secret, userId } = await enrolled()
    const mark = recentLogLines().lastSeq
    const code = totp(secret, t.clock.now().getTime())
    expect((await login({ code })).status).toBe(200)
    expect(await reuseMails()).toHaveLength(0)

    const replay = await login({ code })
    expect(replay.status).toBe(401)
    expect(replay.body.error.code).toBe('INVALID_TOTP') // the same answer as any wrong code
    expect(reuseLogs(mark)).toHaveLength(1)
    expect(reuseLogs(mark)[0]!.text).toContain(`userId=${userId}`)
    const mail = await reuseMails()
    expect(mail).toHaveLength(1)
    expect(mail[0]!.subject).toBe('Dibs: A sign-in code was used twice')
    expect(mail[0]!.text).toContain('someone else may know your password')

    // the rest of the burst is logged, not mailed again
    t.clock.advance(10 * 60_000)
    const later = totp(secret, t.clock.now().getTime())
    expect((await login({ code: later })).status).toBe(200)
    expect((await login({ code: later })).status).toBe(401)
    expect((await login({ code: later })).status).toBe(401)
    expect(reuseLogs(mark)).toHaveLength(3)
    expect(await reuseMails()).toHaveLength(1)

    // a new burst an hour after the last email is told again
    t.clock.advance(60 * 60_000)
    const next = totp(secret, t.clock.now().getTime())
    expect((await login({ code: next })).status).toBe(200)
    expect((await login({ code: next })).status).toBe(401)
    expect(await reuseMails()).toHaveLength(2)
  })

  test('a plain wrong code is neither logged as reuse nor mailed', async () => {
    const { secret } = await enrolled()
    const mark = recentLogLines().lastSeq
    const right = totp(secret, t.clock.now().getTime())
    const wrong = right === '000000' ? '000001' : '000000'
    expect((await login({ code: wrong })).status).toBe(401)
    expect(reuseLogs(mark)).toHaveLength(0)
    expect(await reuseMails()).toHaveLength(0)
  })
})
