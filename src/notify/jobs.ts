// The notifier's background jobs. The outbox worker also runs the moment something is enqueued
// (onOutboxWake), so an instant email leaves within moments; its 1 s tick only picks up retries
// whose backoff has elapsed. Alerts are held in the queue while the emergency pause is on.
import type { Job } from '../jobs'
import { isPaused } from '../admin/settings'
import type { Deps } from '../deps'
import { log } from '../lib/log'
import { createChannels, type Channels } from './channels'
import { runDigests } from './digest'
import { attachDispatcher } from './dispatcher'
import { onOutboxWake, processOutbox, pruneOutbox, recoverStuckSending } from './outbox'
import { runTrialEmails } from './trial'

export type OutboxWorker = { tick(): Promise<unknown>; stop(): void }

/** Runs processOutbox, never twice at once; a wake during a run schedules one more run. */
export function outboxWorker(deps: Deps, channels: Channels): OutboxWorker {
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
        const r = await processOutbox(deps, senders, { holdAlerts: isPaused(deps) })
        if (r.sent + r.retried + r.failed >= 100) again = true // a full batch: more may be due
      } while (again && !stopped)
    })()
      .catch((err) => log.error('outbox run failed', { error: String(err) }))
      .finally(() => {
        running = null
      })
    return running
  }
  const unwake = onOutboxWake(() => void tick())
  return {
    tick,
    stop() {
      stopped = true
      unwake()
      for (const c of Object.values(channels)) c.close?.()
    },
  }
}

export function notifyJobs(deps: Deps, channels: Channels = createChannels(deps)): Job[] {
  attachDispatcher(deps)
  recoverStuckSending(deps)
  const worker = outboxWorker(deps, channels)
  return [
    { name: 'outbox', every: 1000, immediate: true, run: () => worker.tick(), stop: () => worker.stop() },
    { name: 'email-digests', every: 60_000, run: (d) => runDigests(d) },
    { name: 'trial-emails', every: 15 * 60_000, immediate: true, run: (d) => runTrialEmails(d) },
    { name: 'outbox-prune', every: 24 * 60 * 60_000, run: (d) => pruneOutbox(d) },
  ]
}
