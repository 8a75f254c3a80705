// scripts/check-sql-owners.ts: SQL on a table outside the folder that owns it fails CI unless the baseline lists it.
import { describe, expect, test } from 'bun:test'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { schemaTables } from '../../../scripts/check-admin-tables'
import { baselineOf, BASELINE, checkSqlOwners, readBaseline, shrunk, sitesOf } from '../../../scripts/check-sql-owners'

const root = resolve(import.meta.dir, '../../..')
const owners = JSON.parse(readFileSync(join(root, 'src/db/owners.json'), 'utf8')) as Record<string, string>
const schemaFile = join(root, 'src/db/schema.ts')
const ctx = { owners, tables: schemaTables(readFileSync(schemaFile, 'utf8')), schemaFile, root }
const sites = (rel: string, source: string) => sitesOf(rel, source, ctx).map((s) => `${s.line} ${s.table} ${s.owner} ${s.how}`)

/** src/db/schema.ts, owners.json and the baseline, plus `files` (path → text): a tree to run the check on. */
function sandbox(files: Record<string, string>, baseline?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'dibs-sql-owners-'))
  mkdirSync(join(dir, 'src/db'), { recursive: true })
  mkdirSync(join(dir, 'scripts'), { recursive: true })
  for (const f of ['schema.ts', 'owners.json']) cpSync(join(root, 'src/db', f), join(dir, 'src/db', f))
  writeFileSync(join(dir, BASELINE), JSON.stringify(baseline ?? {}))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

function runCheck(dir: string, ...args: string[]) {
  const proc = Bun.spawnSync(['bun', join(root, 'scripts/check-sql-owners.ts'), '--root', dir, ...args], { stdout: 'pipe', stderr: 'pipe' })
  return { code: proc.exitCode, out: proc.stdout.toString() }
}

const OUTBOX_READ = 'export const n = (sqlite: any) =>\n  sqlite.query("SELECT count(*) AS n FROM outbox WHERE status = \'pending\'").get()\n'

describe('the check on this repository', () => {
  test('passes: every site outside its owner is in the baseline, and the baseline lists none that is gone', () => {
    const r = checkSqlOwners(root)
    expect(r.problems).toEqual([])
    expect(r.fresh.map((s) => `${s.file}:${s.line} ${s.table}`)).toEqual([])
    expect(r.stale).toEqual([])
    expect(r.known).toBe(r.sites.length)
  })

  test('the outbox is queried and written only in src/outbox/ (no baseline entry names it)', () => {
    const r = checkSqlOwners(root)
    expect(r.sites.filter((s) => s.table === 'outbox')).toEqual([])
    expect(Object.values(readBaseline(root)).filter((perTable) => 'outbox' in perTable)).toEqual([])
  })
})

describe('what counts as a site', () => {
  test('SQL text: each table after FROM, JOIN, INTO, UPDATE; a template read whole across ${…}', () => {
    const src = [
      'q(`SELECT o.id FROM outbox o JOIN matches m ON m.id = ${X}',
      '   JOIN posts p ON p.id = m.post_id`)',
      "q('INSERT INTO users (id) VALUES (1)')",
      'q(`UPDATE "sessions" SET x = 1`)',
    ].join('\n')
    expect(sites('src/notify/a.ts', src)).toEqual([
      '1 matches src/matches sql',
      '1 outbox src/outbox sql',
      '2 posts src/forums sql',
      '3 users src/auth sql',
      '4 sessions src/auth sql',
    ])
  })

  test('prose and comments are not SQL: a string needs a capital keyword, comments are not read', () => {
    const src = ['// SELECT * FROM outbox', "const s = 'copied from posts into the outbox'", "const t = 'Removed from users'"].join('\n')
    expect(sites('src/notify/a.ts', src)).toEqual([])
  })

  test('drizzle on an imported table object (aliases and namespace imports too); type imports and other names are not', () => {
    const src = [
      "import { outbox, users as u, type OutboxRow } from '../db/schema'",
      "import * as schema from '../db/schema'",
      'db.select().from(outbox).innerJoin(u, eq(u.id, outbox.userId)).all()',
      'db.update(schema.matches).set({}).run()',
      'tx.delete(outbox).run(); db.insert(other).values({})',
      'const from = (x: OutboxRow) => x; db.select().from(body)',
    ].join('\n')
    expect(sites('src/notify/a.ts', src)).toEqual([
      '3 outbox src/outbox drizzle',
      '3 users src/auth drizzle',
      '4 matches src/matches drizzle',
      '5 outbox src/outbox drizzle',
    ])
  })
})

describe('the baseline', () => {
  test('a site inside its owner folder is fine; the same outside fails with file:line table owner', () => {
    const inside = sandbox({ 'src/outbox/reads.ts': OUTBOX_READ })
    const outside = sandbox({ 'src/notify/reads.ts': OUTBOX_READ })
    try {
      expect(runCheck(inside).code).toBe(0)
      const { code, out } = runCheck(outside)
      expect(code).toBe(1)
      expect(out).toContain('src/notify/reads.ts:2 outbox src/outbox')
    } finally {
      rmSync(inside, { recursive: true, force: true })
      rmSync(outside, { recursive: true, force: true })
    }
  })

  test('a site the baseline covers passes and is counted; one more in the same file fails', () => {
    const dir = sandbox({ 'src/notify/reads.ts': OUTBOX_READ }, { 'src/notify/reads.ts': { outbox: 1 } })
    try {
      let r = runCheck(dir)
      expect(r.code).toBe(0)
      expect(r.out).toContain('1 baseline site(s) remain')
      writeFileSync(join(dir, 'src/notify/reads.ts'), `${OUTBOX_READ}export const m = (db: any) => db.run("UPDATE outbox SET status = 'sent'")\n`)
      r = runCheck(dir)
      expect(r.code).toBe(1)
      expect(r.out).toContain('src/notify/reads.ts:3 outbox src/outbox')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a baseline site that is gone fails until --shrink lowers it; --shrink never adds one', () => {
    const dir = sandbox({ 'src/notify/new.ts': OUTBOX_READ }, { 'src/notify/reads.ts': { outbox: 1, posts: 2 } })
    try {
      let r = runCheck(dir)
      expect(r.code).toBe(1)
      expect(r.out).toContain('src/notify/reads.ts outbox: 1 in the baseline, 0 now')
      runCheck(dir, '--shrink')
      expect(JSON.parse(readFileSync(join(dir, BASELINE), 'utf8'))).toEqual({})
      r = runCheck(dir)
      expect(r.code).toBe(1) // src/notify/new.ts is still new
      expect(r.out).toContain('src/notify/new.ts:2 outbox src/outbox')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('shrunk keeps the lower count of each file and table', () => {
    const now = baselineOf([
      { file: 'a.ts', line: 1, table: 'posts', owner: 'src/forums', how: 'sql' },
      { file: 'a.ts', line: 2, table: 'users', owner: 'src/auth', how: 'sql' },
      { file: 'a.ts', line: 3, table: 'users', owner: 'src/auth', how: 'sql' },
    ])
    expect(now).toEqual({ 'a.ts': { posts: 1, users: 2 } })
    const sites = [{ file: 'a.ts', line: 2, table: 'users', owner: 'src/auth', how: 'sql' as const }]
    expect(shrunk({ 'a.ts': { posts: 1, users: 2 }, 'b.ts': { users: 1 } }, sites)).toEqual({ 'a.ts': { users: 1 } })
  })
})
