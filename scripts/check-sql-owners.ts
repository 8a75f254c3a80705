// Table-ownership check for all of src/ (issue 29 §1, "one owner per table"): each table is read and
// written only by the folder that owns it (src/db/owners.json: table → folder); other code calls that
// folder's functions. scripts/check-admin-tables.ts holds src/admin/ to it with no exception; this
// check covers every folder, with a baseline of the sites that predate the rule.
//
// A site is one table named by one query outside its owner folder:
//   - SQL text in a string or template literal (a literal with SELECT / INSERT / UPDATE / DELETE /
//     REPLACE / FROM / JOIN in capitals, a template's parts read together): each table after FROM /
//     JOIN / INTO / UPDATE, as `.query(` / `.run(` / `.prepare(` / `sqlite.exec(` receive it;
//   - drizzle on a table object of src/db/schema.ts: `.from(t)`, `.insert(t)`, `.update(t)`,
//     `.delete(t)`, `.innerJoin(t` / `.leftJoin(t` / `.rightJoin(t` / `.fullJoin(t` / `.crossJoin(t`.
// Comments are not read.
//
// The baseline (scripts/sql-owners-baseline.json: file → table → how many sites) lists the sites
// known when the check came; they move behind their owners folder by folder. The check fails on a
// site the baseline does not cover (a new count above the baseline's), and on a baseline that
// lists more than remain (shrink it: `--shrink`, which only ever removes). It prints how many
// baseline sites remain.
//
// `bun scripts/check-sql-owners.ts [--root <dir>] [--list] [--shrink] [--write]`
//   --list    print every site as `file:line table owner`
//   --shrink  lower the baseline to what remains (never adds a site)
//   --write   rewrite the baseline from today's sites, adding new ones (review the diff)
import { Glob } from 'bun'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { lex, schemaImports, schemaTables } from './check-admin-tables'

export const BASELINE = 'scripts/sql-owners-baseline.json'

export type Site = { file: string; line: number; table: string; owner: string; how: 'sql' | 'drizzle' }
/** file → table → how many sites */
export type Baseline = Record<string, Record<string, number>>

/** A literal (a whole template) is SQL when it has one of these keywords in capitals. */
const SQL_TEXT = /\b(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|FROM|JOIN)\b/
const SQL_NAME = /\b(?:from|join|into|update)\s+["`[]?([A-Za-z_][A-Za-z0-9_]*)/gi
const DRIZZLE_CALL = /\.(?:from|insert|update|delete|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin)\(\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?)\s*[,)]/g

/** Whether `file` (relative to the root) lies in the owner folder `owner`. */
export const inFolder = (file: string, owner: string) => file === owner || file.startsWith(`${owner}/`)

/** Every query site of `source` (the file `rel`) on a table of `owners`, wherever it is (owner folder included). */
export function sitesOf(
  rel: string,
  source: string,
  ctx: { owners: Record<string, string>; tables: Map<string, string>; schemaFile: string; root: string },
): Site[] {
  const ownerOf = new Map(Object.entries(ctx.owners).map(([t, o]) => [t.toLowerCase(), o]))
  const { strings, code } = lex(source)
  const sites: Site[] = []
  // SQL text: a template's parts are one literal (a table may follow a `${…}` fragment).
  const sqlTemplates = new Set(strings.filter((s) => s.template !== undefined && SQL_TEXT.test(s.text)).map((s) => s.template))
  for (const s of strings) {
    if (!(s.template === undefined ? SQL_TEXT.test(s.text) : sqlTemplates.has(s.template))) continue
    for (const m of s.text.matchAll(SQL_NAME)) {
      const owner = ownerOf.get(m[1]!.toLowerCase())
      if (owner === undefined) continue
      const line = s.line + (s.text.slice(0, m.index).match(/\n/g)?.length ?? 0)
      sites.push({ file: rel, line, table: m[1]!.toLowerCase(), owner, how: 'sql' })
    }
  }
  // drizzle: the names this file imports for the schema's table objects (`import * as schema` → `schema.x`).
  const local = new Map<string, string>()
  for (const imp of schemaImports(join(ctx.root, rel), source, ctx.schemaFile))
    if (imp.name === '*') for (const [name, table] of ctx.tables) local.set(`${imp.local}.${name}`, table)
    else if (ctx.tables.has(imp.name)) local.set(imp.local, ctx.tables.get(imp.name)!)
  if (local.size > 0)
    for (const m of code.matchAll(DRIZZLE_CALL)) {
      const table = local.get(m[1]!)
      if (table === undefined) continue
      const line = code.slice(0, m.index).split('\n').length
      sites.push({ file: rel, line, table, owner: ctx.owners[table] ?? 'nobody', how: 'drizzle' })
    }
  return sites.sort((a, b) => a.line - b.line || a.table.localeCompare(b.table))
}

export type SqlOwnersResult = {
  /** every site outside its owner folder */
  sites: Site[]
  /** sites of a file and table above the baseline's count (all that file's sites of that table: which one is new is not known) */
  fresh: Site[]
  /** baseline entries with more sites than remain: file, table, baseline count, count now */
  stale: { file: string; table: string; was: number; now: number }[]
  /** sites the baseline covers */
  known: number
  problems: string[]
  files: number
}

export function readBaseline(root: string): Baseline {
  const file = join(root, BASELINE)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Baseline) : {}
}

/** Today's sites as a baseline (files and tables sorted). */
export function baselineOf(sites: Site[]): Baseline {
  const out: Baseline = {}
  for (const s of [...sites].sort((a, b) => a.file.localeCompare(b.file) || a.table.localeCompare(b.table))) {
    const perFile = (out[s.file] ??= {})
    perFile[s.table] = (perFile[s.table] ?? 0) + 1
  }
  return out
}

export function checkSqlOwners(root: string, baseline: Baseline = readBaseline(root)): SqlOwnersResult {
  const owners = JSON.parse(readFileSync(join(root, 'src/db/owners.json'), 'utf8')) as Record<string, string>
  const schemaFile = join(root, 'src/db/schema.ts')
  const tables = schemaTables(readFileSync(schemaFile, 'utf8'))
  const problems: string[] = []
  for (const table of tables.values()) if (!owners[table]) problems.push(`src/db/owners.json: table ${table} (src/db/schema.ts) has no owner`)
  const files = [...new Glob('src/**/*.{ts,tsx}').scanSync({ cwd: root })].sort()
  const sites: Site[] = []
  for (const rel of files)
    for (const site of sitesOf(rel, readFileSync(join(root, rel), 'utf8'), { owners, tables, schemaFile, root }))
      if (!inFolder(rel, site.owner)) sites.push(site)
  const now = baselineOf(sites)
  const fresh = sites.filter((s) => now[s.file]![s.table]! > (baseline[s.file]?.[s.table] ?? 0))
  const stale: SqlOwnersResult['stale'] = []
  let known = 0
  for (const [file, perTable] of Object.entries(baseline))
    for (const [table, was] of Object.entries(perTable)) {
      const count = now[file]?.[table] ?? 0
      known += Math.min(was, count)
      if (count < was) stale.push({ file, table, was, now: count })
    }
  return { sites, fresh, stale, known, problems, files: files.length }
}

/** The baseline lowered to today's sites: entries only shrink or go; nothing is added. */
export function shrunk(baseline: Baseline, sites: Site[]): Baseline {
  const now = baselineOf(sites)
  const out: Baseline = {}
  for (const [file, perTable] of Object.entries(baseline))
    for (const [table, was] of Object.entries(perTable)) {
      const count = Math.min(was, now[file]?.[table] ?? 0)
      if (count > 0) (out[file] ??= {})[table] = count
    }
  return out
}

const siteText = (s: Site) => `${s.file}:${s.line} ${s.table} ${s.owner}`

if (import.meta.main) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--root')
  const root = at === -1 ? resolve(import.meta.dir, '..') : resolve(args[at + 1]!)
  const result = checkSqlOwners(root)
  const save = (b: Baseline) => writeFileSync(join(root, BASELINE), `${JSON.stringify(b, null, 2)}\n`)
  if (args.includes('--write')) {
    save(baselineOf(result.sites))
    console.log(`check-sql-owners: ${BASELINE} rewritten: ${result.sites.length} site(s), ${result.fresh.length} of them new`)
    process.exit(0)
  }
  if (args.includes('--shrink')) {
    save(shrunk(readBaseline(root), result.sites))
    console.log(`check-sql-owners: ${BASELINE} shrunk by ${result.stale.reduce((n, s) => n + s.was - s.now, 0)} site(s)`)
    process.exit(0)
  }
  if (args.includes('--list')) for (const s of result.sites) console.log(siteText(s))
  for (const p of result.problems) console.log(p)
  if (result.fresh.length > 0) {
    console.log('SQL outside its table owner (file:line table owner): call a function of the owner folder instead')
    for (const s of result.fresh) console.log(`  ${siteText(s)}`)
  }
  if (result.stale.length > 0) {
    console.log(`${BASELINE} lists sites that are gone (run \`bun run check:sql --shrink\`):`)
    for (const s of result.stale) console.log(`  ${s.file} ${s.table}: ${s.was} in the baseline, ${s.now} now`)
  }
  const owners = new Map<string, number>()
  for (const s of result.sites) owners.set(s.owner, (owners.get(s.owner) ?? 0) + 1)
  const byOwner = [...owners].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o} ${n}`)
  console.log(`check-sql-owners: ${result.files} files; ${result.known} baseline site(s) remain outside their owners (by owner: ${byOwner.join(', ')})`)
  if (result.problems.length || result.fresh.length || result.stale.length) process.exit(1)
}
