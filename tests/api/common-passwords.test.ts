// Common passwords are refused (security review item 6, ASVS 2.1.7): the list shipped in
// src/auth/common-passwords.txt applies at sign-up, password reset, password change and
// `dibs users create`, compared in lower case; the spec's minimum-length message is unchanged.
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { COMMON_PASSWORD_TEXT, isCommonPassword } from '../../src/auth/common-passwords'
import { call, createUserWithSession, makeApp, makeDeps, runCli, tempDir, testClock, type TestDeps } from '../helpers'
import { lastEmail, linkIn } from './auth-helpers'

const COMMON = 'This password is too common: choose one that is harder to guess.'

let deps: TestDeps
let app: ReturnType<typeof makeApp>
beforeEach(async () => {
  deps = await makeDeps({}, testClock(1_763_640_000_000))
  app = makeApp(deps)
})
afterEach(() => deps.close())

test('the message', () => expect(COMMON_PASSWORD_TEXT).toBe(COMMON))

test('the list: the well-known ones are on it, in any case; a long random one is not', () => {
  for (const pw of ['password', '12345678', 'qwertyui', 'PASSWORD', 'Password1', 'iloveyou', 'sunshine', 'baseball'])
    expect({ pw, common: isCommonPassword(pw) }).toEqual({ pw, common: true })
  for (const pw of ['correct horse', 'x7#kq!9z-Tb', 'storage-password-1']) expect({ pw, common: isCommonPassword(pw) }).toEqual({ pw, common: false })
})

describe('where passwords are chosen', () => {
  test('sign-up refuses a common password with the new message; a short one still gets the spec text', async () => {
    const common = await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'a@example.com', password: 'Password' } })
    expect(common.status).toBe(400)
    expect(common.body.error).toEqual({ code: 'WEAK_PASSWORD', message: COMMON })
    const short = await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'a@example.com', password: '1234567' } })
    expect(short.body.error.message).toBe('Password must be at least 8 characters long')
    expect((await call(app, 'POST', '/api/auth/signup', { json: { name: 'A', email: 'a@example.com', password: 'x7#kq!9z-Tb' } })).status).toBe(201)
  })

  test('password reset refuses one (and the link stays usable)', async () => {
    await createUserWithSession(deps, { email: 'reset@example.com', password: 'old-password-1' })
    await call(app, 'POST', '/api/auth/forgot', { json: { email: 'reset@example.com' } })
    const token = new URL('http://x' + linkIn((await lastEmail(deps, 'reset@example.com', 'reset'))!.text)).searchParams.get('token')
    const common = await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'qwertyui' } })
    expect(common.status).toBe(400)
    expect(common.body.error.message).toBe(COMMON)
    expect((await call(app, 'POST', '/api/auth/reset', { json: { token, password: 'new-password-9x' } })).status).toBe(200)
  })

  test('password change refuses one', async () => {
    const u = await createUserWithSession(deps, { email: 'change@example.com', password: 'old-password-1' })
    const r = await call(app, 'POST', '/api/me/password', { cookie: u.cookie, json: { currentPassword: 'old-password-1', newPassword: '12345678' } })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toBe(COMMON)
  })
})

describe('dibs users create', () => {
  const dir = tempDir()
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  test('refuses a common password with the same message', () => {
    const r = runCli(['users', 'create', '--email', 'op@example.com', '--password', 'iloveyou1'], { DATA_DIR: dir, APP_URL: 'http://localhost:3000' })
    expect(r.code).not.toBe(0)
    expect(r.err).toContain(COMMON)
  })
})
