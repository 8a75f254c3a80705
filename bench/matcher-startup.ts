// One cold start of the term index from a SQLite file, run by bench/matcher.ts in a fresh process
// (so the JIT is as cold as after a restart). Prints one JSON line.
//   service:  new MatchingService(deps), what src/services.ts does at startup (DB → ready index)
//   baseline: the old startup path (before issue 11): every recent post read whole and prepared,
//             every term row read as an object and added to the old index, created times in a Map
// Usage: bun bench/matcher-startup.ts <db file> service|baseline

import { openDb } from '../src/db/client'
import { LIVE_WINDOW_MS, recentPosts } from '../src/forums/store'
import { setLogLevel } from '../src/lib/log'
import { MatchingService } from '../src/matches/matcher'
import { preparePost } from '../src/matching/compile'
import type { Category } from '../src/access/categories'
import { TermIndexBefore } from './baseline/term-index-before'

const [path, mode] = process.argv.slice(2)
if (!path || (mode !== 'service' && mode !== 'baseline')) throw new Error('usage: bun bench/matcher-startup.ts <db file> service|baseline')

setLogLevel('silent') // the bench's terms include a few that do not parse, as real data may
const { sqlite, db, close } = openDb(path, { migrate: false })
const t0 = performance.now()
let loaded: { size: number } // kept alive until the heap is measured
if (mode === 'service') loaded = new MatchingService({ sqlite, db, now: () => new Date() })
else {
  const index = new TermIndexBefore()
  const createdAt = new Map<number, number>()
  for (const p of (await recentPosts({ db }, new Date(Date.now() - LIVE_WINDOW_MS))).slice(-5000)) index.observe(preparePost(p))
  const rows = sqlite
    .query<{ id: number; user_id: number; category: string; term: string; created_at: number }, []>(
      'SELECT id, user_id, category, term, created_at FROM search_terms',
    )
    .all()
  for (const r of rows) if (index.add({ termId: r.id, userId: r.user_id, category: r.category as Category, text: r.term }).ok) createdAt.set(r.id, r.created_at)
  loaded = index
}
const ms = performance.now() - t0
Bun.gc(true)
const { heapUsed, rss } = process.memoryUsage()
console.log(JSON.stringify({ mode, ms, terms: loaded.size, heapMb: heapUsed / 1048576, rssMb: rss / 1048576 }))
close()
