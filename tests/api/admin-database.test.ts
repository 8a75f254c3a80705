// Admin Database page API (issue 14 item 8): table sizes, integrity check, optimize, a consistent
// backup download and archive — admin only, each action audited.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, utimesSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { maintenanceLogs, posts } from '../../src/db/schema'
import { tableStats } from '../../src/db/inspect'
import { integrityCheck } from '../../src/db/inspect'
import { call, runCli } from '../helpers'
import { adminWorld, auditRows, expectAdminOnly, type AdminWorld } from './admin-data-helpers'

let w: AdminWorld
beforeEach(async () => {
  w = await adminWorld()
})
afterEach(() => w.deps.close())

let n = 0
function addPost(at: number, forum = 'product') {
  n++
  w.deps.db
    .insert(posts)
    .values({
      redditId: `t3_db${n}`,
      forum,
      subreddit: 'GunAccessoriesForSale',
      title: `[WTS] Post ${n}`,
      url: `https://reddit.test/${n}`,
      postType: 'wts',
      createdAt: new Date(at),
    })
    .run()
}

describe('every route is admin only (signed out 401, subscriber 403, admin ok)', () => {
  const routes = [
    { method: 'GET', path: '/api/admin/database' },
    { method: 'POST', path: '/api/admin/database/integrity', json: { mode: 'quick' } },
    { method: 'POST', path: '/api/admin/database/optimize' },
    { method: 'GET', path: '/api/admin/database/backup' },
    { method: 'POST', path: '/api/admin/database/archive', json: { olderThanHours: 24 } },
  ]
  for (const route of routes) test(`${route.method} ${route.path}`, () => expectAdminOnly(w, route).then(() => undefined))
})

describe('GET /api/admin/database', () => {
  test('counts rows per table, measures bytes with dbstat, and reports the file and WAL', async () => {
    addPost(w.clock.now().getTime())
    const r = await call(w.app, 'GET', '/api/admin/database', { cookie: w.admin.cookie })
    expect(r.body.sizes).toBe('dbstat')
    const byName = Object.fromEntries(r.body.tables.map((t: { name: string }) => [t.name, t]))
    expect(byName.users.rows).toBe(2)
    expect(byName.posts.rows).toBe(1)
    expect(byName.outbox.rows).toBe(0)
    expect(byName.users.bytes).toBeGreaterThan(0)
    expect(byName.posts.indexBytes).toBeGreaterThan(0) // posts_type_created, posts_created, reddit_id
    expect(r.body.files.db).toBeGreaterThan(0)
    expect(r.body.files.total).toBe(r.body.files.db + r.body.files.wal)
    expect(r.body.backup).toMatchObject({ at: null, files: 0, newestFile: null, lastRecorded: null })
  })

  test('without dbstat the sizes are an estimate by row share, and say so', () => {
    addPost(w.clock.now().getTime())
    const s = tableStats(w.deps.sqlite, { dbstat: false })
    expect(s.sizes).toBe('estimate')
    const users = s.tables.find((t) => t.name === 'users')!
    const posts = s.tables.find((t) => t.name === 'posts')!
    expect(users.rows).toBe(2)
    expect(users.bytes).toBeGreaterThan(posts.bytes) // 2 rows vs 1
  })

  test('the last backup is the newest file in DATA_DIR/backups or an audited download, whichever is later', async () => {
    const dir = join(w.deps.config.dataDir, 'backups')
    mkdirSync(dir)
    writeFileSync(join(dir, 'dibs-old.db'), 'x')
    writeFileSync(join(dir, 'dibs-new.db'), 'xyz')
    utimesSync(join(dir, 'dibs-old.db'), new Date('2026-03-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z'))
    utimesSync(join(dir, 'dibs-new.db'), new Date('2026-03-05T00:00:00Z'), new Date('2026-03-05T00:00:00Z'))
    let r = await call(w.app, 'GET', '/api/admin/database', { cookie: w.admin.cookie })
    expect(r.body.backup).toMatchObject({
      files: 2,
      newestFile: { name: 'dibs-new.db', bytes: 3, at: '2026-03-05T00:00:00.000Z' },
      at: '2026-03-05T00:00:00.000Z',
    })
    await call(w.app, 'GET', '/api/admin/database/backup', { cookie: w.admin.cookie })
    r = await call(w.app, 'GET', '/api/admin/database', { cookie: w.admin.cookie })
    expect(r.body.backup.lastRecorded).toEqual({ at: '2026-03-10T12:00:00.000Z', actor: 'admin@example.com', action: 'db.backup_download' })
    expect(r.body.backup.at).toBe('2026-03-10T12:00:00.000Z')
  })
})

test('`dibs backup <file>` is recorded in the audit log, so the page knows about a copy written anywhere', async () => {
  const out = join(w.deps.config.dataDir, 'elsewhere.db')
  const r = runCli(['backup', out], { DATA_DIR: w.deps.config.dataDir })
  expect(r.code).toBe(0)
  const stats = await call(w.app, 'GET', '/api/admin/database', { cookie: w.admin.cookie })
  const cli = expect.stringMatching(/^cli(:.+)?$/) // the CLI, with the OS user when known
  expect(stats.body.backup.lastRecorded).toMatchObject({ actor: cli, action: 'db.backup' })
  expect(auditRows(w, 'db.backup')).toMatchObject([{ actor: cli, actorId: null, target: out, result: 'ok' }])
})

describe('integrity check', () => {
  test('quick and full answer ok on a healthy database, and each check is an audit row by the admin', async () => {
    for (const mode of ['quick', 'full'] as const) {
      const r = await call(w.app, 'POST', '/api/admin/database/integrity', { cookie: w.admin.cookie, json: { mode } })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ mode, ok: true, messages: ['ok'] })
    }
    const rows = auditRows(w, 'db.integrity_check')
    expect(rows.map((r) => [r.actor, r.actorId, r.result, r.details?.mode])).toEqual([
      ['admin@example.com', w.admin.userId, 'ok', 'quick'],
      ['admin@example.com', w.admin.userId, 'ok', 'full'],
    ])
  })

  test('an unknown mode is refused', async () => {
    const r = await call(w.app, 'POST', '/api/admin/database/integrity', { cookie: w.admin.cookie, json: { mode: 'deep' } })
    expect(r.status).toBe(400)
    expect(r.body.error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/^mode: /) })
  })

  test('a damaged file is reported with what SQLite found', () => {
    const file = join(tmpdir(), `dibs-damaged-${process.pid}-${Date.now()}.db`)
    const db = new Database(file)
    db.run('CREATE TABLE t (a TEXT)')
    db.run('CREATE INDEX t_a ON t (a)')
    for (let k = 0; k < 20; k++) db.run('INSERT INTO t VALUES (?)', [`value number ${k}`])
    const root = db.query<{ rootpage: number }, []>("SELECT rootpage FROM sqlite_master WHERE name = 't_a'").get()!.rootpage
    db.close()
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.alloc(150, 0x41), 0, 150, (root - 1) * 4096 + 3900)
    closeSync(fd)
    const damaged = new Database(file)
    try {
      const r = integrityCheck({ sqlite: damaged }, 'quick')
      expect(r.ok).toBe(false)
      expect(r.messages.join('\n')).toContain('Tree 3 page 3')
      expect(integrityCheck({ sqlite: damaged }, 'full').ok).toBe(false)
    } finally {
      damaged.close()
      rmSync(file, { force: true })
    }
  })
})

describe('optimize', () => {
  test('VACUUM gives back the pages of deleted rows: sizes before and after, audited', async () => {
    const t = w.clock.now().getTime()
    w.deps.sqlite.transaction(() => {
      for (let i = 0; i < 2000; i++) addPost(t)
    })()
    w.deps.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
    w.deps.sqlite.run('DELETE FROM posts')
    const stats = await call(w.app, 'GET', '/api/admin/database', { cookie: w.admin.cookie })
    expect(stats.body.freeBytes).toBeGreaterThan(0)
    const r = await call(w.app, 'POST', '/api/admin/database/optimize', { cookie: w.admin.cookie })
    expect(r.status).toBe(200)
    expect(r.body.after.db).toBeLessThan(r.body.before.db)
    expect(r.body.after.wal).toBe(0)
    expect(r.body.savedBytes).toBe(r.body.before.total - r.body.after.total)
    const [row] = auditRows(w, 'db.optimize')
    expect(row).toMatchObject({ actor: 'admin@example.com', result: 'ok', details: { beforeBytes: r.body.before.total, afterBytes: r.body.after.total } })
    const after = await call(w.app, 'GET', '/api/admin/database', { cookie: w.admin.cookie })
    expect(after.body.freeBytes).toBe(0)
  })

  test('another process holding a write lock: 409 DB_BUSY after the busy timeout, nothing changed', async () => {
    const other = new Database(w.deps.config.dbPath)
    other.run('BEGIN IMMEDIATE')
    w.deps.sqlite.run('PRAGMA busy_timeout = 50')
    try {
      const r = await call(w.app, 'POST', '/api/admin/database/optimize', { cookie: w.admin.cookie })
      expect(r.status).toBe(409)
      expect(r.body.error.code).toBe('DB_BUSY')
    } finally {
      other.run('ROLLBACK')
      other.close()
      w.deps.sqlite.run('PRAGMA busy_timeout = 5000')
    }
    // The failure could not be audited while the lock was held (the row would need it too).
    expect(auditRows(w, 'db.optimize')).toEqual([])
  })
})

describe('backup download', () => {
  test('an attachment that is a valid SQLite file holding the rows; no temp copy is left; audited', async () => {
    addPost(w.clock.now().getTime())
    const res = await w.app.handle(new Request('http://localhost:3000/api/admin/database/backup', { headers: { cookie: w.admin.cookie } }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="dibs-backup-2026-03-10T12-00-00-000Z.db"')
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe('SQLite format 3')
    const file = join(tmpdir(), `dibs-dl-${process.pid}-${Date.now()}.db`)
    writeFileSync(file, bytes)
    const copy = new Database(file, { readonly: true })
    try {
      expect(copy.query<{ v: string }, []>('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' } as never)
      expect(copy.query('SELECT email FROM users ORDER BY id').all()).toEqual([{ email: 'admin@example.com' }, { email: 'sub@example.com' }])
      expect(copy.query('SELECT count(*) AS n FROM posts').get()).toEqual({ n: 1 })
    } finally {
      copy.close()
      rmSync(file, { force: true })
    }
    expect(readdirSync(w.deps.config.dataDir).filter((f) => f.startsWith('.download-'))).toEqual([])
    expect(auditRows(w, 'db.backup_download')).toMatchObject([{ actor: 'admin@example.com', result: 'ok', details: { integrity: 'ok', bytes: bytes.length } }])
  })

  test('a download cancelled half way leaves nothing behind either', async () => {
    const res = await w.app.handle(new Request('http://localhost:3000/api/admin/database/backup', { headers: { cookie: w.admin.cookie } }))
    const reader = res.body!.getReader()
    await reader.read()
    await reader.cancel()
    expect(readdirSync(w.deps.config.dataDir).filter((f) => f.startsWith('.download-'))).toEqual([])
    expect(existsSync(w.deps.config.dbPath)).toBe(true)
  })
})

describe('archive old posts', () => {
  test('deletes posts older than the cutoff (default 7 days), keeps the rest, logs the job and audits the count', async () => {
    const now = w.clock.now().getTime()
    addPost(now - 40 * 86_400_000)
    addPost(now - 8 * 86_400_000)
    addPost(now - 2 * 86_400_000)
    let r = await call(w.app, 'POST', '/api/admin/database/archive', { cookie: w.admin.cookie, json: { olderThanHours: 24 * 30 } })
    expect(r.body).toEqual({ count: 1 })
    r = await call(w.app, 'POST', '/api/admin/database/archive', { cookie: w.admin.cookie })
    expect(r.body).toEqual({ count: 1 })
    expect(w.deps.db.select().from(posts).all()).toHaveLength(1)
    expect(auditRows(w, 'posts.archive').map((a) => a.details)).toEqual([
      { olderThanHours: 720, count: 1 },
      { olderThanHours: 168, count: 1 },
    ])
    expect(
      w.deps.db
        .select()
        .from(maintenanceLogs)
        .all()
        .map((l) => l.jobName),
    ).toEqual(['archive-posts', 'archive-posts'])
  })

  test('a cutoff below one hour is refused and archives nothing', async () => {
    addPost(w.clock.now().getTime() - 86_400_000)
    const r = await call(w.app, 'POST', '/api/admin/database/archive', { cookie: w.admin.cookie, json: { olderThanHours: 0 } })
    expect(r.status).toBe(400)
    expect(w.deps.db.select().from(posts).all()).toHaveLength(1)
    expect(auditRows(w, 'posts.archive')).toEqual([])
  })
})
