// The outbox worker: runs processOutbox, never twice at once; a wake during a run schedules one
// more run. It is woken by 'outbox.queued' (src/services.ts), so an instant email leaves within
// moments; its 1 s job tick only picks up retries whose backoff has elapsed. Alerts are held in
// the queue while the emergency pause is on.
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { isPaused } from '../settings/service'
import type { Channels } from './channels'
import { processOutbox, type OnDelivered } from './queue'

/** `stop` waits for a run in flight, then closes the channels. */
export type OutboxWorker = { tick(): Promise<unknown>; stop(): Promise<void> }

export function outboxWorker(deps: Pick<Deps, 'db' | 'now'>, channels: Channels, onDone?: OnDelivered): OutboxWorker {
  const senders = Object.fromEntries(Object.values(channels).map((c) => [c.name, (row: Parameters<typeof c.send>[0]) => c.send(row)]))
  let running: Promise<unknown> | null = null
  let again = false
  let stopped = false
  const tick = (): Promise<unknown> => {
    if (stopped) return Promise.resolve()
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        const r = await processOutbox(deps, senders, { holdAlerts: await isPaused(deps), onDone })
        if (r.sent + r.retried + r.failed >= 100) again = true // a full batch: more may be due
      } while (again && !stopped)
    })()
      .catch((err) => log.error('outbox run failed', { error: String(err) }))
      .finally(() => {
        running = null
        // A wake after the loop's last check but before this point would otherwise be lost.
        if (again && !stopped) void tick()
      })
    return running
  }
  return {
    tick,
    async stop() {
      stopped = true
      await running
      for (const c of Object.values(channels)) c.close?.()
    },
  }
}
