// `bun run bench`: every benchmark in turn. Each prints its own table, writes bench/results/*.json and exits 1 when it misses its target
// (atom-parse and feed-parse: ≤ 100× JSON.parse; scan-latency: published → stored p95 ≤ 1.1 × interval + processing, Atom and OAuth;
// async-db: the owners' async SQLite database within 2× the synchronous handle; ingest-engines: PostgreSQL's post → match.new p95 within 2× SQLite's, same run;
// fanout: a figure without a target (publish on one node → emitted on another, beside a local emit);
// cluster: the scanner's leadership taken over within 2 × its interval after the holder's SIGKILL, on a real PostgreSQL).
const benches = [
  'matcher.ts',
  'quality.ts',
  'market-quality.ts',
  'atom-parse.ts',
  'feed-parse.ts',
  'ingest.ts',
  'ingest-engines.ts',
  'ingest-browser.ts',
  'notify.ts',
  'scan-latency.ts',
  'recheck.ts',
  'cluster.ts',
  'fanout.ts',
  'async-db.ts',
]
const only = process.argv.slice(2)
for (const b of benches) {
  if (only.length && !only.some((o) => b.includes(o))) continue
  console.log(`\n=== bench/${b} ===`)
  const r = Bun.spawnSync(['bun', new URL(b, import.meta.url).pathname], { stdout: 'inherit', stderr: 'inherit' })
  if (r.exitCode !== 0) process.exitCode = 1
}
