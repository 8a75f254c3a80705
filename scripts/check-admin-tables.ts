// Table-ownership check for src/admin/ (issue 30 §3): an admin page calls the service functions of
// the capability that owns a table; it never queries that table itself. The owners are
// src/db/owners.json (table → src/ folder; every table of src/db/schema.ts and SQLite's own).
//
// Fails when a file under src/admin/:
//   - names another capability's table in SQL inside a string or template literal
//     (FROM / JOIN / INTO / UPDATE / DELETE FROM <table>; comments are not read), or
//   - imports a table object from src/db/schema.ts (admin owns no table, so any one is another's).
// Also fails when a table of src/db/schema.ts has no owner in owners.json, or an owner folder is missing.
//
// `bun scripts/check-admin-tables.ts [--root <dir>]` prints each finding as file:line and exits 1 on any.
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export const ADMIN_FOLDER = 'src/admin'

export type Finding = { file: string; line: number; table: string; owner: string; how: 'sql' | 'import'; text: string }

/** A string literal's text (a template's parts between `${…}` each one, with the template's number) and the line it starts on. */
export type StringPart = { text: string; line: number; template?: number }

/**
 * Reads TypeScript source: each string literal (template parts between `${…}` included) with the line
 * it starts on, and the code with every string, comment and regex literal blanked (lines kept).
 */
export function lex(source: string): { strings: StringPart[]; code: string } {
  const out: StringPart[] = []
  const blank: [number, number][] = [] // [from, to) of strings, comments and regexes
  let i = 0
  let line = 1
  // The last significant character outside strings and comments: decides whether '/' starts a regex.
  let prev = ''
  const depth: { braces: number; template: number }[] = [] // each open template's ${…}: brace depth and the template
  let braces = 0
  let templates = 0
  const readString = (quote: string) => {
    const start = line
    const from = i
    let text = ''
    i++
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        text += source[i]! + (source[i + 1] ?? '')
        i += 2
      } else {
        if (source[i] === '\n') line++
        text += source[i++]
      }
    }
    i++
    blank.push([from, i])
    out.push({ text, line: start })
  }
  // Reads template text up to the closing backtick or an opening ${ (then code resumes).
  const readTemplate = (template: number) => {
    const start = line
    const from = i
    let text = ''
    while (i < source.length) {
      const c = source[i]!
      if (c === '\\') {
        text += c + (source[i + 1] ?? '')
        i += 2
      } else if (c === '`') {
        i++
        blank.push([from, i])
        out.push({ text, line: start, template })
        return
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2
        blank.push([from, i])
        out.push({ text, line: start, template })
        depth.push({ braces, template })
        braces++
        return
      } else {
        if (c === '\n') line++
        text += c
        i++
      }
    }
    blank.push([from, i])
    out.push({ text, line: start, template })
  }
  while (i < source.length) {
    const c = source[i]!
    const next = source[i + 1]
    if (c === '\n') {
      line++
      i++
    } else if (/\s/.test(c)) i++
    else if (c === '/' && next === '/') {
      const from = i
      while (i < source.length && source[i] !== '\n') i++
      blank.push([from, i])
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2)
      const stop = end === -1 ? source.length : end + 2
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++
      blank.push([i, stop])
      i = stop
    } else if (c === '/' && (prev === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(prev) || /\b(return|typeof|case|in|of)$/.test(source.slice(0, i).trimEnd()))) {
      // A regex literal: skip it (its quotes are not strings).
      const from = i
      i++
      let inClass = false
      while (i < source.length && (source[i] !== '/' || inClass) && source[i] !== '\n') {
        if (source[i] === '\\') i++
        else if (source[i] === '[') inClass = true
        else if (source[i] === ']') inClass = false
        i++
      }
      i++
      blank.push([from, i])
      prev = ')'
    } else if (c === '"' || c === "'") {
      readString(c)
      prev = '"'
    } else if (c === '`') {
      blank.push([i, ++i])
      readTemplate(templates++)
      prev = '"'
    } else if (c === '{') {
      braces++
      i++
      prev = c
    } else if (c === '}') {
      braces--
      i++
      if (depth.length && depth.at(-1)!.braces === braces) {
        readTemplate(depth.pop()!.template)
        prev = '"'
      } else prev = c
    } else {
      prev = c
      i++
    }
  }
  let code = ''
  let at = 0
  for (const [from, to] of blank) {
    code += source.slice(at, from) + source.slice(from, to).replace(/[^\n]/g, ' ')
    at = to
  }
  return { strings: out, code: code + source.slice(at) }
}

/** Each string literal's text (template parts between `${…}` included) with the line it starts on; comments and regex literals skipped. */
export function stringsOf(source: string): StringPart[] {
  return lex(source).strings
}

const SQL_NAME = /\b(?:from|join|into|update)\s+["`[]?([A-Za-z_][A-Za-z0-9_]*)/gi

/** Tables named after FROM / JOIN / INTO / UPDATE (DELETE FROM included) in the strings of `source`. */
export function tablesInSql(source: string): { table: string; line: number; text: string }[] {
  const out: { table: string; line: number; text: string }[] = []
  for (const s of stringsOf(source))
    for (const m of s.text.matchAll(SQL_NAME)) {
      const before = s.text.slice(0, m.index)
      out.push({ table: m[1]!, line: s.line + (before.match(/\n/g)?.length ?? 0), text: m[0] })
    }
  return out
}

/** Table objects of src/db/schema.ts: exported const name → SQL table name. */
export function schemaTables(schemaSource: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of schemaSource.matchAll(/export const (\w+)\s*=\s*sqliteTable\(\s*['"]([^'"]+)['"]/g)) out.set(m[1]!, m[2]!)
  return out
}

/** Names imported from the schema module (`import { a, type B } from '…/db/schema'`, or `* as x`), each with its local name. */
export function schemaImports(file: string, source: string, schemaFile: string): { name: string; local: string; line: number }[] {
  const out: { name: string; local: string; line: number }[] = []
  for (const m of source.matchAll(/^\s*import\s+(type\s+)?([^'";]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
    if (!m[3]!.startsWith('.')) continue
    const target = resolve(dirname(file), m[3]!)
    if (target !== schemaFile && `${target}.ts` !== schemaFile) continue
    if (m[1]) continue // a type-only import reads no table
    const line = source.slice(0, m.index).split('\n').length + (m[0].match(/^\s*/)![0].match(/\n/g)?.length ?? 0)
    const clause = m[2]!
    const ns = clause.match(/\*\s+as\s+(\w+)/)
    if (ns) out.push({ name: '*', local: ns[1]!, line })
    const named = clause.match(/\{([^}]*)\}/)?.[1] ?? ''
    for (const part of named.split(',')) {
      const p = part.trim()
      if (!p || p.startsWith('type ')) continue
      const [name, local] = p.split(/\s+as\s+/)
      out.push({ name: name!.trim(), local: (local ?? name!).trim(), line })
    }
  }
  return out
}

export type CheckResult = { findings: Finding[]; problems: string[]; checked: number }

export function checkAdminTables(root: string): CheckResult {
  const owners = JSON.parse(readFileSync(join(root, 'src/db/owners.json'), 'utf8')) as Record<string, string>
  const schemaFile = join(root, 'src/db/schema.ts')
  const tables = schemaTables(readFileSync(schemaFile, 'utf8'))
  const problems: string[] = []
  for (const table of tables.values()) if (!owners[table]) problems.push(`src/db/owners.json: table ${table} (src/db/schema.ts) has no owner`)
  for (const [table, owner] of Object.entries(owners))
    if (!existsSync(join(root, owner))) problems.push(`src/db/owners.json: ${table} → ${owner}: no such folder`)
  const ownerOf = new Map(Object.entries(owners).map(([t, o]) => [t.toLowerCase(), o]))
  const findings: Finding[] = []
  const files = [...new Glob(`${ADMIN_FOLDER}/**/*.{ts,tsx}`).scanSync({ cwd: root })].sort()
  for (const rel of files) {
    const source = readFileSync(join(root, rel), 'utf8')
    for (const hit of tablesInSql(source)) {
      const owner = ownerOf.get(hit.table.toLowerCase())
      if (owner !== undefined && owner !== ADMIN_FOLDER) findings.push({ file: rel, line: hit.line, table: hit.table, owner, how: 'sql', text: hit.text })
    }
    for (const imp of schemaImports(join(root, rel), source, schemaFile)) {
      if (imp.name === '*') {
        findings.push({ file: rel, line: imp.line, table: '*', owner: 'src/db', how: 'import', text: 'import * from the schema' })
        continue
      }
      const table = tables.get(imp.name)
      if (table === undefined) continue // a type or helper, not a table
      const owner = owners[table] ?? 'nobody'
      if (owner !== ADMIN_FOLDER) findings.push({ file: rel, line: imp.line, table, owner, how: 'import', text: `import { ${imp.name} }` })
    }
  }
  return { findings, problems, checked: files.length }
}

if (import.meta.main) {
  const at = process.argv.indexOf('--root')
  const root = at === -1 ? resolve(import.meta.dir, '..') : resolve(process.argv[at + 1]!)
  const { findings, problems, checked } = checkAdminTables(root)
  for (const p of problems) console.log(p)
  for (const f of findings)
    console.log(
      `${f.file}:${f.line}: ${f.how === 'sql' ? `queries ${f.table} (${f.text})` : `imports the table object of ${f.table}`}, which ${f.owner}/ owns: call a service function of ${f.owner}/ instead`,
    )
  if (findings.length || problems.length) {
    console.log(`\n${findings.length + problems.length} finding(s); table owners: src/db/owners.json`)
    process.exit(1)
  }
  console.log(`check-admin-tables: ${checked} files under ${ADMIN_FOLDER}/ query only through their owners`)
}
