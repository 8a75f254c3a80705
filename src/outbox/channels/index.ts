// The outbox's senders by channel name: the core channels (email, web push, in-app) and one per
// provider of the registry (registry.ts: webhook, ntfy, Discord, Telegram, Pushover, Gotify,
// Matrix, Slack, Apprise). The outbox looks a row's sender up here by its `channel` column.
import type { Deps } from '../../deps'
import { createMailer } from '../mailer'
import { emailChannel } from './email'
import type { HttpOpts } from './http'
import { inappChannel } from './inapp'
import { providerChannels } from './registry'
import { webpushChannel } from './webpush'
import type { Channel, ChannelName, ChannelStore } from './types'

export type Channels = Record<ChannelName, Channel>

/** `store`: the user's channel rows, src/notify's (src/notify/channel-store.ts; types.ts says why it is passed in). */
export function createChannels(deps: Deps, store: ChannelStore, overrides: Partial<Channels> = {}, http: HttpOpts = {}): Channels {
  const channels: Channels = {
    email: emailChannel(createMailer(deps.config), { host: new URL(deps.config.appUrl).hostname }),
    push: webpushChannel(deps, store),
    inapp: inappChannel(),
  }
  for (const c of providerChannels(deps, store, http)) channels[c.name] = c
  return { ...channels, ...overrides } as Channels
}

export type { Channel, ChannelName, ChannelStore }
