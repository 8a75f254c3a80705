// The shape every channel shares (after Uptime Kuma's notification providers): one `send()` that
// delivers one queued outbox row, resolves on success, throws to retry with backoff, and throws
// PermanentFailure when retrying cannot help.
import type { OutboxRow } from '../../db/schema'

export type ChannelName = 'email' | 'push' | 'inapp'
export type Channel = { name: ChannelName; send(row: OutboxRow): Promise<void>; close?(): void }
