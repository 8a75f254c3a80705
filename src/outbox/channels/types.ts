// The shape every channel shares (after Uptime Kuma's notification providers): one `send()` that
// delivers one queued outbox row, resolves on success, throws to retry with backoff, and throws
// PermanentFailure when retrying cannot help.
import type { OutboxRow } from '../../db/schema'

export type ChannelName = 'email' | 'push' | 'inapp' | 'webhook' | 'ntfy' | 'discord'
export type Channel = { name: ChannelName; send(row: OutboxRow): Promise<void>; close?(): void }

/**
 * What an external channel (webhook, ntfy, Discord) says about a match; the webhook body is this
 * JSON. Built by src/notify/external.ts; a row's payload is `{endpointId, alert}`.
 */
export type ExternalAlert = {
  /** 'match' for a live match, 'test' for the 'Send test' button */
  type: 'match' | 'test'
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
  /** claim in one tap (src/notify/claim.ts, alert-links.ts): Claim and Open through the links that record time to claim, and Mark read (POST) */
  actions?: { claim: string; open: string; markRead: string }
  /** the seller's trust in words, "12 trades · account 3 y · 1.2k karma" (src/forums/seller.ts); '' when nothing is known */
  seller?: string
}
