// scripts/check-admin-tables.ts: an admin file that queries another capability's table fails CI.
import { describe, expect, test } from 'bun:test'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { checkAdminTables, schemaTables, stringsOf, tablesInSql } from '../../../scripts/check-admin-tables'

const root = resolve(import.meta.dir, '../../..')

/** A copy of src/db/schema.ts, src/db/owners.json and src/admin/, with the owner folders, to plant files in. */
function sandbox(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dibs-admin-tables-'))
  cpSync(join(root, 'src/admin'), join(dir, 'src/admin'), { recursive: true })
  mkdirSync(join(dir, 'src/db'), { recursive: true })
  for (const f of ['schema.ts', 'owners.json']) cpSync(join(root, 'src/db', f), join(dir, 'src/db', f))
  const owners = JSON.parse(readFileSync(join(root, 'src/db/owners.json'), 'utf8')) as Record<string, string>
  for (const folder of new Set(Object.values(owners))) mkdirSync(join(dir, folder), { recursive: true })
  return dir
}

function runCheck(dir: string) {
  const proc = Bun.spawnSync(['bun', join(root, 'scripts/check-admin-tables.ts'), '--root', dir], { stdout: 'pipe', stderr: 'pipe' })
  return { code: proc.exitCode, out: proc.stdout.toString() }
}

describe('the check on this repository', () => {
  test('passes: no admin file queries another capability’s table (there is no allow-list)', () => {
    const { findings, problems } = checkAdminTables(root)
    expect(problems).toEqual([])
    expect(findings).toEqual([])
  })

  test('every table of src/db/schema.ts has an owner folder that exists', () => {
    const owners = JSON.parse(readFileSync(join(root, 'src/db/owners.json'), 'utf8')) as Record<string, string>
    const tables = [...schemaTables(readFileSync(join(root, 'src/db/schema.ts'), 'utf8')).values()]
    expect(tables.length).toBeGreaterThan(20)
    expect(tables.filter((t) => !owners[t])).toEqual([])
    for (const t of ['sqlite_master', 'dbstat']) expect(owners[t]).toBe('src/db')
  })
})

describe('a planted query fails it', () => {
  test('a SELECT on the outbox in a page folder: exit 1, file and line named', () => {
    const dir = sandbox()
    try {
      expect(runCheck(dir).code).toBe(0)
      mkdirSync(join(dir, 'src/admin/planted'), { recursive: true })
      writeFileSync(
        join(dir, 'src/admin/planted/view.ts'),
        '// reads the outbox itself\nexport const pending = (sqlite: any) =>\n  sqlite.query("SELECT count(*) AS n FROM outbox WHERE status = \'pending\'").get()\n',
      )
      const { code, out } = runCheck(dir)
      expect(code).toBe(1)
      expect(out).toContain('src/admin/planted/view.ts:3: queries outbox')
      expect(out).toContain('src/outbox/')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a table object imported from the schema: exit 1', () => {
    const dir = sandbox()
    try {
      writeFileSync(
        join(dir, 'src/admin/planted.ts'),
        "import { eq } from 'drizzle-orm'\nimport { posts, type User } from '../db/schema'\nexport { posts, eq }\n",
      )
      const { code, out } = runCheck(dir)
      expect(code).toBe(1)
      expect(out).toContain('src/admin/planted.ts:2: imports the table object of posts, which src/forums/ owns')
      expect(out).not.toContain('User')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a table of the schema without an owner: exit 1', () => {
    const dir = sandbox()
    try {
      const schema = join(dir, 'src/db/schema.ts')
      writeFileSync(schema, `${readFileSync(schema, 'utf8')}\nexport const planted = sqliteTable('planted_things', { id: integer('id') })\n`)
      const { code, out } = runCheck(dir)
      expect(code).toBe(1)
      expect(out).toContain('table planted_things (src/db/schema.ts) has no owner')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('reading SQL in strings', () => {
  test('every keyword: FROM, JOIN, INTO, UPDATE, DELETE FROM, any case, quoted names', () => {
    const src = [
      "q('SELECT * FROM posts p JOIN matches m ON m.post_id = p.id')",
      'q("INSERT INTO outbox (id) VALUES (1)")',
      'q(`update "users" set name = ${name}`)',
      "q('DELETE FROM sessions WHERE id = ?')",
    ].join('\n')
    expect(tablesInSql(src).map((h) => [h.table, h.line])).toEqual([
      ['posts', 1],
      ['matches', 1],
      ['outbox', 2],
      ['users', 3],
      ['sessions', 4],
    ])
  })

  test('comments and code are not strings; template parts are, around ${…} with nested strings', () => {
    const src = [
      '// SELECT * FROM posts',
      '/* JOIN matches */',
      'const from = x; deps.db.select().from(users)',
      'const re = /["\']FROM outbox/',
      "const s = `a ${f('JOIN audit_log')} b FROM search_terms`",
    ].join('\n')
    expect(stringsOf(src).map((s) => s.text)).toEqual(['a ', 'JOIN audit_log', ' b FROM search_terms'])
    expect(tablesInSql(src).map((h) => h.table)).toEqual(['audit_log', 'search_terms'])
  })
})
