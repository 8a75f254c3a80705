// Matcher bench: builds the term index for N users × M terms and matches generated posts against it,
// compared with the naive loop (every term of the category × the post) measured in the same run.
// Build and startup are compared with the old build path (bench/baseline/term-index-before.ts: every
// term parsed and compiled on its own), also measured in the same run. Startup = a fresh process
// loading the index from a SQLite file of the same terms (bench/matcher-startup.ts).
// Usage: bun bench/matcher.ts [--users 10000] [--terms 50] [--posts 3000] [--naive 30] [--seed 42]
//                             [--recent 7000 (stored posts of the last 7 days; 0 = no startup run)]

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { openDb } from '../src/db/client'
import { compileTerm, matchesPost, preparePost, type CompiledTerm, type PreparedPost } from '../src/matching/compile'
import { parseTerm } from '../src/matching/parse'
import type { Category } from '../src/access/categories'
import { TermIndex, type TermRef } from '../src/matching/term-index'
import { TermIndexBefore } from './baseline/term-index-before'
import { makePost, makeTerm, rng } from './vocabulary'

export type MatcherOpts = {
  users: number
  terms: number
  posts: number
  naive: number
  seed: number
  recent: number
  quiet?: boolean
  out?: string | null
}
export const DEFAULTS: MatcherOpts = { users: 10_000, terms: 50, posts: 3_000, naive: 30, seed: 42, recent: 7_000 }

const TARGETS = { p99Ms: 1, speedup: 300, indexMb: 200, buildMs: 1500, startupMs: 1500 }

function heapMb(): number {
  Bun.gc(true)
  Bun.gc(true)
  return process.memoryUsage().heapUsed / 1048576
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
}

export async function run(partial: Partial<MatcherOpts> = {}) {
  const o = { ...DEFAULTS, ...partial }
  const log = o.quiet ? () => {} : (s: string) => console.log(s)
  const r = rng(o.seed)
  const total = o.users * o.terms

  // Terms: each user saves `terms` terms spread over the three categories. A user cannot save the
  // same text twice in a category (search_terms' unique index), so a repeat is drawn again.
  const refs: TermRef[] = new Array(total)
  const cats: Category[] = ['wts', 'wts', 'wts', 'wtb', 'wtb', 'gd', 'gd']
  for (let u = 0, id = 1; u < o.users; u++) {
    const mine = new Set<string>()
    for (let t = 0; t < o.terms; t++, id++) {
      let category: Category, text: string
      do {
        category = cats[Math.floor(r() * cats.length)]!
        text = makeTerm(r)
      } while (mine.has(category + text))
      mine.add(category + text)
      refs[id - 1] = { termId: id, userId: u + 1, category, text }
    }
  }
  // makeTerm builds its texts by concatenation (engine "ropes"); hashing them flattens them in place,
  // so the build below gets flat strings, as the database hands them over.
  new Set(refs.map((ref) => ref.text))
  const posts = Array.from({ length: o.posts }, () => makePost(r))
  // A separate sample of posts feeds token rarity (as the last days of stored posts would).
  const sampleR = rng(o.seed + 1)
  const sample = Array.from({ length: 1000 }, () => preparePost(makePost(sampleR)))

  // Build (terms already in memory as the DB would hand them over; the delta is the index itself).
  const heap0 = heapMb()
  const t0 = performance.now()
  const index = new TermIndex()
  for (const p of sample) index.observe(p)
  let rejected = 0
  for (const ref of refs) if (!index.add(ref).ok) rejected++
  const buildMs = performance.now() - t0
  const indexMb = heapMb() - heap0

  // Prepare posts once (a scan does this once per post, whatever the number of terms).
  const t1 = performance.now()
  const prepared: { post: PreparedPost; category: Category }[] = posts.map((p) => ({ post: preparePost(p), category: p.category }))
  const prepareMs = (performance.now() - t1) / posts.length

  // Warm up, then time every post.
  for (let i = 0; i < Math.min(200, prepared.length); i++) index.match(prepared[i]!.post, prepared[i]!.category)
  const times: number[] = []
  let matchCount = 0
  const results: TermRef[][] = []
  for (const { post, category } of prepared) {
    const s = performance.now()
    const found = index.match(post, category)
    times.push(performance.now() - s)
    matchCount += found.length
    results.push(found)
  }
  times.sort((a, b) => a - b)
  const p50 = pct(times, 50)
  const p99 = pct(times, 99)
  const max = times[times.length - 1]!
  const mean = times.reduce((a, b) => a + b, 0) / times.length

  // Build baseline: the old build path on the same terms (after the build, so parsing and
  // compiling run with a warm JIT), then dropped.
  const beforeMs = (() => {
    Bun.gc(true)
    const t = performance.now()
    const before = new TermIndexBefore()
    for (const p of sample) before.observe(p)
    for (const ref of refs) before.add(ref)
    const ms = performance.now() - t
    if (before.size !== index.size) throw new Error(`the old index holds ${before.size} terms, the new one ${index.size}`)
    return ms
  })()

  // Naive baseline on a sample: every compiled term of the post's category, one by one.
  const compiled: { ref: TermRef; term: CompiledTerm }[] = []
  for (const ref of refs) {
    const q = parseTerm(ref.text)
    if (q.ok) compiled.push({ ref, term: compileTerm(q.query) })
  }
  const naiveN = Math.min(o.naive, prepared.length)
  let naiveTotal = 0
  let mismatches = 0
  for (let i = 0; i < naiveN; i++) {
    const { post, category } = prepared[i]!
    const s = performance.now()
    const found: number[] = []
    for (const c of compiled) if (c.ref.category === category && matchesPost(c.term, post, category)) found.push(c.ref.termId)
    naiveTotal += performance.now() - s
    const got = results[i]!.map((x) => x.termId).sort((a, b) => a - b)
    if (got.length !== found.length || got.some((v, k) => v !== found[k])) mismatches++
  }
  const naiveMs = naiveTotal / Math.max(1, naiveN)
  const speedup = naiveMs / mean

  const startup = o.recent > 0 ? startupRun(refs, o) : null

  const figures = {
    opts: o,
    terms: total,
    rejected,
    groups: index.groupCount,
    buildMs: Math.round(buildMs),
    buildBeforeMs: Math.round(beforeMs),
    buildSpeedup: +(beforeMs / buildMs).toFixed(1),
    startup,
    indexMb: +indexMb.toFixed(1),
    prepareMsPerPost: +prepareMs.toFixed(4),
    matchMs: { p50: +p50.toFixed(4), p99: +p99.toFixed(4), max: +max.toFixed(4), mean: +mean.toFixed(4) },
    matchesPerPost: +(matchCount / prepared.length).toFixed(1),
    naiveMsPerPost: +naiveMs.toFixed(2),
    naiveSample: naiveN,
    speedup: Math.round(speedup),
    mismatches,
    pass: {
      p99: p99 < TARGETS.p99Ms,
      speedup: speedup >= TARGETS.speedup,
      memory: indexMb < TARGETS.indexMb,
      correct: mismatches === 0,
      build: buildMs < TARGETS.buildMs,
      ...(startup ? { startup: startup.ms < TARGETS.startupMs } : {}),
    },
  }

  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
  log(`\nMatcher bench — ${o.users.toLocaleString()} users × ${o.terms} terms = ${total.toLocaleString()} terms, ${o.posts.toLocaleString()} posts`)
  log(`  ${'terms rejected by the parser'.padEnd(34)} ${rejected}`)
  log(`  ${'distinct alternatives (groups)'.padEnd(34)} ${figures.groups.toLocaleString()}`)
  log(`  ${'index build (observe + add)'.padEnd(34)} ${figures.buildMs} ms`)
  log(`  ${'baseline: old build path'.padEnd(34)} ${figures.buildBeforeMs} ms (${figures.buildSpeedup}× the build)`)
  if (startup) {
    log(`  ${'startup: DB → ready index'.padEnd(34)} ${startup.ms} ms (fresh process; ${startup.terms.toLocaleString()} terms, ${o.recent} posts)`)
    log(`  ${'baseline: old startup path'.padEnd(34)} ${startup.baselineMs} ms (${startup.speedup}× the startup)`)
    log(
      `  ${'startup process heap / RSS'.padEnd(34)} ${startup.heapMb} / ${startup.rssMb} MB (old path: ${startup.baselineHeapMb} / ${startup.baselineRssMb} MB)`,
    )
  }
  log(`  ${'prepare post (normalise, prices)'.padEnd(34)} ${prepareMs.toFixed(3)} ms/post`)
  log(`  ${'match p50 / mean / max'.padEnd(34)} ${p50.toFixed(3)} / ${mean.toFixed(3)} / ${max.toFixed(3)} ms`)
  log(`  ${'matches per post (avg)'.padEnd(34)} ${figures.matchesPerPost}`)
  log(`  ${'naive baseline'.padEnd(34)} ${naiveMs.toFixed(2)} ms/post (sample of ${naiveN})`)
  log(`  ${'target'.padEnd(34)} ${'value'.padEnd(14)} result${total < 500_000 ? '   (targets are set for 500k terms)' : ''}`)
  log(`  ${`match p99 < ${TARGETS.p99Ms} ms`.padEnd(34)} ${(p99.toFixed(3) + ' ms').padEnd(14)} ${mark(figures.pass.p99)}`)
  log(`  ${`speed-up ≥ ${TARGETS.speedup}× naive`.padEnd(34)} ${(Math.round(speedup) + '×').padEnd(14)} ${mark(figures.pass.speedup)}`)
  log(`  ${`index heap < ${TARGETS.indexMb} MB`.padEnd(34)} ${(indexMb.toFixed(1) + ' MB').padEnd(14)} ${mark(figures.pass.memory)}`)
  log(`  ${'same matches as naive'.padEnd(34)} ${(mismatches + ' mismatches').padEnd(14)} ${mark(figures.pass.correct)}`)
  log(`  ${`index build < ${TARGETS.buildMs} ms`.padEnd(34)} ${(figures.buildMs + ' ms').padEnd(14)} ${mark(figures.pass.build)}`)
  if (startup) log(`  ${`startup < ${TARGETS.startupMs} ms`.padEnd(34)} ${(startup.ms + ' ms').padEnd(14)} ${mark(figures.pass.startup!)}`)

  const out = o.out === undefined ? join(import.meta.dir, 'results', 'matcher.json') : o.out
  if (out) {
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, JSON.stringify(figures, null, 2) + '\n')
    log(`  written ${out}`)
  }
  return figures
}

/**
 * Writes the terms (and `recent` classified posts of the last days) into a fresh SQLite file, then
 * loads it in two fresh processes: the baseline first, then the service (bench/matcher-startup.ts).
 */
function startupRun(refs: TermRef[], o: MatcherOpts) {
  const dir = mkdtempSync(join(tmpdir(), 'dibs-matcher-bench-'))
  try {
    const file = join(dir, 'dibs.db')
    const { sqlite, close } = openDb(file)
    const now = Date.now()
    const r = rng(o.seed + 2)
    sqlite.transaction(() => {
      const user = sqlite.query('INSERT INTO users (id, email) VALUES (?, ?)')
      for (let u = 1; u <= o.users; u++) user.run(u, `bench${u}@example.com`)
      const term = sqlite.query('INSERT INTO search_terms (id, user_id, category, term, created_at) VALUES (?, ?, ?, ?, ?)')
      for (const ref of refs) term.run(ref.termId, ref.userId, ref.category, ref.text, now - 86_400_000)
      const post = sqlite.query(
        "INSERT INTO posts (reddit_id, forum, subreddit, title, url, content, post_type, created_at) VALUES (?, 'product', 'bench', ?, '', ?, ?, ?)",
      )
      for (let i = 0; i < o.recent; i++) {
        const p = makePost(r)
        post.run(`b${i}`, p.title, p.content, p.category, now - Math.floor(((i + 1) * 6 * 86_400_000) / o.recent))
      }
    })()
    close()
    const load = (mode: 'baseline' | 'service') => {
      const res = Bun.spawnSync(['bun', join(import.meta.dir, 'matcher-startup.ts'), file, mode], { stderr: 'inherit' })
      if (res.exitCode !== 0) throw new Error(`matcher-startup ${mode} failed`)
      return JSON.parse(res.stdout.toString().trim().split('\n').pop()!) as { ms: number; terms: number; heapMb: number; rssMb: number }
    }
    const base = load('baseline')
    const svc = load('service')
    return {
      ms: Math.round(svc.ms),
      terms: svc.terms,
      heapMb: Math.round(svc.heapMb),
      rssMb: Math.round(svc.rssMb),
      baselineMs: Math.round(base.ms),
      baselineHeapMb: Math.round(base.heapMb),
      baselineRssMb: Math.round(base.rssMb),
      speedup: +(base.ms / svc.ms).toFixed(1),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function parseArgs(argv: string[]): Partial<MatcherOpts> {
  const o: Partial<MatcherOpts> = {}
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!.replace(/^--/, '') as keyof MatcherOpts
    const v = Number(argv[i + 1])
    if (['users', 'terms', 'posts', 'naive', 'seed', 'recent'].includes(k) && Number.isFinite(v)) {
      ;(o as Record<string, number>)[k] = v
      i++
    } else throw new Error(`Unknown argument ${argv[i]} (use --users N --terms N --posts N --naive N --seed N --recent N)`)
  }
  return o
}

if (import.meta.main) {
  const f = await run(parseArgs(process.argv.slice(2)))
  const full = f.terms >= 500_000
  process.exit(f.pass.correct && (!full || Object.values(f.pass).every(Boolean)) ? 0 : 1)
}
