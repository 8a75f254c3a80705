// The shape every channel shares (after Uptime Kuma's notification providers): one `send()` that
// delivers one queued outbox row, resolves on success, throws to retry with backoff, and throws
// PermanentFailure when retrying cannot help.
import type { OutboxRow } from '../../db/schema'

/** The core channels, and every external provider's kind (registry.ts: webhook, ntfy, discord, telegram, …). */
export type ChannelName = 'email' | 'push' | 'inapp' | (string & {})
export type Channel = { name: ChannelName; send(row: OutboxRow): Promise<void>; close?(): void }

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
