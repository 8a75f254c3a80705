// Operator commands of ingestion and matching: thin shells over the exported jobs. They open the
// database themselves (safe beside a running server: SQLite WAL + busy timeout) and relay their
// bus events to that server, so connected browsers see the effects live. `dibs scan` and
// `dibs match` go one step further: when a server runs on the same DATA_DIR they ask it to do the
// work (src/scanner/delegate.ts), so one Reddit rate budget and one term index hold.
import { UsageError, flag, type Args } from '../cli/args'
import type { Command } from '../cli/command'
import { progress } from '../cli/progress'
import type { Config } from '../config'
import { archivePosts, backfillPostTypes } from '../forums/upkeep'
import { runBatchMatch, type BatchResult } from '../matches/batch'
import { askServer } from '../realtime/relay'
import { runScan, type ScanDeps, type ScanOutcome } from './scan'

/** "90s", "30m", "24h", "7d" (a bare number is hours) → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/i.exec(text.trim())
  if (!m) throw new UsageError(`expected a duration like 30m, 24h or 7d, got "${text}"`)
  const unit = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[(m[2] ?? 'h').toLowerCase() as 's' | 'm' | 'h' | 'd']
  return Math.round(Number(m[1]) * unit)
}

function durationFlag(args: Args, name: string, fallback: string): number {
  const v = args.flags[name]
  if (v === true) throw new UsageError(`--${name} needs a value, like --${name} ${fallback}`)
  return parseDuration(flag(args, name) ?? fallback)
}

const relayed = (sent: number) => `(${sent} live update(s) sent to the running server)`

const byServer = '(run by the server on this DATA_DIR: one Reddit rate budget, one term index)'

/** Prints a scan's outcome; the exit code. */
function reportScan(o: ScanOutcome): number {
  if (o.status === 'paused') {
    console.log('emergency pause is on: nothing scanned')
    return 0
  }
  if (o.status === 'waiting') {
    console.log(`Reddit's rate budget allows no request now; try again after ${o.nextAt}`)
    return 1
  }
  const line = `scan ${o.status}: ${o.postsFetched} fetched, ${o.postsNew} new, ${o.matchesCreated} matches, ${o.pages} page(s), ${o.durationMs} ms`
  if (o.status === 'failed') {
    console.error(`${line} — ${o.error}`)
    return 1
  }
  console.log(line)
  return 0
}

function reportBatch(r: BatchResult) {
  if (r.skipped) console.log('emergency pause is on: nothing matched')
  console.log(
    `total_search_terms=${r.total_search_terms} recent_posts_count=${r.recent_posts_count} matches_created=${r.matches_created} execution_time_seconds=${r.execution_time_seconds}`,
  )
}

const scanning = (config: Config) => console.log(`scanning ${config.demo ? 'the demo forum' : `r/${config.forums.accessories}+${config.forums.deals}`}…`)

export const ingestCommands: Command<ScanDeps>[] = [
  {
    name: 'scan',
    usage: 'dibs scan',
    summary: 'Fetch new forum posts once (catching up after downtime), store and match them',
    async run(config, args, withContext) {
      scanning(config)
      const delegated = await askServer<ScanOutcome>(config, 'scan', {})
      if (delegated.ran) {
        console.log(byServer)
        return reportScan(delegated.result)
      }
      return withContext(async (deps) => reportScan(await runScan(deps, undefined, { manual: true })), relayed)
    },
  },
  {
    name: 'match',
    usage: 'dibs match [--since 24h]',
    summary: 'Batch matching: match stored posts of the window against every saved term (missing matches only)',
    async run(config, args, withContext) {
      const sinceMs = durationFlag(args, 'since', '24h')
      const delegated = await askServer<BatchResult>(config, 'match', { sinceMs })
      if (delegated.ran) {
        console.log(byServer)
        return reportBatch(delegated.result)
      }
      return withContext(async (deps) => {
        const bar = progress('match')
        const r = await runBatchMatch(deps, { sinceMs, onProgress: (line) => bar.update(line) })
        bar.end()
        reportBatch(r)
      }, relayed)
    },
  },
  {
    name: 'backfill-post-types',
    usage: 'dibs backfill-post-types',
    summary: 'Classify stored posts that have no post type yet (wts / wtb / gd)',
    run: (config, args, withContext) =>
      withContext(async (deps) => {
        const bar = progress('backfill')
        const r = await backfillPostTypes(deps, { onProgress: (line) => bar.update(line) })
        bar.end()
        console.log(`backfill done: ${r.count} of ${r.examined} unclassified post(s) classified`)
      }, relayed),
  },
  {
    name: 'archive-posts',
    usage: 'dibs archive-posts [--older-than 7d]',
    summary: 'Delete stored posts older than the window (default 7d keeps the live feed); matches keep their copy',
    run: (config, args, withContext) =>
      withContext(async (deps) => {
        const olderThanMs = durationFlag(args, 'older-than', '7d')
        const bar = progress('archive')
        const r = await archivePosts(deps, { olderThanMs, onProgress: (line) => bar.update(line) })
        bar.end()
        console.log(`archive done: ${r.count} post(s) older than ${flag(args, 'older-than') ?? '7d'} archived`)
      }, relayed),
  },
]
