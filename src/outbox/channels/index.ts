// The channel registry: the outbox looks a row's sender up here by its `channel` column.
// Every sender lives in this folder, external ones included (webhook, ntfy, Discord).
import type { Deps } from '../../deps'
import { createMailer } from '../mailer'
import { discordChannel } from './discord'
import { emailChannel } from './email'
import type { HttpOpts } from './http'
import { inappChannel } from './inapp'
import { ntfyChannel } from './ntfy'
import { webhookChannel } from './webhook'
import { webpushChannel } from './webpush'
import type { Channel, ChannelName } from './types'

export type Channels = Record<ChannelName, Channel>

export function createChannels(deps: Deps, overrides: Partial<Channels> = {}, http: HttpOpts = {}): Channels {
  return {
    email: overrides.email ?? emailChannel(createMailer(deps.config), { host: new URL(deps.config.appUrl).hostname }),
    push: overrides.push ?? webpushChannel(deps),
    inapp: overrides.inapp ?? inappChannel(),
    webhook: overrides.webhook ?? webhookChannel(deps, http),
    ntfy: overrides.ntfy ?? ntfyChannel(deps, http),
    discord: overrides.discord ?? discordChannel(deps, http),
  }
}

export type { Channel, ChannelName }
