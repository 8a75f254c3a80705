// The one wiring place. A process builds its long-lived services here once, passes them
// explicitly (Services beside Deps), and attaches every bus listener in attachListeners — so
// "who listens to match.new?" has its answer in this file. src/server.ts uses all of it; CLI
// commands (src/commands.ts) and tests (tests/helpers.ts) use the parts they need.
import { SOCKET_EVENTS } from './contract/events'
import type { Deps } from './deps'
import type { RestoreStore } from './db/restore'
import { newestPostAt } from './forums/stats'
import { recordRestorePoint } from './settings/restore-point'
import { authJobs } from './auth/jobs'
import { billingJobs } from './billing/jobs'
import { backupJobs } from './ops/backups'
import { JOB } from './jobs/log'
import type { Job } from './jobs/types'
import { MatchingService } from './matches/matcher'
import { createDispatcher, dispatchOwed, type Dispatcher } from './notify/dispatcher'
import { accessExpiryWatch, type ExpiryWatch } from './access/expiry'
import { channelStore } from './notify/channel-store'
import { notifyJobs } from './notify/jobs'
import { createChannels, type Channels } from './outbox/channels'
import { outboxWorker, type OutboxWorker } from './outbox/worker'
import { recoverStuckSending } from './outbox/queue'
import { log } from './lib/log'
import { Hub } from './realtime/hub'
import { createMetrics, type Metrics } from './metrics/registry'
import { latencyJobs } from './metrics/jobs'
import { pruneGaps } from './scanner/gaps'
import { nextScanAt, runScan, warnRaisedInterval } from './scanner/scan'
import { runRecheck } from './scanner/recheck'
import { runAuthorLookups } from './scanner/authors'
import { applyStoredScanSettings, createScanSource, type ScanSource } from './scanner/source'
import { SourceRunner } from './scanner/feeds'
import { seedSources } from './sources/store'
import { applyStoredForumPreset } from './scanner/source-admin'

export type Services = {
  /** the term index, kept in step with search_terms */
  matcher: MatchingService
  /** the forum source (Reddit or the demo forum) with its rate budget */
  source: ScanSource
  /** the feed sources' polling, 'Fetch now' and previews (src/scanner/feeds.ts) */
  feeds: SourceRunner
  /** open WebSockets and their topics */
  hub: Hub
  /** match.new → queued email and push deliveries */
  dispatcher: Dispatcher
  /** the outbox's senders by channel name */
  channels: Channels
  /** delivers the outbox */
  outbox: OutboxWorker
  /** one timer for the next access expiry: emits access.changed the moment a trial or gifted period ends */
  expiry: ExpiryWatch
  /** the Prometheus series of this process and the alert latency stamps (src/metrics/) */
  metrics: Metrics
}

/** What route plugins, jobs and commands of a running server receive. */
export type AppContext = Deps & Services

/**
 * What `detectRestore` and `dibs restore` (src/db/restore.ts) read and write beyond the database file:
 * src/db imports no other folder, so the server and the CLI give it the owners' functions.
 */
export const restoreStore: RestoreStore = { newestPostAt, recordRestorePoint }

/**
 * Builds every long-lived service once, with every read the process needs before it serves or runs a job: the term
 * index loads here, the sources are seeded, the stored forum preset, scan settings and feed politeness take
 * effect, the metrics' cursors are read. `given` replaces any of them (tests).
 */
export async function createServices(deps: Deps, given: Partial<Services> = {}): Promise<Services> {
  const channels = given.channels ?? createChannels(deps, channelStore)
  const matcher = await (given.matcher ?? new MatchingService(deps)).load()
  // first start: the sources table gets the environment's forums (FORUM_PRESET, else the subreddits)
  await seedSources(deps)
  await applyStoredForumPreset(deps)
  const source = given.source ?? (await createScanSource(deps))
  // the admin's stored scan settings (Admin → Logs) take effect before the first scan
  await applyStoredScanSettings({ ...deps, source })
  const hub = given.hub ?? new Hub(deps)
  const metrics = given.metrics ?? (await createMetrics(deps, { hub, source, matcher }))
  return {
    matcher,
    source,
    feeds: given.feeds ?? (await new SourceRunner({ ...deps, matcher, source }).load()),
    hub,
    dispatcher: given.dispatcher ?? createDispatcher(deps),
    channels,
    outbox: given.outbox ?? outboxWorker(deps, channels, metrics.delivered),
    expiry: given.expiry ?? accessExpiryWatch(deps),
    metrics,
  }
}

/**
 * Every bus listener of the process. Per event, in the order they run:
 *   socket events (post.new, match.new, match.updated, unread, access.changed, settings.changed,
 *     scan.metric, scan.next) → the hub publishes them to their topics;
 *   access.changed → the hub re-checks that user's admin topic; the expiry watch re-arms;
 *   sessions.revoked → the hub closes the sockets whose session ended;
 *   scan.metric, match.new → the metrics count them; match.new stamps the alert's socket time
 *     (after the hub's listener: it has just published);
 *   match.new      → the dispatcher queues email/push (next macrotask, after the socket writes);
 *   outbox.queued  → the outbox worker delivers now.
 * Parts not given are not listened for (a CLI process has no hub; tests choose). Returns the detach.
 */
export function attachListeners(
  deps: Pick<Deps, 'bus'>,
  parts: Partial<Pick<Services, 'hub' | 'dispatcher' | 'outbox' | 'expiry' | 'metrics'>> & { remote?: (data: object) => boolean },
): () => void {
  const { bus } = deps
  const { hub, dispatcher, outbox, expiry, metrics, remote } = parts
  const off: (() => void)[] = []
  if (hub) {
    for (const name of SOCKET_EVENTS) off.push(bus.on(name, (data) => hub.forward(name, data)))
    off.push(bus.on('access.changed', ({ userId }) => hub.reevaluate(userId)))
    off.push(bus.on('sessions.revoked', ({ userId }) => hub.revoked(userId)))
  }
  if (expiry) off.push(bus.on('access.changed', () => expiry.rearm()))
  if (metrics) off.push(...metrics.listen(bus, remote))
  if (dispatcher) off.push(bus.on('match.new', (event) => dispatcher.add(event)))
  if (outbox) off.push(bus.on('outbox.queued', () => void outbox.tick()))
  return () => {
    for (const fn of off) fn()
  }
}

/**
 * The background jobs of a server (STYLE: jobs are a list; src/jobs/schedule.ts runs them). The
 * scan has its own precise timer (`nextAt`: the budget's pacing); the others ride the cron tick.
 * Two timers stand outside this list: `expiry` (Services, event-driven), armed by src/server.ts at
 * start and by every access.changed (attachListeners), fires when access ends; and the event-loop
 * lag probe (src/lib/event-loop-lag.ts), a 500 ms measurement src/server.ts starts.
 * `database-backup` (src/ops/backups.ts) looks each minute and writes a verified copy to DATA_DIR/backups when one is due.
 * Billing's jobs (Stripe catalog sync at start, retried; hourly reconcile) exist only while billing is on.
 */
export function jobList(ctx: AppContext): Job[] {
  const scan: Job = {
    name: JOB.scan,
    nextAt: (_, last) => nextScanAt(ctx, last),
    run: () => runScan(ctx),
    immediate: true,
    start: () => warnRaisedInterval(ctx.source),
  }
  // the re-check of recent posts and the end of held alerts (src/scanner/recheck.ts); it spends only the budget's side share
  const recheck: Job = { name: JOB.recheck, every: 1000, run: () => runRecheck(ctx) }
  // seller trust: one /user/<name>/about look-up per author, on the same side share (src/scanner/authors.ts)
  const authors: Job = { name: 'author-lookups', every: 1000, run: () => runAuthorLookups(ctx) }
  // the feed sources, each when its host's politeness interval allows (src/scanner/feeds.ts)
  const feeds: Job = { name: JOB.feeds, every: 1000, run: () => ctx.feeds.tick() }
  // coverage gaps (src/scanner/gaps.ts) older than 30 days go, once a day
  const gapsPrune: Job = { name: 'coverage-gaps-prune', every: 24 * 60 * 60_000, run: () => pruneGaps(ctx, ctx.now().getTime()) }
  // several nodes (DATABASE_URL): a node that died mid-send left rows `sending`; the lock holder resets them once stale (src/outbox/queue.ts)
  const outboxRecover: Job = {
    name: 'outbox-recover',
    every: 60_000,
    run: async () => {
      const n = await recoverStuckSending(ctx)
      if (n > 0) log.warn(`outbox: ${n} message(s) were left being sent by a node that stopped; push goes again now, email 10 minutes after its attempt`)
      ctx.metrics.maybeSentRecovered(n)
    },
  }
  // alerts stored but never queued (a node killed between the two, a failed dispatch): queued once they are 30 s old (a dispatch takes ≤ 4 s)
  const alertsOwed: Job = {
    name: 'alerts-owed',
    every: 10_000,
    run: async () => {
      const n = await dispatchOwed(ctx, { olderThanMs: 30_000 })
      if (n > 0) log.warn(`alerts: ${n} match(es) were stored but their alerts not queued; queued now`)
    },
  }
  return [
    scan,
    feeds,
    alertsOwed,
    recheck,
    authors,
    gapsPrune,
    ...(ctx.config.databaseUrl === null ? [] : [outboxRecover]),
    ...notifyJobs(ctx.outbox),
    ...authJobs(),
    ...backupJobs(ctx.config),
    ...billingJobs(ctx),
    ...latencyJobs(),
  ]
}
