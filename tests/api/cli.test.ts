import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { runCli, startTestServer } from '../helpers'

describe('operator CLI', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer()
    server.deps.sqlite.run("INSERT INTO users (email, name) VALUES ('backup@example.com', 'Backup')")
  })
  afterAll(() => server.stop())

  test('dibs --help lists every command', () => {
    const r = runCli(['--help'], {})
    expect(r.code).toBe(0)
    for (const c of ['dibs serve', 'dibs migrate', 'dibs backup [<file>]', 'dibs restore <file>', 'dibs doctor', 'dibs healthcheck']) expect(r.out).toContain(c)
  })

  test('an unknown command exits 2 with the help', () => {
    const r = runCli(['frobnicate'], { DATA_DIR: server.config.dataDir })
    expect(r.code).toBe(2)
    expect(r.err).toContain('unknown command "frobnicate"')
  })

  test('a bad configuration value stops the program with one line naming the variable', () => {
    const r = runCli(['migrate'], { PORT: 'eighty' })
    expect(r.code).toBe(78)
    expect(r.err.trim()).toBe('configuration error: PORT: expected an integer from 0 to 65535, got "eighty"')
  })

  test('dibs migrate on an up-to-date database applies nothing', () => {
    const r = runCli(['migrate'], { DATA_DIR: server.config.dataDir })
    expect(r.code).toBe(0)
    expect(r.out).toContain('database is up to date')
  })

  test("dibs backup copies a running server's database and verifies it", () => {
    const out = join(server.config.dataDir, 'out.db')
    const r = runCli(['backup', out], { DATA_DIR: server.config.dataDir })
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain('integrity ok')
    const copy = new Database(out, { readonly: true })
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect(copy.query('SELECT email FROM users').all()).toEqual([{ email: 'backup@example.com' }])
    copy.close()
  })

  test('dibs backup without a file writes into DATA_DIR/backups (as the automatic backups do)', () => {
    const r = runCli(['backup'], { DATA_DIR: server.config.dataDir })
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain(`backup written: ${join(server.config.dataDir, 'backups', 'dibs-')}`)
  })
})
