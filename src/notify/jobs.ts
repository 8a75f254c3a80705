// The notifier's background jobs: outbox delivery (the worker is also woken on every enqueue),
// email digests, quiet-hours summaries, trial reminders, pruning of delivered rows, and the channel
// providers' own jobs (src/outbox/channels/registry.ts: Telegram's update reader, which links chats
// and handles 'Mark read' presses).
import type { Deps } from '../deps'
import type { Job } from '../jobs/types'
import { pruneOutbox } from '../outbox/queue'
import { providerJobs } from '../outbox/channels/registry'
import type { ProviderHooks } from '../outbox/channels/provider'
import { markRead } from '../matches/service'
import type { OutboxWorker } from '../outbox/worker'
import { channelStore } from './channel-store'
import { runDigests } from './digest'
import { runQuietSummaries } from './quiet-summary'
import { runTrialEmails } from './trial'

/** What a provider may ask of the app: the channel rows (./channel-store.ts), and a button press marks the user's match read (false: not theirs, or gone). */
export const providerHooks: ProviderHooks = {
  ...channelStore,
  async markRead(deps, userId, matchId) {
    try {
      await markRead(deps, userId, matchId)
      return true
    } catch {
      return false
    }
  },
}

export function notifyJobs(outbox: OutboxWorker): Job[] {
  return [
    // every node drains the outbox (claimed FOR UPDATE SKIP LOCKED on PostgreSQL: each row once)
    { name: 'outbox', every: 1000, immediate: true, everyNode: true, run: () => outbox.tick() },
    { name: 'email-digests', every: 60_000, run: (deps: Deps) => runDigests(deps) },
    { name: 'quiet-summaries', every: 30_000, run: (deps: Deps) => runQuietSummaries(deps) },
    { name: 'trial-emails', every: 15 * 60_000, immediate: true, run: (deps: Deps) => runTrialEmails(deps) },
    { name: 'outbox-prune', every: 24 * 60 * 60_000, run: (deps: Deps) => pruneOutbox(deps) },
    ...providerJobs(providerHooks),
  ]
}
