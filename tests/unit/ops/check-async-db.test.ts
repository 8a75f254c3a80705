// scripts/check-async-db.ts finds every synchronous database call form, once per form and line, and not
// awaited builders, raw templates, Map look-ups or comments.
import { expect, test } from 'bun:test'
import { syncSites } from '../../../scripts/check-async-db'

test('synchronous calls are found; awaited builders and look-ups are not', () => {
  const text = [
    'const a = deps.db.select().from(users).where(eq(users.id, id)).get()',
    'deps.db.update(users).set({ name }).run()',
    "const rows = deps.sqlite.query<{ n: number }, []>('SELECT 1').all()",
    "for (const r of sqlite.query('SELECT 1').iterate()) n++",
    'deps.db.transaction((tx) => { tx.delete(users).run() })',
    'const b = await asAsync(deps.db).select().from(users)',
    'const c = await rawRows(db, sql`SELECT 1`)',
    'const d = byId.get(id) ?? cache.get(key)',
    '// deps.db.select().from(users).all() in a comment',
  ].join('\n')
  expect(syncSites(text)).toEqual([
    { line: 1, what: 'a builder ended synchronously' },
    { line: 2, what: 'a builder ended synchronously' },
    { line: 3, what: 'a builder ended synchronously' },
    { line: 3, what: 'bun:sqlite statement' },
    { line: 4, what: 'iterate' },
    { line: 4, what: 'bun:sqlite statement' },
    { line: 5, what: 'a builder ended synchronously' },
    { line: 5, what: 'a synchronous transaction' },
  ])
})
