// Phase 1 of issue 29 made every owner's database code async and dialect-neutral (docs/SCALING.md):
// awaited drizzle builders, SQL text through src/db/raw.ts. This check keeps it so: outside src/db/,
// a synchronous database call — a builder ended with `.all()` / `.get()` / `.run()`, `.iterate(`,
// `sqlite.query` / `prepare` / `run` / `exec` / `transaction`, a `.query<…>` statement, or a
// synchronous `deps.db.transaction(` — fails CI unless scripts/sync-db-baseline.json lists its file
// (file → count). The baseline holds the start-up reads phase 2 removes and the SQLite-only PRAGMAs;
// it only ever shrinks (`--shrink` lowers it; `--list` prints every site; `--write` rewrites it from
// today's sites, only with a reviewed reason).
import { Glob } from 'bun'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The synchronous database calls of one file's text: line numbers and what was found. */
export function syncSites(text: string): { line: number; what: string }[] {
  const out: { line: number; what: string }[] = []
  const patterns: [RegExp, string][] = [
    [/\.(all|get|run)\(\)/, 'a builder ended synchronously'],
    [/\.iterate\(/, 'iterate'],
    [/\bsqlite\s*\.\s*(query|prepare|run|exec|transaction)\b/, 'bun:sqlite statement'],
    [/\.query<[^>]*>\(/, 'bun:sqlite statement'],
    [/\bdeps\.db\.transaction\(/, 'a synchronous transaction'],
  ]
  const lines = text.split('\n')
  lines.forEach((l, i) => {
    if (/^\s*(\/\/|\*)/.test(l)) return
    const seen = new Set<string>()
    for (const [re, what] of patterns) {
      if (!re.test(l) || seen.has(what)) continue
      seen.add(what)
      out.push({ line: i + 1, what })
    }
  })
  return out
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, '..')
  const baselineFile = join(root, 'scripts/sync-db-baseline.json')
  const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as Record<string, number>
  const found = new Map<string, { line: number; what: string }[]>()
  for (const f of new Glob('src/**/*.{ts,tsx}').scanSync({ cwd: root })) {
    if (f.startsWith('src/db/')) continue
    const sites = syncSites(readFileSync(join(root, f), 'utf8'))
    if (sites.length) found.set(f, sites)
  }
  const args = process.argv.slice(2)
  if (args.includes('--list')) for (const [f, sites] of found) for (const s of sites) console.log(`${f}:${s.line} ${s.what}`)
  const over = [...found].filter(([f, sites]) => sites.length > (baseline[f] ?? 0))
  if (args.includes('--write')) {
    writeFileSync(
      baselineFile,
      JSON.stringify(Object.fromEntries([...found].map(([f, sites]) => [f, sites.length] as const).sort(([a], [b]) => a.localeCompare(b))), null, 2) + '\n',
    )
    process.exit(0)
  }
  if (args.includes('--shrink')) {
    const next = Object.fromEntries(Object.entries(baseline).flatMap(([f, n]) => (found.has(f) ? [[f, Math.min(n, found.get(f)!.length)]] : [])))
    writeFileSync(baselineFile, JSON.stringify(next, null, 2) + '\n')
  }
  const total = [...found.values()].reduce((n, s) => n + s.length, 0)
  const stale = Object.entries(baseline).filter(([f, n]) => (found.get(f)?.length ?? 0) < n)
  console.log(`check-async-db: ${total} synchronous database call(s) outside src/db in ${found.size} baseline file(s)`)
  for (const [f, sites] of over) {
    console.error(`${f}: ${sites.length} synchronous database call(s), the baseline allows ${baseline[f] ?? 0} — await a builder or src/db/raw.ts instead:`)
    for (const s of sites) console.error(`  ${f}:${s.line} ${s.what}`)
  }
  if (stale.length && !args.includes('--shrink'))
    console.error(`the baseline can shrink (bun run check:async -- --shrink): ${stale.map(([f]) => f).join(', ')}`)
  if (over.length || (stale.length && !args.includes('--shrink'))) process.exit(1)
}
