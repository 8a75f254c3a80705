// The channel registry: the outbox looks a row's sender up here by its `channel` column.
import type { Deps } from '../../deps'
import { createMailer } from '../mailer'
import { emailChannel } from './email'
import { inappChannel } from './inapp'
import { webpushChannel } from './webpush'
import type { Channel, ChannelName } from './types'

export type Channels = Record<ChannelName, Channel>

export function createChannels(deps: Deps, overrides: Partial<Channels> = {}): Channels {
  return {
    email: overrides.email ?? emailChannel(createMailer(deps.config), { host: new URL(deps.config.appUrl).hostname }),
    push: overrides.push ?? webpushChannel(deps),
    inapp: overrides.inapp ?? inappChannel(),
  }
}

export type { Channel, ChannelName }
