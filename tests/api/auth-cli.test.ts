// `dibs users …` as an operator runs it (a separate process), checked through the API.
import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { asAsync } from '../../src/db/async-sqlite'
import { users } from '../../src/db/schema'
import { engineEnv, engineEnvOf, TEST_ENGINE } from '../engine'
import { call, makeApp, makeDeps, runCli, tempDir } from '../helpers'
import { until } from '../pg'

const dir = tempDir()
// the CLI runs and the test's deps share one database (DATA_DIR's file; on PostgreSQL one fresh database of the test engine)
const env = { DATA_DIR: dir, APP_URL: 'http://localhost:3000', ...(await engineEnv()) }
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('dibs users', () => {
  test('create --confirmed makes an account that can sign in at once, with the default plan', async () => {
    const r = runCli(['users', 'create', '--email', 'Op@Example.com', '--password', 'op-password', '--name', 'Operator', '--confirmed'], env)
    expect(r.code).toBe(0)
    expect(r.out).toContain('created user 1 op@example.com (confirmed)')
    const deps = await makeDeps(env)
    const app = makeApp(deps)
    const login = await call(app, 'POST', '/api/auth/login', { json: { email: 'op@example.com', password: 'op-password' } })
    expect(login.status).toBe(200)
    expect(login.body.user.name).toBe('Operator')
    expect(login.body.access.userRole).toBe('product+gd')
    // A process without the test preload hashes at the production cost (argon2id, 64 MiB, 2 passes).
    const [{ hash }] = await asAsync(deps.db).select({ hash: users.passwordHash }).from(users).where(eq(users.email, 'op@example.com'))
    expect(hash).toStartWith('$argon2id$v=19$m=65536,t=2,')
  })

  test('create with --role and without --confirmed needs the email confirmed before sign-in', () => {
    const r = runCli(['users', 'create', '--email', 'pending@example.com', '--password', 'pending-pass', '--role', 'gd'], env)
    expect(r.code).toBe(0)
    expect(r.out).toContain('unconfirmed')
  })

  const errors: { args: string[]; code: number; text: string }[] = [
    { args: ['users'], code: 2, text: 'users needs a subcommand' },
    { args: ['users', 'create', '--email', 'x@example.com'], code: 2, text: 'needs --email and --password' },
    { args: ['users', 'create', '--email', 'op@example.com', '--password', 'op-password'], code: 1, text: 'already exists' },
    { args: ['users', 'create', '--email', 'y@example.com', '--password', 'short'], code: 1, text: 'Password must be at least 8 characters long' },
    { args: ['users', 'create', '--email', 'y@example.com', '--password', 'long-enough', '--role', 'king'], code: 2, text: '--role' },
    { args: ['users', 'set-role', 'ghost@example.com', 'admin'], code: 1, text: 'no account for ghost@example.com' },
    { args: ['users', 'set-role', 'op@example.com', 'emperor'], code: 2, text: 'role: one of' },
    { args: ['users', 'grant', 'op@example.com', 'gd'], code: 2, text: '--until' },
    { args: ['users', 'grant', 'op@example.com', 'platinum', '--until', '30d'], code: 2, text: 'plan: one of' },
    { args: ['users', 'grant', 'op@example.com', 'gd', '--until', '2001-01-01'], code: 2, text: 'must be in the future' },
  ]
  for (const e of errors)
    test(`${e.args.join(' ')} → exit ${e.code}: ${e.text}`, () => {
      const r = runCli(e.args, env)
      expect(r.code).toBe(e.code)
      expect(r.err).toContain(e.text)
    })

  test('set-role admin and grant (gifted, with expiry) show in users list and in AccessInfo', async () => {
    expect(runCli(['users', 'set-role', 'pending@example.com', 'admin'], env).code).toBe(0)
    const grant = runCli(['users', 'grant', 'op@example.com', 'gd', '--until', '2099-12-31'], env)
    expect(grant.code).toBe(0)
    expect(grant.out).toContain('op@example.com has gd (gifted) until 2099-12-31T23:59:59.999Z')
    const list = runCli(['users', 'list'], env)
    expect(list.code).toBe(0)
    const lines = list.out.trim().split('\n')
    expect(lines[0]).toMatch(/^id\s+email\s+role\s+access\s+status\s+until/)
    expect(lines.find((l) => l.includes('op@example.com'))).toMatch(/gd\s+active\s+gifted\s+2099-12-31\s+confirmed/)
    expect(lines.find((l) => l.includes('pending@example.com'))).toMatch(/admin\s+active/)
    const deps = await makeDeps(env)
    const app = makeApp(deps)
    const login = await call(app, 'POST', '/api/auth/login', { json: { email: 'op@example.com', password: 'op-password' } })
    expect(login.body.access).toMatchObject({ userRole: 'gd', subscriptionStatus: 'gifted', accessExpiresAt: '2099-12-31T23:59:59.999Z', forums: ['gd'] })
  })
})

describe('dibs users beside a running server', () => {
  test('set-role reaches the server live as access.changed', async () => {
    const { startTestServer } = await import('../helpers')
    const server = await startTestServer({ DATA_DIR: tempDir() })
    try {
      const { createUser } = await import('../../src/auth/service')
      const user = await createUser(server.deps, { email: 'live@example.com', password: 'live-password', confirmed: true })
      const seen: number[] = []
      server.deps.bus.on('access.changed', (e) => seen.push(e.userId))
      // Spawned without blocking: the server in this process has to answer the relay.
      const proc = Bun.spawn(['bun', join(import.meta.dir, '../../src/main.ts'), 'users', 'set-role', 'live@example.com', 'gd'], {
        env: {
          PATH: process.env.PATH ?? '',
          LOG_LEVEL: 'warn',
          DATA_DIR: server.config.dataDir,
          APP_URL: server.deps.config.appUrl,
          ...engineEnvOf(server.config),
        },
        stdout: 'pipe',
      })
      expect(await proc.exited).toBe(0)
      const out = await new Response(proc.stdout).text()
      expect(out).toContain('live@example.com is now gd')
      // SQLite: the relay's POST answers how many events the server took, and the CLI says so; PostgreSQL's
      // fan-out (NOTIFY) cannot tell who listened, and its notice reaches the server after the CLI has exited.
      if (TEST_ENGINE === 'sqlite') expect(out).toContain('(signed-in browsers of this account were updated live)')
      else await until(() => seen.length > 0, 'the fanned-in access.changed')
      expect(seen).toEqual([user.id])
    } finally {
      await server.stop()
    }
  })

  test('reset-2fa turns two-factor off, ends the sessions (their sockets close through the relay) and tells the owner', async () => {
    const { startTestServer, createUserWithSession } = await import('../helpers')
    const { startTwoFactor, enableTwoFactor, hasTwoFactor } = await import('../../src/auth/two-factor')
    const { totp } = await import('../../src/auth/totp')
    const server = await startTestServer({ DATA_DIR: tempDir() })
    try {
      const u = await createUserWithSession(server.deps, { email: 'lost@example.com', password: 'lost-password' })
      const { secret } = await startTwoFactor(server.deps, u.userId)
      await enableTwoFactor(server.deps, u.userId, totp(secret, Date.now()))
      const ws = new WebSocket(server.url.replace(/^http/, 'ws') + '/api/ws', { headers: { origin: server.url, cookie: u.cookie } } as never)
      await new Promise((r) => (ws.onmessage = r))
      const closed = new Promise<number>((r) => (ws.onclose = (e) => r(e.code)))
      const env2 = {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'warn',
        DATA_DIR: server.config.dataDir,
        APP_URL: server.deps.config.appUrl,
        ...engineEnvOf(server.config),
      }
      const proc = Bun.spawn(['bun', join(import.meta.dir, '../../src/main.ts'), 'users', 'reset-2fa', 'lost@example.com'], { env: env2, stdout: 'pipe' })
      expect(await proc.exited).toBe(0)
      expect(await new Response(proc.stdout).text()).toContain('two-factor sign-in of lost@example.com is off')
      expect(await closed).toBe(4401)
      expect(await hasTwoFactor(server.deps, u.userId)).toBe(false)
      const list = runCli(['users', 'list'], env2)
      expect(list.out).toMatch(/lost@example\.com.*-/)
      expect(runCli(['users', 'reset-2fa', 'lost@example.com'], env2).err).toContain('has no two-factor sign-in')
    } finally {
      await server.stop()
    }
  })
})
