// Import-cycle check for src/ and ui/: files (static imports, type-only ones included) and
// capability folders (src/<folder>, ui/<folder>). Prints every cycle found; exits 1 on any.
//
// One rule softens the folder check (docs/ARCHITECTURE.md, "Import rules"): an import of a *pure
// leaf* — a file whose imports, transitively, stay inside its own folder and src/lib/ (e.g.
// access/categories.ts, access/plans.ts, the owners' store files; lib imports only lib, so it leads
// nowhere) — is not a folder edge. Such a file cannot close a cycle; it is vocabulary that
// its folder owns and others may read. `--why` lists those files and the imports behind a cycle.
import { Glob } from 'bun'
import { dirname, join, relative, resolve } from 'node:path'
import { existsSync, readFileSync } from 'node:fs'

const root = resolve(import.meta.dir, '..')
const transpilers = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) }

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec)
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(c) && /\.(ts|tsx)$/.test(c)) return c
  return null
}

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8').replace(/^#!.*/, '')
  const out = new Set<string>()
  // scanImports drops type-only imports; read those with a regex so type cycles count too.
  for (const i of transpilers[file.endsWith('.tsx') ? 'tsx' : 'ts'].scanImports(src)) if (i.kind !== 'dynamic-import') out.add(i.path)
  for (const m of src.matchAll(/^\s*(?:import|export)\s+type\s[^;]*?from\s+['"]([^'"]+)['"]/gm)) out.add(m[1]!)
  for (const m of src.matchAll(/^\s*import\s*\{[^}]*\}\s*from\s+['"]([^'"]+)['"]/gm)) out.add(m[1]!)
  return [...out].map((s) => resolveImport(file, s)).filter((f): f is string => f !== null)
}

const files = [...new Glob('{src,ui}/**/*.{ts,tsx}').scanSync({ cwd: root })].map((f) => join(root, f))
const graph = new Map(files.map((f) => [f, importsOf(f)]))

/** Folder of a file: src/<capability> or ui/<folder>; top-level files are their own node. */
function folderOf(file: string): string {
  const parts = relative(root, file).split('/')
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.join('/')
}

/** Strongly connected components (Tarjan) with more than one node, or a self-loop. */
function cycles(nodes: string[], edges: (n: string) => Iterable<string>): string[][] {
  let index = 0
  const idx = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    on = new Set<string>()
  const out: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges(v)) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1) out.push(scc.sort())
    }
  }
  for (const n of nodes) if (!idx.has(n)) visit(n)
  return out
}

const fileCycles = cycles(files, (f) => graph.get(f) ?? [])

/** src/lib/ imports only itself (docs/ARCHITECTURE.md): a leaf may use its helpers and stay a leaf. */
const LIB = 'src/lib'
/**
 * src/db/ (the tables, asAsync, raw SQL) ends a leaf's walk (issue 29, phase 1: owners' store files run their SQL
 * through it). This hides no cycle: every owner imports src/db directly, so src/db's own edges count as they are.
 */
const DB = 'src/db'
/** Files whose imports, transitively, never leave their folder (but for src/lib/). */
const pure = new Map<string, boolean>()
function isPureLeaf(f: string, seen = new Set<string>()): boolean {
  if (pure.has(f)) return pure.get(f)!
  if (seen.has(f)) return true
  seen.add(f)
  const ok = (graph.get(f) ?? []).every((d) => folderOf(d) === DB || ((folderOf(d) === folderOf(f) || folderOf(d) === LIB) && isPureLeaf(d, seen)))
  pure.set(f, ok)
  return ok
}

const folderEdges = new Map<string, Set<string>>()
const leavesCrossed = new Set<string>()
for (const [f, deps] of graph) {
  const a = folderOf(f)
  for (const d of deps) {
    const b = folderOf(d)
    if (a === b) continue
    if (isPureLeaf(d)) {
      leavesCrossed.add(relative(root, d))
      continue
    }
    ;(folderEdges.get(a) ?? folderEdges.set(a, new Set()).get(a)!).add(b)
  }
}
const folderCycles = cycles([...new Set(files.map(folderOf))], (n) => folderEdges.get(n) ?? [])

/** Why a folder cycle exists: the file imports that cross between its members. */
function crossings(scc: string[]): string[] {
  const members = new Set(scc)
  const lines: string[] = []
  for (const [f, deps] of graph)
    for (const d of deps)
      if (members.has(folderOf(f)) && members.has(folderOf(d)) && folderOf(f) !== folderOf(d) && !isPureLeaf(d))
        lines.push(`      ${relative(root, f)} → ${relative(root, d)}`)
  return lines
}

let bad = 0
for (const c of fileCycles) {
  bad++
  console.log(`file cycle: ${c.map((f) => relative(root, f)).join(' ⇄ ')}`)
}
for (const c of folderCycles) {
  const key = c.join(' ⇄ ')
  bad++
  console.log(`folder cycle: ${key}`)
  if (process.argv.includes('--why')) console.log(crossings(c).join('\n'))
}
if (process.argv.includes('--why')) console.log(`pure leaves read across folders: ${[...leavesCrossed].sort().join(', ')}`)
console.log(bad === 0 ? `no import cycles (${files.length} files)` : `${bad} import cycle(s)`)
process.exit(bad === 0 ? 0 : 1)
