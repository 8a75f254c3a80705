// One cold start of the term index from a SQLite file, run by bench/matcher.ts in a fresh process
// (so the JIT is as cold as after a restart). Prints one JSON line.
//   service:  new MatchingService(deps), what src/services.ts does at startup (DB → ready index)
//   baseline: the same rows read as objects, then every term parsed and compiled one by one
// Usage: bun bench/matcher-startup.ts <db file> service|baseline

import { openDb } from '../src/db/client'
import { MatchingService } from '../src/matches/matcher'
import { compileTerm } from '../src/matching/compile'
import { parseTerm } from '../src/matching/parse'

const [path, mode] = process.argv.slice(2)
if (!path || (mode !== 'service' && mode !== 'baseline')) throw new Error('usage: bun bench/matcher-startup.ts <db file> service|baseline')

const { sqlite, close } = openDb(path, { migrate: false })
const t0 = performance.now()
let terms = 0
let service: MatchingService | null = null // kept alive until the heap is measured
if (mode === 'service') terms = (service = new MatchingService({ sqlite, now: () => new Date() })).size
else {
  const rows = sqlite
    .query<{ id: number; user_id: number; category: string; term: string; created_at: number }, []>(
      'SELECT id, user_id, category, term, created_at FROM search_terms',
    )
    .all()
  for (const r of rows) {
    const q = parseTerm(r.term)
    if (q.ok && compileTerm(q.query)) terms++
  }
}
const ms = performance.now() - t0
Bun.gc(true)
const { heapUsed, rss } = process.memoryUsage()
console.log(JSON.stringify({ mode, ms, terms, groups: service?.index.groupCount ?? 0, heapMb: heapUsed / 1048576, rssMb: rss / 1048576 }))
close()
