// Shared test plumbing: a fresh data dir + real SQLite file per test, deps, and a real server
// on a loopback port. Every suite builds on these instead of mocking the database.
import { afterEach, beforeEach } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { loadConfig, type Config } from '../src/config'
import { openDatabase } from '../src/db/open'
import { engineEnv } from './engine'
import type { Deps, SqliteDeps } from '../src/deps'
import { asAsync } from '../src/db/async-sqlite'
import { EventBus } from '../src/lib/bus'
import { startServer, type RunningServer } from '../src/server'
import { attachListeners, createServices, type AppContext, type Services } from '../src/services'

export function tempDir(prefix = 'dibs-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export function makeConfig(env: Record<string, string> = {}): Config {
  const dataDir = env.DATA_DIR ?? tempDir()
  return loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', APP_URL: 'http://localhost:3000', DATA_DIR: dataDir, ...env })
}

/** Tests run on SQLite: both handles are there (src/deps.ts SqliteDeps). */
export type TestDeps = Omit<AppContext, 'db' | 'sqlite'> & SqliteDeps & { close(): void }

/**
 * Deps and services on a real SQLite file in a fresh temp dir, built as src/server.ts builds them
 * (no bus listeners yet: makeApp or wire attach them); `now` is settable through clock.set().
 */
export async function makeDeps(env: Record<string, string> = {}, clock = testClock(), given: Partial<Services> = {}): Promise<TestDeps> {
  const config = makeConfig({ ...(await engineEnv()), ...env })
  const opened = await openDatabase(config)
  // On PostgreSQL (DIBS_TEST_ENGINE=postgres, tests/engine.ts) there is no SQLite connection: the suites run so are the ones that need none.
  const deps = { config, db: opened.db, sqlite: opened.sqlite, bus: new EventBus(), now: clock.now } as SqliteDeps
  const services = await createServices(deps, given)
  return {
    ...deps,
    ...services,
    close() {
      void services.outbox.stop() // never rejects (its run catches); a delivery in flight fails on the closed file and is logged
      services.expiry.stop()
      void opened.close()
      rmSync(config.dataDir, { recursive: true, force: true })
    },
  }
}

const wired = new WeakSet<object>()
/** The listeners a server without jobs has (socket hub, dispatcher, metrics), attached once per deps. */
export function wire(deps: AppContext) {
  if (wired.has(deps)) return
  wired.add(deps)
  attachListeners(deps, { hub: deps.hub, dispatcher: deps.dispatcher, metrics: deps.metrics })
}

export function testClock(start = Date.now()) {
  let t = start
  return {
    now: () => new Date(t),
    set: (d: Date | number) => void (t = typeof d === 'number' ? d : d.getTime()),
    advance: (ms: number) => void (t += ms),
  }
}

/**
 * Timers for the precise job loops (`startJobs(deps, jobs, timers)`) on a test clock: nothing fires
 * until the test calls `advanceTo`, which moves the clock from timer to timer, earliest first. After
 * each one fires it waits (in real time) until the work it started has armed the next timer, so a
 * job's run takes no clock time unless the job moves the clock itself. `lateMs`: every timer fires
 * that long after its time, as a busy event loop makes real timers do.
 */
export function fakeTimers(clock = testClock(), opts: { lateMs?: number } = {}) {
  let armed = 0
  const due: { id: number; at: number; fn: () => void }[] = []
  const now = () => clock.now().getTime()
  const timers = {
    now,
    setTimeout(fn: () => void, ms: number) {
      const id = ++armed
      due.push({ id, at: now() + Math.max(0, ms), fn })
      return id
    },
    clearTimeout(id: unknown) {
      const i = due.findIndex((t) => t.id === id)
      if (i >= 0) due.splice(i, 1)
    },
  }
  async function advanceTo(until: number, realTimeoutMs = 10_000) {
    for (;;) {
      due.sort((a, b) => a.at - b.at || a.id - b.id)
      const next = due[0]
      if (!next || next.at > until) break
      due.shift()
      const at = next.at + (opts.lateMs ?? 0)
      if (at > now()) clock.set(at)
      const before = armed
      next.fn()
      const giveUp = Date.now() + realTimeoutMs
      while (armed === before) {
        if (Date.now() > giveUp) throw new Error('fakeTimers: the fired timer armed no next timer')
        await Bun.sleep(1)
      }
    }
    if (until > now()) clock.set(until)
  }
  return { ...timers, clock, timers, advanceTo, pending: () => due.length }
}

/** In-process app for route tests: app.handle(new Request(...)); wired like a server without jobs. */
export function makeApp(deps: AppContext) {
  wire(deps)
  return createApp(deps, undefined, { checkModels: true })
}

export async function call(
  app: { handle(r: Request): Promise<Response> },
  method: string,
  path: string,
  opts: { json?: unknown; cookie?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { origin: 'http://localhost:3000', ...opts.headers }
  if (opts.json !== undefined) headers['content-type'] = 'application/json'
  if (opts.cookie) headers.cookie = opts.cookie
  const res = await app.handle(
    new Request(`http://localhost:3000${path}`, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) }),
  )
  const text = await res.text()
  let body: any = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {}
  return { status: res.status, body, headers: res.headers, text }
}

/** A real server (HTTP + WebSocket + jobs off by default) on 127.0.0.1:random port. */
/** A running server of the tests: on SQLite, so its deps have both handles. */
export type TestServer = Omit<RunningServer, 'deps'> & { deps: Omit<AppContext, 'db' | 'sqlite'> & SqliteDeps; config: Config }

export async function startTestServer(env: Record<string, string> = {}, opts: { jobs?: boolean } = {}): Promise<TestServer> {
  const probe = makeConfig({ ...(await engineEnv()), ...env })
  // APP_URL must match the real port for Origin checks, so start, then restart on that port if needed.
  const config = { ...probe, appUrl: env.APP_URL ?? probe.appUrl }
  const running = await startServer(config, { jobs: opts.jobs ?? false, checkModels: true })
  if (!env.APP_URL) {
    const real = `http://127.0.0.1:${running.port}`
    running.deps.config.appUrl = real
  }
  return { ...running, deps: running.deps as TestServer['deps'], config }
}

/** Runs the operator CLI (src/main.ts) as a separate process, as an operator would. */
export function runCli(args: string[], env: Record<string, string>) {
  const r = Bun.spawnSync(['bun', join(import.meta.dir, '../src/main.ts'), ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env } })
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() }
}

/** Like runCli, but without blocking this process (a server or fakes living here must answer the CLI). */
export async function spawnCli(args: string[], env: Record<string, string>) {
  const p = Bun.spawn(['bun', join(import.meta.dir, '../src/main.ts'), ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
  return { code, out, err }
}

/** A user (confirmed, with a role and access) and a signed-in session cookie, straight in the database. */
export async function createUserWithSession(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  opts: {
    email?: string
    name?: string
    password?: string
    role?: string
    accessExpiresAt?: Date | null
    subscriptionStatus?: string | null
    /** writes a notification_prefs row; without it the user has the defaults (batched digest) */
    emailFrequency?: 'instant' | 'batched' | 'none'
  } = {},
): Promise<{ userId: number; email: string; cookie: string; token: string }> {
  const { users, userAccess, notificationPrefs } = await import('../src/db/schema')
  const { createSession, SESSION_COOKIE } = await import('../src/auth/session')
  const email = (opts.email ?? `user${Math.random().toString(36).slice(2, 8)}@example.com`).toLowerCase()
  const passwordHash = opts.password ? await Bun.password.hash(opts.password) : null
  const db = asAsync(deps.db) // on either engine (the cluster scenario writes to PostgreSQL)
  const [user] = await db
    .insert(users)
    .values({ email, name: opts.name ?? 'Test User', passwordHash, emailConfirmedAt: deps.now() })
    .returning()
  await db.insert(userAccess).values({
    userId: user.id,
    role: opts.role ?? 'product+gd',
    subscriptionStatus: opts.subscriptionStatus ?? 'active',
    accessExpiresAt: opts.accessExpiresAt === undefined ? null : opts.accessExpiresAt,
  })
  if (opts.emailFrequency !== undefined)
    await db.insert(notificationPrefs).values({ userId: user!.id, emailFrequency: opts.emailFrequency, updatedAt: deps.now() })
  const { token } = await createSession(deps, user!.id)
  return { userId: user!.id, email, token, cookie: `${SESSION_COOKIE}=${token}` }
}

/**
 * A fresh database, services and app on a test clock for every test of the file (registers the
 * beforeEach/afterEach): `const t = eachTestApp()`, then `t.deps`, `t.app`, `t.clock` inside the tests.
 */
export function eachTestApp(start = 1_763_640_000_000) {
  const t = {} as { deps: TestDeps; app: ReturnType<typeof makeApp>; clock: ReturnType<typeof testClock> }
  beforeEach(async () => {
    t.clock = testClock(start)
    t.deps = await makeDeps({}, t.clock)
    t.app = makeApp(t.deps)
  })
  afterEach(() => t.deps.close())
  return t
}

/**
 * `dibs serve` as its own process (for crash tests: SIGKILL, restart); resolves once it logs that it
 * listens. Both pipes are read to the end, so the server never blocks on a full pipe; `output()` is
 * everything it wrote.
 */
export async function serveProcess(env: Record<string, string>) {
  const proc = Bun.spawn(['bun', join(import.meta.dir, '../src/main.ts'), 'serve'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) out += new TextDecoder().decode(chunk)
  }
  void drain(proc.stdout)
  void drain(proc.stderr)
  const until = Date.now() + 20_000
  while (!/ listening /.test(out)) {
    if (Date.now() > until || proc.exitCode !== null) throw new Error(`server did not start: ${out}`)
    await Bun.sleep(20)
  }
  return { proc, output: () => out }
}
