// A throwaway PostgreSQL server from Debian's packages for a suite (issue 29): initdb into a temporary
// folder, started on a free local port with its socket in that folder, trust authentication on
// loopback only, stopped and removed after the suite. As root the server runs as the `postgres` user
// (PostgreSQL refuses root). PG_BIN names another bin folder; scripts/ensure-test-packages.sh installs it.
import { SQL } from 'bun'
import { afterAll, beforeAll } from 'bun:test'
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
  if (versions.length === 0) throw new Error('PostgreSQL is not installed: bash scripts/ensure-test-packages.sh')
  return `/usr/lib/postgresql/${versions[0]}/bin`
}

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}

export type PgServer = { url: string; port: number; dir: string; stop(): Promise<void>; newDatabase(): Promise<string> }

export async function startPostgres(): Promise<PgServer> {
  const bin = pgBin()
  const dir = mkdtempSync(join(tmpdir(), 'dibs-pg-'))
  const root = process.getuid?.() === 0
  let uid = 0
  let gid = 0
  if (root) {
    const id = Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()
    const g = Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()
    if (!id) throw new Error('PostgreSQL runs as the postgres user, which does not exist: bash scripts/ensure-test-packages.sh')
    uid = Number(id)
    gid = Number(g)
    chmodSync(dir, 0o700)
    chownSync(dir, uid, gid)
  }
  const as = (cmd: string[]) => (root ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd)
  const data = join(dir, 'data')
  const init = Bun.spawnSync(as([`${bin}/initdb`, '-D', data, '-U', 'dibs', '--auth=trust', '-E', 'UTF8', '--no-sync']), { stderr: 'pipe' })
  if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`)
  const port = await freePort()
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  const start = Bun.spawnSync(as([`${bin}/pg_ctl`, '-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']), {
    stderr: 'pipe',
    stdout: 'pipe',
  })
  if (start.exitCode !== 0)
    throw new Error(
      `pg_ctl start failed: ${start.stderr.toString()} ${await Bun.file(join(dir, 'log'))
        .text()
        .catch(() => '')}`,
    )
  const url = `postgres://dibs@127.0.0.1:${port}/postgres`
  let n = 0
  return {
    url,
    port,
    dir,
    /** A fresh empty database on this server; its URL. */
    async newDatabase() {
      const name = `dibs_${process.pid}_${++n}`
      const admin = new SQL(url)
      await admin.unsafe(`CREATE DATABASE ${name}`)
      await admin.close()
      return `postgres://dibs@127.0.0.1:${port}/${name}`
    },
    async stop() {
      Bun.spawnSync(as([`${bin}/pg_ctl`, '-D', data, '-m', 'immediate', '-w', 'stop']), { stderr: 'pipe', stdout: 'pipe' })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** One PostgreSQL server for a suite: started before its tests, stopped after (`pg.server`). */
export function usePostgres() {
  const pg = {} as { server: PgServer }
  beforeAll(async () => {
    pg.server = await startPostgres()
  }, 120_000)
  afterAll(async () => {
    await pg.server?.stop()
  })
  return pg
}

/** Waits until `fn` holds, polling every 20 ms (cluster tests assert no time: `ms` only ends a test that hangs). */
export async function until(fn: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await fn()) return
    await Bun.sleep(20)
  }
  throw new Error(`timed out waiting for ${what}`)
}
