// Socket fan-out between app nodes on one PostgreSQL (issue 29 §3). A node's sockets are fed by its
// own bus (src/services.ts attachListeners → src/realtime/hub.ts); an event that happens on another
// node reaches them this way:
//   1. the node where it happened announces it once with NOTIFY on one channel: the event's name, the
//      ids to read it back (src/cluster/fanout-refs.ts) and the node's id, never the body;
//   2. every node LISTENs on that channel; a notice from ANOTHER node is handed to `load`, which reads
//      the event back from the shared database, and the result is emitted on this node's bus, so its
//      hub delivers it to its own sockets. A node skips its own notices: it delivered them locally.
// Order: one node's notices are sent on one connection (a pool of one: queries run in the order they
// were issued), PostgreSQL delivers them in that order, and a receiving node loads and emits them one
// after another, so a slow load never lets a later event overtake an earlier one.
// Dropped connection: Bun's `sql.listen` (1.4.5) reconnects with backoff (250 ms doubling to 32 s) and
// LISTENs again, calling `onlisten` each time. PostgreSQL keeps nothing for a session that is not
// listening, so notices sent in between are lost for this node: the gap is reported once, in words,
// and `onGap` runs so the wiring can tell this node's sockets to refetch.
import { SQL } from 'bun'
import type { BusEvents } from '../contract/events'
import type { EventBus } from '../lib/bus'
import { decode, encode, FANOUT_EVENTS, refOf, type FanoutEventName, type FanoutRefs } from './fanout-refs'

export type Fanout = {
  /** Announces an event to the other nodes; resolves true once PostgreSQL took it, false when it could not (reported). */
  publish<K extends FanoutEventName>(name: K, ref: FanoutRefs[K]): Promise<boolean>
  /** Whether this event body was emitted here by the fan-out (it happened on another node). */
  fannedIn(data: object): boolean
  /** Stops listening (and relaying), waits for the relayed announcements in flight and the events being loaded, closes the connections. */
  stop(): Promise<void>
}

export type FanoutReport =
  | { kind: 'error'; message: string }
  /** The listening connection dropped and is back: notices sent in between were missed by this node. */
  | { kind: 'gap'; message: string; ms: number | null }

export type FanoutOptions = {
  /** postgres://… */
  url: string
  /** the NOTIFY channel (an identifier of at most 63 bytes) */
  channel?: string
  /** this node's id (unique among the nodes; at most 64 characters) */
  nodeId: string
  bus: EventBus<BusEvents>
  /** Reads an announced event back from the database; null when it is gone (the row was deleted meanwhile: nothing to deliver). */
  load: <K extends FanoutEventName>(name: K, ref: FanoutRefs[K]) => Promise<BusEvents[K] | null>
  /** Also announce every crossing event emitted on `bus` by this node (not those the fan-out emitted itself). */
  relay?: boolean
  /** Runs after each gap, once this node listens again: its sockets should refetch. */
  onGap?: () => void
  /** Failures and gaps in words (the application log). */
  report?: (event: FanoutReport) => void
}

export const FANOUT_CHANNEL = 'dibs_events'

export async function startFanout(opts: FanoutOptions): Promise<Fanout> {
  const channel = opts.channel ?? FANOUT_CHANNEL
  if (opts.nodeId.length === 0 || opts.nodeId.length > 64) throw new Error('fan-out: the node id must be 1 to 64 characters')
  const report = opts.report ?? (() => {})
  const words = (err: unknown) => (err instanceof Error ? err.message : String(err))
  // Sends: one connection, so one node's notices leave in the order they were published.
  const sender = new SQL({ url: opts.url, max: 1, idleTimeout: 0 })
  // Listens: sql.listen opens its own dedicated connection. A connection that only listens is idle:
  // a server's idle_session_timeout would end it at every limit.
  let droppedAt: number | null = null
  const listener = new SQL({
    url: opts.url,
    max: 1,
    connection: { idle_session_timeout: 0, application_name: `dibs-fanout ${opts.nodeId}`.slice(0, 63) },
    onclose: () => (droppedAt ??= Date.now()),
  })

  const closeAll = () => Promise.all([listener.close({ timeout: 0 }), sender.close({ timeout: 0 })].map((p) => p.catch(() => {})))

  const fanned = new WeakSet<object>()
  let lastError: string | undefined
  const fail = (message: string) => {
    if (message !== lastError) report({ kind: 'error', message })
    lastError = message
  }

  // Received notices are loaded and emitted one at a time, in the order they arrived.
  let queue: Promise<void> = Promise.resolve()
  let stopped = false
  const receive = async (payload: string) => {
    const notice = decode(payload)
    if (notice === null || notice.o === opts.nodeId || stopped) return
    try {
      const data = await opts.load(notice.e, notice.r)
      if (data === null || stopped) return
      fanned.add(data)
      opts.bus.emit(notice.e, data)
    } catch (err) {
      fail(`fan-out: could not load ${notice.e} ${JSON.stringify(notice.r)} from node ${notice.o}: ${words(err)}`)
    }
  }

  let listens = 0
  const subscription = await listener
    .listen(
      channel,
      (payload) => void (queue = queue.then(() => receive(payload))),
      () => {
        if (++listens === 1) return
        const ms = droppedAt === null ? null : Date.now() - droppedAt
        droppedAt = null
        report({
          kind: 'gap',
          ms,
          message:
            `fan-out: listening again on "${channel}" after the connection dropped${ms === null ? '' : ` (${ms} ms)`}; ` +
            `events other nodes published in between did not reach this node's sockets, which are told to refetch`,
        })
        opts.onGap?.()
      },
    )
    .catch(async (err: unknown) => {
      // Not listening from the start (the database is unreachable): nothing to keep; the caller retries.
      await closeAll()
      throw err
    })

  const publish = async <K extends FanoutEventName>(name: K, ref: FanoutRefs[K]): Promise<boolean> => {
    try {
      // Issued back to back on the one connection: they stay in order even when split.
      await Promise.all(encode(opts.nodeId, name, ref).map((payload) => sender.notify(channel, payload)))
      lastError = undefined
      return true
    } catch (err) {
      fail(`fan-out: could not announce events to the other nodes (their sockets miss them): ${words(err)}`)
      return false
    }
  }

  // relayed announcements in flight: stop() lets them leave first (a CLI process stops right after its work)
  const sending = new Set<Promise<boolean>>()
  const off = opts.relay
    ? FANOUT_EVENTS.map((name) =>
        opts.bus.on(name, (data) => {
          if (fanned.has(data)) return
          const p = publish(name, refOf(name, data))
          sending.add(p)
          void p.finally(() => sending.delete(p))
        }),
      )
    : []

  return {
    publish,
    fannedIn: (data) => fanned.has(data),
    async stop() {
      stopped = true
      for (const fn of off) fn()
      await Promise.all(sending)
      await subscription.unlisten().catch(() => {})
      await queue
      await closeAll()
    },
  }
}
