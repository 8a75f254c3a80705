// Second-factor secrets at rest (security review item 3): recovery codes carry ≥ 112 bits (ASVS 2.6.2)
// and TOTP secrets are sealed with a key kept outside the database (ASVS 2.8.2). Rows written before
// the change (a clear secret, short codes as unsalted SHA-256) are upgraded when the server starts and
// keep working.
import { afterEach, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { authFactors, recoveryCodes, users } from '../../src/db/schema'
import { openDb } from '../../src/db/client'
import { newSecret, totp } from '../../src/auth/totp'
import { hashToken } from '../../src/lib/tokens'
import { call, createUserWithSession, makeApp, makeDeps, startTestServer, tempDir, testClock, type TestDeps } from '../helpers'

const PASSWORD = 'storage-password-1'

describe('new enrolments', () => {
  let deps: TestDeps
  afterEach(() => deps.close())

  test('the TOTP secret is stored sealed, never in clear; recovery codes have 120 bits and are stored as SHA-256 only', async () => {
    const clock = testClock(1_763_640_000_000)
    deps = await makeDeps({}, clock)
    const app = makeApp(deps)
    const u = await createUserWithSession(deps, { email: 'sealed@example.com', password: PASSWORD })
    const start = await call(app, 'POST', '/api/me/2fa', { cookie: u.cookie, json: { password: PASSWORD } })
    const on = await call(app, 'POST', '/api/me/2fa/enable', { cookie: u.cookie, json: { code: totp(start.body.secret, clock.now().getTime()) } })
    expect(on.status).toBe(200)
    const row = deps.sqlite.query('SELECT secret FROM auth_factors').get() as { secret: string }
    expect(row.secret).toStartWith('v1:')
    expect(row.secret).not.toContain(start.body.secret)
    expect(JSON.stringify(deps.sqlite.query('SELECT * FROM auth_factors').all())).not.toContain(start.body.secret)
    // 24 characters of a 32-letter alphabet (Crockford's base32: no I, L, O, U) = 120 bits, in groups of six
    for (const code of on.body.recoveryCodes as string[]) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}(-[0-9A-HJKMNP-TV-Z]{6}){3}$/)
    const stored = deps.sqlite.query('SELECT code_hash, scheme FROM recovery_codes').all() as { code_hash: string; scheme: string }[]
    expect(stored.map((r) => r.scheme)).toEqual(Array(10).fill('sha256'))
    for (const c of on.body.recoveryCodes) expect(JSON.stringify(stored)).not.toContain(c.replaceAll('-', ''))
    // sign-in still reads the sealed secret, and a recovery code typed in lower case with spaces works
    clock.advance(30_000)
    const login = (body: object) => call(app, 'POST', '/api/auth/login', { json: { email: 'sealed@example.com', password: PASSWORD, ...body } })
    expect((await login({ code: totp(start.body.secret, clock.now().getTime()) })).status).toBe(200)
    expect((await login({ recoveryCode: on.body.recoveryCodes[2].toLowerCase().replaceAll('-', ' ') })).status).toBe(200)
  })
})

describe('rows from before the upgrade', () => {
  let stop: (() => Promise<void>) | null = null
  let dir = ''
  afterEach(async () => {
    await stop?.()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a clear TOTP secret and short SHA-256 recovery codes are upgraded at startup and still sign in', async () => {
    // An old database: written before sealing, with the old 10-character codes stored as unsalted SHA-256.
    dir = tempDir()
    const secret = newSecret()
    const oldCodes = ['ABCDE-FGHJK', 'MNPQR-STUVW', 'XYZ23-45678']
    const opened = openDb(join(dir, 'dibs.db'))
    const user = opened.db
      .insert(users)
      .values({ email: 'old@example.com', name: 'Old', passwordHash: await Bun.password.hash(PASSWORD), emailConfirmedAt: new Date() })
      .returning()
      .get()
    opened.db
      .insert(authFactors)
      .values({ userId: user.id, factorType: 'totp', secret, verifiedAt: new Date(Date.now() - 86_400_000) })
      .run()
    const legacyHashes = oldCodes.map((c) => hashToken(c.replace('-', '')))
    for (const codeHash of legacyHashes) opened.db.insert(recoveryCodes).values({ userId: user.id, codeHash }).run()
    expect(opened.sqlite.query('SELECT DISTINCT scheme FROM recovery_codes').all()).toEqual([{ scheme: 'short-sha256' }])
    opened.close()

    const server = await startTestServer({ DATA_DIR: dir })
    stop = server.stop
    const factor = server.deps.sqlite.query('SELECT secret FROM auth_factors').get() as { secret: string }
    expect(factor.secret).toStartWith('v1:')
    expect(factor.secret).not.toContain(secret)
    const rows = server.deps.sqlite.query('SELECT code_hash, scheme FROM recovery_codes').all() as { code_hash: string; scheme: string }[]
    expect(rows.map((r) => r.scheme)).toEqual(['short-argon2id', 'short-argon2id', 'short-argon2id'])
    for (const r of rows) {
      expect(r.code_hash).toStartWith('$argon2id$')
      expect(legacyHashes).not.toContain(r.code_hash)
    }
    // the key sits beside the database, not in it
    expect(existsSync(join(dir, 'secrets.json'))).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).totpEncryptionKey).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const login = (body: object) =>
      fetch(server.url + '/api/auth/login', {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'old@example.com', password: PASSWORD, ...body }),
      })
    expect((await login({ code: totp(secret, Date.now()) })).status).toBe(200)
    expect((await login({ recoveryCode: 'mnpqr stuvw' })).status).toBe(200)
    expect((await login({ recoveryCode: 'MNPQR-STUVW' })).status).toBe(401) // spent
    expect((await login({ recoveryCode: 'ZZZZZ-ZZZZZ' })).status).toBe(401)

    // a second start finds nothing left to upgrade
    await server.stop()
    stop = null
    const again = await startTestServer({ DATA_DIR: dir })
    stop = again.stop
    expect((again.deps.sqlite.query('SELECT secret FROM auth_factors').get() as { secret: string }).secret).toBe(factor.secret)
  }, 30_000)
})
