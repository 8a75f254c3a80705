// The Prometheus series of one process (GET /metrics), on a registry of its own (never prom-client's
// global one: tests run several apps in one process). Three kinds of sources:
//   - bus events, subscribed in src/services.ts attachListeners (listen): scan.metric, match.new;
//   - callbacks from the outbox worker (delivered) and the app's response hook (http);
//   - reads at scrape time (collect): outbox depth and age from SQLite, posts, alerts and coverage
//     gaps stored since the last scrape (by id, so CLI processes' work counts too), sockets, the rate budget,
//     the term index, RSS and event-loop lag.
import { asc, gt, max } from 'drizzle-orm'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'
import { alertLatency } from '../db/schema'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { BusEvents } from '../contract/events'
import type { EventBus } from '../lib/bus'
import { eventLoopLag } from '../lib/event-loop-lag'
import { socketStamper, stampDelivery, type Landed } from './latency'
import { END_TO_END, LATENCY_COLUMNS, STAGES } from './latency-stats'
import { gapsAfterId, lastGapId } from '../scanner/gaps'
import { maxPostId, postsAfterId } from '../forums/stats'
import { oldestPending, queueDepth } from '../outbox/stats'

/** What the scrape reads beside the database (structural: the Services objects fit). */
export type MetricsParts = {
  hub: { size: number; server: { subscriberCount(topic: string): number } | null }
  source: {
    budget?: { snapshot(now: number): { remaining: number | null; capPerMinute: number; requestsLastMinute: number } }
    healthReport?(): { name: string; state: string; forbiddenLastHour: number; rateLimitedLastHour: number }
  }
  matcher: { size: number }
}

export type DeliveryResult = 'sent' | 'retry' | 'failed'

const STAGE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]
const E2E_BUCKETS = [1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300, 600, 1800]
const CLAIM_BUCKETS = [5, 10, 15, 20, 30, 45, 60, 90, 120, 300, 600, 1800, 3600]
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
const SCAN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60]

/** The registry of the process; its counters' cursors (posts, gaps, alert rows stored so far) are read first. */
export async function createMetrics(deps: OwnerDb & { now: () => Date }, parts: MetricsParts) {
  // Posts, gaps and alert rows stored since the last scrape (ids only grow) are counted at scrape time, from these.
  const db = asAsync(deps.db)
  const a = alertLatency
  const [cursors] = await db.select({ id: max(a.matchId), at: max(a.claimedAt) }).from(a)
  let lastPostId = await maxPostId(deps)
  let lastGap = await lastGapId(deps)
  let lastAlertId = cursors?.id ?? 0
  // claims are stamped by whichever process served the link: read at scrape time, by their time (they only grow)
  let lastClaim = cursors?.at ?? 0
  const registry = new Registry()
  const registers = [registry]
  const counter = (name: string, help: string, labelNames: string[] = []) => new Counter({ name, help, labelNames, registers })
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) => new Histogram({ name, help, labelNames, buckets, registers })

  const scans = counter('dibs_scans_total', 'Scans run, by result (success, failed, paused, waiting, busy)', ['result'])
  const scanSeconds = histogram('dibs_scan_duration_seconds', 'Duration of scans that ran, by result', ['result'], SCAN_BUCKETS)
  const postsIngested = counter('dibs_posts_ingested_total', 'New posts stored, by forum (product, gd)', ['forum'])
  const redditRequests = counter('dibs_reddit_requests_total', 'Listing requests sent to the forum source (pages of every scan)')
  const rateLimited = counter('dibs_reddit_rate_limited_total', 'Scans that Reddit answered 429 Too Many Requests')
  const matches = counter('dibs_matches_created_total', 'Matches created, by category and whether they alert', ['category', 'alert'])
  const stage = histogram('dibs_alert_stage_seconds', 'Alert latency of one stage of the path (see src/metrics/README.md)', ['stage'], STAGE_BUCKETS)
  const endToEnd = histogram('dibs_alert_end_to_end_seconds', "Alert latency from the post's Reddit time to each channel", ['channel'], E2E_BUCKETS)
  const postToClaim = histogram(
    'dibs_alert_post_to_claim_seconds',
    "Time to claim: from the post's time to the user's first open or claim of its alert, by the channel it came through (app, push, email, …)",
    ['channel'],
    CLAIM_BUCKETS,
  )
  const deliveries = counter('dibs_deliveries_total', 'Outbox deliveries by channel and result (sent, retry, failed)', ['channel', 'result'])
  const maybeSent = counter(
    'dibs_outbox_maybe_sent_recovered_total',
    'Outbox rows found sending at start (the process stopped mid-send): maybe sent, so sent again later',
  )
  const maybeDuplicates = counter(
    'dibs_outbox_maybe_duplicate_sends_total',
    'Outbox rows recovered from sending and sent again, by channel: each may have reached its receiver twice (at-least-once)',
    ['channel'],
  )
  const gaps = counter(
    'dibs_source_gaps_total',
    'Coverage gaps recorded: polls whose oldest entry was newer than the newest stored post, by source and forum',
    ['source', 'forum'],
  )
  const gapSeconds = counter('dibs_source_gap_seconds_total', 'Seconds not covered by the coverage gaps recorded, by source and forum', ['source', 'forum'])
  const httpRequests = counter('dibs_http_requests_total', 'HTTP requests by method, route pattern and status', ['method', 'route', 'status'])
  const httpSeconds = histogram('dibs_http_request_duration_seconds', 'HTTP request duration by method and route pattern', ['method', 'route'], HTTP_BUCKETS)

  const gauge = (name: string, help: string, collect: (g: Gauge) => void | Promise<void>, labelNames: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect: function (this: Gauge) {
        return collect(this)
      } as never,
    })

  gauge(
    'dibs_outbox_depth',
    'Outbox rows waiting (pending) or in flight (sending), by channel',
    async (g) => {
      const rows = await queueDepth(deps)
      g.reset()
      for (const r of rows) g.set({ channel: r.channel, status: r.status }, r.n)
    },
    ['channel', 'status'],
  )
  gauge(
    'dibs_outbox_oldest_pending_seconds',
    'Age of the oldest pending outbox row, by channel',
    async (g) => {
      const rows = await oldestPending(deps)
      g.reset()
      const now = deps.now().getTime()
      for (const r of rows) g.set({ channel: r.channel }, Math.max(0, (now - r.at) / 1000))
    },
    ['channel'],
  )
  gauge('dibs_open_sockets', 'Open WebSockets', (g) => g.set(parts.hub.size))
  gauge('dibs_term_index_terms', 'Saved terms in the term index', (g) => g.set(parts.matcher.size))
  const budget = () => parts.source.budget?.snapshot(deps.now().getTime())
  gauge('dibs_reddit_budget_remaining', "Reddit's remaining requests in its current window (x-ratelimit-remaining; absent until Reddit said)", (g) => {
    g.reset()
    const r = budget()?.remaining
    if (r !== null && r !== undefined) g.set(r)
  })
  gauge('dibs_reddit_requests_last_minute', 'Requests sent to Reddit in the last minute', (g) => g.set(budget()?.requestsLastMinute ?? 0))
  gauge('dibs_reddit_allowed_per_minute', 'Requests per minute the mode allows (10 Atom or public JSON, 100 OAuth)', (g) => g.set(budget()?.capPerMinute ?? 0))
  const SOURCE_STATES = ['ok', 'slow', 'failing', 'forum_missing', 'blocked', 'login_required'] as const
  gauge(
    'dibs_source_state',
    "The forum source's health: 1 for its current state (ok, slow, failing, forum_missing, blocked, login_required), 0 for the others",
    (g) => {
      g.reset()
      const h = parts.source.healthReport?.()
      if (h) for (const state of SOURCE_STATES) g.set({ source: h.name, state }, h.state === state ? 1 : 0)
    },
    ['source', 'state'],
  )
  gauge('dibs_source_forbidden_last_hour', 'Answers 403 (blocked, closed JSON, refused key) from the forum source in the last hour', (g) =>
    g.set(parts.source.healthReport?.().forbiddenLastHour ?? 0),
  )
  gauge('dibs_source_rate_limited_last_hour', 'Answers 429 from the forum source in the last hour', (g) =>
    g.set(parts.source.healthReport?.().rateLimitedLastHour ?? 0),
  )
  gauge('process_resident_memory_bytes', 'Resident memory size in bytes', (g) => g.set(process.memoryUsage().rss))
  gauge('dibs_event_loop_lag_seconds', 'Event-loop lag, mean of the last 10 s of 500 ms probes', (g) => g.set((eventLoopLag().meanMs ?? 0) / 1000))
  gauge('dibs_event_loop_lag_max_seconds', 'Event-loop lag, worst of the last 10 s', (g) => g.set((eventLoopLag().maxMs ?? 0) / 1000))

  const catchUp = async () => {
    for (const r of await postsAfterId(deps, lastPostId)) {
      postsIngested.inc({ forum: r.forum }, r.n)
      lastPostId = Math.max(lastPostId, r.top)
    }
    for (const g of await gapsAfterId(deps, lastGap)) {
      gaps.inc({ source: g.source, forum: g.forum }, g.count)
      gapSeconds.inc({ source: g.source, forum: g.forum }, g.seconds)
      lastGap = Math.max(lastGap, g.top)
    }
    for (const r of await db
      .select({ createdAt: a.createdAt, claimedAt: a.claimedAt, channel: a.claimChannel })
      .from(a)
      .where(gt(a.claimedAt, lastClaim))
      .orderBy(asc(a.claimedAt))) {
      lastClaim = r.claimedAt!
      if (r.createdAt !== null) postToClaim.observe({ channel: r.channel! }, Math.max(0, r.claimedAt! - r.createdAt) / 1000)
    }
    const scanStages = STAGES.filter((s) => s.to === 'received_at' || s.to === 'stored_at' || s.to === 'matched_at')
    for (const r of await db
      .select({ match_id: a.matchId, ...LATENCY_COLUMNS })
      .from(a)
      .where(gt(a.matchId, lastAlertId))
      .orderBy(asc(a.matchId))) {
      lastAlertId = r.match_id
      for (const s of scanStages) if (r[s.from] !== null && r[s.to] !== null) stage.observe({ stage: s.key }, Math.max(0, r[s.to]! - r[s.from]!) / 1000)
    }
  }

  /** A socket, push or email step landed (first success of that channel for the alert). */
  const landed = (l: Landed) => {
    const s = STAGES.find((x) => x.from === 'matched_at' && x.to === `${l.channel}_at`)
    if (s) stage.observe({ stage: s.key }, Math.max(0, l.at - l.matchedAt) / 1000)
    const e = END_TO_END.find((x) => x.channel === l.channel)
    if (e && l.createdAt !== null) endToEnd.observe({ channel: l.channel }, Math.max(0, l.at - l.createdAt) / 1000)
  }
  const sockets = socketStamper(deps, landed)

  return {
    registry,
    /** The bus listeners (attached by src/services.ts attachListeners, after the hub's). */
    /**
     * `remote`: whether an event came from another node (src/cluster/node.ts): its node counted it; here
     * only a match's socket time is stamped (its alert row exists when it alerts; the stamp is first-wins).
     */
    listen(bus: Pick<EventBus<BusEvents>, 'on'>, remote: (data: object) => boolean = () => false): (() => void)[] {
      return [
        bus.on('scan.metric', (data) => {
          if (remote(data)) return
          const { metric } = data
          scans.inc({ result: metric.status })
          scanSeconds.observe({ result: metric.status }, metric.durationMs / 1000)
          redditRequests.inc(metric.requests)
          if (metric.error?.startsWith('rate_limited')) rateLimited.inc()
        }),
        bus.on('match.new', (data) => {
          const { userId, match, notify } = data
          const fromElsewhere = remote(data)
          if (!fromElsewhere) matches.inc({ category: match.category, alert: String(notify) })
          // The hub has just published it; it reached a screen only if the user has a socket open.
          if ((notify || fromElsewhere) && (parts.hub.server?.subscriberCount(`user:${userId}`) ?? 0) > 0) sockets.note(match.id, deps.now().getTime())
        }),
      ]
    },
    /** The outbox worker's result for one row (src/outbox/queue.ts processOutbox). */
    delivered(row: { kind: string; dedupeKey: string | null; channel: string }, result: DeliveryResult, info?: { afterMaybeSent: boolean }) {
      deliveries.inc({ channel: row.channel, result })
      if (result !== 'sent') return
      if (info?.afterMaybeSent) maybeDuplicates.inc({ channel: row.channel })
      stampDelivery(deps, row, deps.now().getTime()).then(
        (l) => l && landed(l),
        () => {}, // a closed database at shutdown: only the figure is lost
      )
    },
    /** Rows recoverStuckSending reset at start (src/server.ts). */
    maybeSentRecovered(count: number) {
      maybeSent.inc(count)
    },
    http(method: string, route: string, status: number, seconds: number) {
      httpRequests.inc({ method, route, status: String(status) })
      httpSeconds.observe({ method, route }, seconds)
    },
    async scrape(): Promise<string> {
      await catchUp()
      return registry.metrics()
    },
    contentType: registry.contentType,
  }
}

export type Metrics = Awaited<ReturnType<typeof createMetrics>>
