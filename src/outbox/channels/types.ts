// The shape every channel shares (after Uptime Kuma's notification providers): one `send()` that
// delivers one queued outbox row, resolves on success, throws to retry with backoff, and throws
// PermanentFailure when retrying cannot help.
import type { notifyEndpoints, OutboxRow, pushSubscriptions } from '../../db/schema'
import type { OwnerDb } from '../../db/async-db'
import type { Deps } from '../../deps'

/** The core channels, and every external provider's kind (registry.ts: webhook, ntfy, discord, telegram, …). */
export type ChannelName = 'email' | 'push' | 'inapp' | (string & {})
export type Channel = { name: ChannelName; send(row: OutboxRow): Promise<void>; close?(): void }

/**
 * The senders' reads and writes of the user's channels. notify_endpoints and push_subscriptions belong
 * to src/notify (src/db/owners.json), which imports the outbox (its queue, this registry), so the outbox
 * cannot import it: src/notify/channel-store.ts gives these functions, src/services.ts passes them to
 * createChannels, and src/notify/jobs.ts to the providers' jobs (ProviderHooks, provider.ts).
 */
export type ChannelStore = {
  /** an external channel by id; null once removed */
  endpoint(deps: OwnerDb, id: number): Promise<typeof notifyEndpoints.$inferSelect | null>
  /** the outcome of a send on the channel (`last_result` and its time, shown in Notification Settings) */
  recordResult(deps: OwnerDb & Pick<Deps, 'now'>, id: number, result: string): Promise<void>
  /** Telegram: the channel whose one-time link code this is, linked or not; null when none */
  telegramEndpointByLinkCode(deps: OwnerDb, code: string): Promise<typeof notifyEndpoints.$inferSelect | null>
  /** Telegram: the channel is linked to a chat: its options and the address shown change, its last result reads 'linked' */
  markTelegramLinked(deps: OwnerDb & Pick<Deps, 'now'>, id: number, options: Record<string, unknown>, url: string): Promise<void>
  /** Telegram: the users whose channels are linked to this chat */
  telegramChatOwners(deps: OwnerDb, chatId: number): Promise<number[]>
  /** a push subscription by id; null once removed */
  subscription(deps: OwnerDb, id: number): Promise<typeof pushSubscriptions.$inferSelect | null>
  /** the push service accepted a message for the subscription */
  markPushDelivered(deps: OwnerDb & Pick<Deps, 'now'>, id: number): Promise<void>
  /** the push service says the subscription is gone: its row goes (`db` may be the caller's transaction) */
  deleteSubscription(deps: OwnerDb, id: number): Promise<void>
}

/**
 * What an external channel (every provider of registry.ts) says about a match; the webhook body is this
 * JSON. Built by src/notify/external.ts; a row's payload is `{endpointId, alert}`.
 */
export type ExternalAlert = {
  /** 'match' for a live match, 'test' for the 'Send test' button, 'summary' for matches folded into one message */
  type: 'match' | 'test' | 'summary'
  match: {
    id: number
    category: string
    categoryLabel: string
    matchedTerms: string[]
    matchedAt: string
    url: string
    /** the match alerts a price drop of a reposted listing (src/matches/listing.ts) */
    priceDrop?: { from: number; to: number } | null
  }
  post: { id: number | null; title: string; url: string; linkUrl: string | null; author: string; price: number | null; createdAt: string | null }
  /** the alert's buttons: Claim (the fastest way to reach the seller) and Open (the post), through the links that record time to claim (src/notify/alert-links.ts), and Mark read (POST); Telegram's Mark read is its callback */
  actions?: { claim: string; open: string; markRead?: string }
  /** the seller's trust in words, "12 trades · account 3 y · 1.2k karma" (src/forums/seller.ts); '' when nothing is known */
  seller?: string
  /** type 'summary': the matches this one message stands for (quiet hours ended, or the channel's cap per minute was reached) */
  summary?: { reason: 'quiet' | 'rate'; count: number; matches: { id: number; title: string; url: string }[] }
}
