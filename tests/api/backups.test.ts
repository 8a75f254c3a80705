// Automatic backups and a safe restore (issue 17 item 6): the job writes verified VACUUM INTO
// copies (600, UTC-named) into DATA_DIR/backups, keeps the newest BACKUP_KEEP, logs to
// maintenance_logs; `dibs restore` refuses while a server runs on that DATA_DIR and keeps the
// replaced file; `dibs backup` without a file writes into the same folder.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { backupDue, backupJobs, backupName, listBackups, writeBackup } from '../../src/ops/backups'
import { createUserWithSession, makeDeps, runCli, spawnCli, startTestServer, testClock, type TestDeps } from '../helpers'

describe('automatic backups', () => {
  let deps: TestDeps
  const clock = testClock(Date.parse('2026-11-24T04:40:00Z'))
  beforeAll(async () => {
    deps = makeDeps({ BACKUP_KEEP: '3' }, clock)
    await createUserWithSession(deps, { email: 'kept@example.com' })
  })
  afterAll(() => deps.close())
  const dir = () => join(deps.config.dataDir, 'backups')

  test('writes a verified copy, 600 in a 700 folder, named by its UTC time, logged as database-backup', async () => {
    expect(backupDue(deps.config, clock.now().getTime())).toBe(true)
    const r = await writeBackup(deps)
    expect(r.file).toBe(join(dir(), 'dibs-2026-11-24T04-40-00Z.db'))
    expect(statSync(r.file).mode & 0o777).toBe(0o600)
    expect(statSync(dir()).mode & 0o777).toBe(0o700)
    expect(r.integrity).toBe('ok')
    const copy = new Database(r.file, { readonly: true })
    expect(copy.query('PRAGMA quick_check').get()).toEqual({ quick_check: 'ok' })
    expect(copy.query("SELECT email FROM users WHERE email = 'kept@example.com'").get()).toEqual({ email: 'kept@example.com' })
    copy.close()
    const log = deps.sqlite.query("SELECT status, details FROM maintenance_logs WHERE job_name = 'database-backup'").all() as {
      status: string
      details: string
    }[]
    expect(log).toHaveLength(1)
    expect(log[0]!.status).toBe('success')
    expect(JSON.parse(log[0]!.details)).toMatchObject({ file: 'dibs-2026-11-24T04-40-00Z.db', deleted: 0, kept: 1 })
    expect(readdirSync(dir()).filter((n) => n.endsWith('.partial'))).toEqual([])
  })

  test('is due again only after BACKUP_INTERVAL_HOURS; keeps the newest BACKUP_KEEP and leaves other files alone', async () => {
    expect(backupDue(deps.config, clock.now().getTime() + 23 * 3600_000)).toBe(false)
    expect(backupDue(deps.config, clock.now().getTime() + 24 * 3600_000)).toBe(true)
    writeFileSync(join(dir(), 'before-upgrade.db'), 'an operator keeps this') // not ours: never deleted
    const [job] = backupJobs(deps.config)
    expect(job?.name).toBe('database-backup')
    for (let day = 1; day <= 4; day++) {
      clock.advance(24 * 3600_000)
      expect(await job!.run(deps)).toMatchObject({ integrity: 'ok' })
      expect(await job!.run(deps)).toBeNull() // not due again within the interval
    }
    expect(listBackups(dir()).map((b) => b.name)).toEqual([
      backupName(new Date('2026-11-28T04:40:00Z')),
      backupName(new Date('2026-11-27T04:40:00Z')),
      backupName(new Date('2026-11-26T04:40:00Z')),
    ])
    expect(existsSync(join(dir(), 'before-upgrade.db'))).toBe(true)
    const last = deps.sqlite.query("SELECT details FROM maintenance_logs WHERE job_name = 'database-backup' ORDER BY id DESC LIMIT 1").get() as {
      details: string
    }
    expect(JSON.parse(last.details)).toMatchObject({ deleted: 1, kept: 3 })
  })

  test('BACKUP_INTERVAL_HOURS=0 switches the job off; a bad value names the variable', () => {
    const off = makeDeps({ BACKUP_INTERVAL_HOURS: '0' })
    expect(backupJobs(off.config)).toEqual([])
    expect(backupDue(off.config, Date.now())).toBe(false)
    off.close()
    const r = runCli(['migrate'], { DATA_DIR: deps.config.dataDir, BACKUP_KEEP: '0' })
    expect(r.code).toBe(78)
    expect(r.err).toContain('BACKUP_KEEP: expected an integer from 1 to 1000, got "0"')
  })
})

describe('dibs backup and dibs restore beside a server', () => {
  test('restore refuses while a server runs on the DATA_DIR; after it stops, restores and keeps the replaced file', async () => {
    const server = await startTestServer()
    const env = { DATA_DIR: server.config.dataDir }
    await createUserWithSession(server.deps, { email: 'before@example.com' })
    const b = await spawnCli(['backup'], env) // into DATA_DIR/backups; no progress bar when stderr is not a terminal
    expect(b.err).toBe('')
    expect(b.code).toBe(0)
    expect(b.out).toMatch(/^backup written: .*\/backups\/dibs-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db \(\d+ KiB, integrity ok; 1 kept, 0 older removed\)\n$/)
    const file = listBackups(join(server.config.dataDir, 'backups'))[0]!.name
    await createUserWithSession(server.deps, { email: 'after@example.com' })

    const refused = await spawnCli(['restore', join(server.config.dataDir, 'backups', file)], env)
    expect(refused.code).toBe(1)
    expect(refused.err).toContain(`restore failed: a server is running on ${server.config.dataDir} (pid ${process.pid}, port ${server.port}); stop it first`)
    await server.stop()

    const r = await spawnCli(['restore', join(server.config.dataDir, 'backups', file)], env)
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const kept = /previous database kept as (\S+)\)/.exec(r.out)?.[1]
    expect(kept).toBeDefined()
    const previous = new Database(kept!, { readonly: true })
    expect(previous.query("SELECT count(*) AS n FROM users WHERE email = 'after@example.com'").get()).toEqual({ n: 1 })
    previous.close()
    const restored = new Database(server.config.dbPath, { readonly: true })
    expect(restored.query("SELECT email FROM users WHERE email IN ('before@example.com', 'after@example.com')").all()).toEqual([
      { email: 'before@example.com' },
    ])
    restored.close()
  })

  test('restore checks the backup first: a damaged file is refused and the database stays', async () => {
    const deps = makeDeps()
    const bad = join(deps.config.dataDir, 'not-a-backup.db')
    writeFileSync(bad, 'SQLite format 3\0 but not really')
    const r = await spawnCli(['restore', bad], { DATA_DIR: deps.config.dataDir })
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/restore failed: .*(not a database|integrity|malformed)/i)
    expect(deps.sqlite.query('SELECT count(*) AS n FROM __migrations').get()).toMatchObject({ n: expect.any(Number) })
    deps.close()
  })
})
