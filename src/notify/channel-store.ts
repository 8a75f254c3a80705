// The rows of this folder's tables that the outbox's senders read and write (notify_endpoints,
// push_subscriptions). src/outbox/channels cannot import src/notify (src/notify imports the outbox),
// so they are handed over: src/services.ts passes this to createChannels, and ./jobs.ts to the
// providers' jobs (providerHooks: Telegram's linking and its button presses).
import type { ChannelStore } from '../outbox/channels/types'
import { endpointById, markTelegramLinked, recordEndpointResult, telegramChatOwners, telegramEndpointByLinkCode } from './endpoints'
import { deleteGoneSubscription, markPushDelivered, subscriptionById } from './push-subscriptions'

export const channelStore: ChannelStore = {
  endpoint: endpointById,
  recordResult: recordEndpointResult,
  telegramEndpointByLinkCode,
  markTelegramLinked,
  telegramChatOwners,
  subscription: subscriptionById,
  markPushDelivered,
  deleteSubscription: deleteGoneSubscription,
}
