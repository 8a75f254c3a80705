// DATA_DIR holds password hashes, emails and push keys: the directory is 700 and every file in it
// 600 (issue 11 item 7), and a DATA_DIR the service cannot use stops startup with one line (item 10).
// Real files, real SQLite, the real CLI; modes are read back with stat.
import { describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { backupDatabase } from '../../src/db/backup'
import { openDb } from '../../src/db/client'
import { describeFsError } from '../../src/lib/data-dir'
import { createMailer } from '../../src/outbox/mailer'
import { makeConfig, runCli, startTestServer, tempDir } from '../helpers'

const mode = (path: string) => statSync(path).mode & 0o777

describe('data files are private: DATA_DIR 700, files 600', () => {
  test('a server started on a new DATA_DIR creates it 700, and dibs.db, its -wal/-shm, secrets.json and server.json 600', async () => {
    const dataDir = join(tempDir(), 'data') // does not exist yet
    const server = await startTestServer({ DATA_DIR: dataDir })
    try {
      server.deps.sqlite.run("INSERT INTO users (email) VALUES ('modes@example.com')")
      expect(mode(dataDir)).toBe(0o700)
      for (const f of ['dibs.db', 'dibs.db-wal', 'dibs.db-shm', 'secrets.json', 'server.json']) {
        expect(existsSync(join(dataDir, f))).toBe(true)
        expect([f, mode(join(dataDir, f)).toString(8)]).toEqual([f, '600'])
      }
    } finally {
      await server.stop()
    }
  })

  test('a database left world-readable by an older version is tightened to 600 when opened', () => {
    const dir = tempDir()
    const path = join(dir, 'dibs.db')
    new Database(path, { create: true }).close()
    chmodSync(path, 0o644)
    const opened = openDb(path)
    opened.sqlite.run("INSERT INTO users (email) VALUES ('old@example.com')")
    for (const f of ['dibs.db', 'dibs.db-wal', 'dibs.db-shm']) expect([f, mode(join(dir, f)).toString(8)]).toEqual([f, '600'])
    opened.close()
  })

  test('a backup file is written 600', () => {
    const dir = tempDir()
    const live = openDb(join(dir, 'dibs.db'))
    live.sqlite.run("INSERT INTO users (email) VALUES ('backup@example.com')")
    backupDatabase(join(dir, 'dibs.db'), join(dir, 'nightly.db'))
    live.close()
    expect(mode(join(dir, 'nightly.db'))).toBe(0o600)
  })

  test('the dev outbox (no SMTP_URL) writes each message 600 in a 700 folder', async () => {
    const config = makeConfig()
    const mailer = createMailer(config)
    await mailer.send({ to: 'pat@example.com', subject: 'Confirm', text: 'https://example.com/confirm', html: '<p>confirm</p>' })
    const dir = join(config.dataDir, 'outbox')
    expect(mode(dir)).toBe(0o700)
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(mode(join(dir, files[0]!))).toBe(0o600)
  })

  test('the CLI (umask 077) creates DATA_DIR 700 and its database and backups 600', () => {
    const dataDir = join(tempDir(), 'cli-data')
    expect(runCli(['migrate'], { DATA_DIR: dataDir }).code).toBe(0)
    const out = join(tempDir(), 'copy.db')
    const r = runCli(['backup', out], { DATA_DIR: dataDir })
    expect(r.err).toBe('')
    expect(mode(dataDir)).toBe(0o700)
    for (const f of ['dibs.db', 'secrets.json']) expect([f, mode(join(dataDir, f)).toString(8)]).toEqual([f, '600'])
    expect(mode(out)).toBe(0o600)
  })

  test('a DATA_DIR open to other users is kept, with a one-line warning at start', () => {
    const dataDir = tempDir()
    chmodSync(dataDir, 0o755)
    writeFileSync(join(dataDir, 'note.txt'), 'operator file')
    const r = runCli(['migrate'], { DATA_DIR: dataDir })
    expect(r.code).toBe(0)
    const warnings = r.err.trim().split('\n')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`DATA_DIR ${dataDir} is open to other users (mode 755); chmod 700 it`)
    expect(mode(dataDir)).toBe(0o755)
  })

  test('the default ./data as a clone checks it out (755, only its note) is made 700 on first use, without a warning (issue 30 §5)', () => {
    const clone = tempDir()
    const data = join(clone, 'data')
    mkdirSync(data)
    writeFileSync(join(data, '.gitkeep'), '')
    writeFileSync(join(data, 'README.md'), 'Runtime state lives here.')
    chmodSync(data, 0o755)
    const r = Bun.spawnSync(['bun', join(import.meta.dir, '../../src/main.ts'), 'migrate'], {
      cwd: clone,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' },
    })
    expect(r.stderr.toString()).toBe('')
    expect(r.exitCode).toBe(0)
    expect(mode(data)).toBe(0o700)
    expect(mode(join(data, 'dibs.db'))).toBe(0o600)
  })

  test('the default ./data that already holds a database and is open is warned about, not changed', () => {
    const clone = tempDir()
    const data = join(clone, 'data')
    mkdirSync(data)
    new Database(join(data, 'dibs.db'), { create: true }).close()
    chmodSync(data, 0o755)
    const r = Bun.spawnSync(['bun', join(import.meta.dir, '../../src/main.ts'), 'migrate'], {
      cwd: clone,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' },
    })
    expect(r.stderr.toString()).toContain(`DATA_DIR ${data} is open to other users (mode 755); chmod 700 it`)
    expect(mode(data)).toBe(0o755)
  })
})

/** The CLI as another user when this test runs as root (root writes anywhere), else as ourselves. */
/**
 * The CLI as the service user would run it. As root the tests drop to uid 65534, which may not be
 * able to read this checkout (a clone in a 700 `mktemp -d` directory): that user runs the CLI
 * bundled once into a world-readable temp directory instead of the sources.
 */
let bundled: string | null = null
function cliEntry(asRoot: boolean): string {
  if (!asRoot) return join(import.meta.dir, '../../src/main.ts')
  if (bundled === null) {
    const out = tempDir('dibs-cli-')
    chmodSync(out, 0o755)
    const r = Bun.spawnSync(['bun', 'build', join(import.meta.dir, '../../src/main.ts'), '--target=bun', '--outdir', out])
    if (r.exitCode !== 0) throw new Error(`bundling the CLI failed: ${r.stderr.toString()}`)
    for (const f of readdirSync(out)) chmodSync(join(out, f), 0o644)
    bundled = join(out, 'main.js')
  }
  return bundled
}

function runCliAs(args: string[], env: Record<string, string>) {
  const asRoot = process.getuid?.() === 0
  const r = Bun.spawnSync(['bun', cliEntry(asRoot), ...args], {
    // should `serve` get past its checks after all, it binds a loopback port, serves the offline demo and is stopped
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', DEMO: '1', ...env },
    timeout: 20_000,
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  })
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString(), uid: asRoot ? 65534 : process.getuid!() }
}

/** A directory other users can enter, holding a 555 directory nobody but root can write to. */
function readOnlyDir(): string {
  const parent = tempDir()
  chmodSync(parent, 0o755)
  const dir = join(parent, 'ro')
  mkdirSync(dir, { mode: 0o555 })
  chmodSync(dir, 0o555)
  return dir
}

describe('startup on an unusable DATA_DIR: one line naming the directory and the problem', () => {
  test('a DATA_DIR the service user cannot write to', () => {
    const dir = readOnlyDir()
    const r = runCliAs(['migrate'], { DATA_DIR: dir })
    expect(r.code).toBe(78)
    expect(r.out).toBe('')
    expect(r.err).toBe(`DATA_DIR ${dir} is not writable by uid ${r.uid}\n`)
  })

  test('a DATA_DIR that cannot be created inside a directory the service user cannot write to', () => {
    const dir = readOnlyDir()
    const r = runCliAs(['serve'], { DATA_DIR: join(dir, 'data') })
    expect(r.code).toBe(78)
    expect(r.err).toBe(`DATA_DIR ${join(dir, 'data')} cannot be created: ${dir} is not writable by uid ${r.uid}\n`)
  })

  test('a DATA_DIR below a regular file', () => {
    const file = join(tempDir(), 'not-a-dir')
    writeFileSync(file, '')
    const r = runCli(['migrate'], { DATA_DIR: join(file, 'data') })
    expect(r.code).toBe(78)
    expect(r.err).toBe(`DATA_DIR ${join(file, 'data')} cannot be created: ${file} is not a directory\n`)
  })

  test('a DATA_DIR whose disk is full', () => {
    // No small file system can be mounted here without privileges; /dev/full answers every write
    // with a real ENOSPC from the kernel, so the start-up probe file is made to point at it.
    const dir = tempDir()
    symlinkSync('/dev/full', join(dir, '.write-probe'))
    const r = runCli(['migrate'], { DATA_DIR: dir })
    expect(r.code).toBe(78)
    expect(r.err).toBe(`DATA_DIR ${dir} has no space left\n`)
    expect(existsSync(join(dir, '.write-probe'))).toBe(false)
  })

  test('a database file the service user cannot write (left behind by another user)', () => {
    const parent = tempDir()
    chmodSync(parent, 0o755)
    const dir = join(parent, 'data')
    mkdirSync(dir, { mode: 0o777 })
    chmodSync(dir, 0o777)
    writeFileSync(join(dir, 'dibs.db'), '', { mode: 0o444 })
    chmodSync(join(dir, 'dibs.db'), 0o444)
    const r = runCliAs(['migrate'], { DATA_DIR: dir })
    expect(r.code).toBe(78)
    expect(r.err).toBe(`DATA_DIR ${dir} has dibs.db, which is not writable by uid ${r.uid}\n`)
  })

  test('each file-system error reads as a reason', () => {
    const uid = process.getuid!()
    const cases: [string, string][] = [
      ['EACCES', `is not writable by uid ${uid}`],
      ['EPERM', `is not writable by uid ${uid}`],
      ['EROFS', 'is on a read-only file system'],
      ['ENOSPC', 'has no space left'],
      ['EDQUOT', 'has no space left'],
      ['ENOTDIR', 'is not a directory'],
    ]
    for (const [code, text] of cases) expect([code, describeFsError(Object.assign(new Error(code), { code }))]).toEqual([code, text])
  })
})
