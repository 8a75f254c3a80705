// The notify capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { GateModel } from '../access/models'
import { FieldSpecModel, HttpRequestModel } from '../outbox/models'
import { nullable } from '../lib/models'

export const TermEmailModel = t.Union([t.Literal('default'), t.Literal('digest'), t.Literal('instant'), t.Literal('off')])
export const TermDeliveryModel = t.Object({
  email: TermEmailModel,
  push: t.Boolean(),
  endpoints: t.Record(t.String(), t.Boolean()),
  important: t.Optional(t.Boolean()),
})
export const OutcomeStatusModel = t.Union([
  t.Literal('failed'),
  t.Literal('held'),
  t.Literal('off'),
  t.Literal('queued'),
  t.Literal('sent'),
  t.Literal('skipped'),
  t.Literal('waiting'),
])
export const ChannelOutcomeModel = t.Object({
  channel: t.String(),
  label: t.String(),
  status: OutcomeStatusModel,
  text: t.String(),
  at: nullable(t.String()),
})
export const EmailFrequencyModel = t.Union([t.Literal('batched'), t.Literal('instant'), t.Literal('none')])
export const LevelModel = t.Union([t.Literal('all'), t.Literal('important')])
export const EndpointKindModel = t.Union([
  t.Literal('apprise'),
  t.Literal('discord'),
  t.Literal('gotify'),
  t.Literal('matrix'),
  t.Literal('ntfy'),
  t.Literal('pushover'),
  t.Literal('slack'),
  t.Literal('telegram'),
  t.Literal('webhook'),
])
export const UnsubscribeCodeModel = t.Union([t.Literal('CONFIG_ERROR'), t.Literal('DB_ERROR'), t.Literal('MISSING_TOKEN'), t.Literal('TOKEN_INVALID')])
/**
 * A notification channel as Settings lists it. Each provider adds its own fields (src/outbox/channels/*:
 * `view`), e.g. Telegram's `linked`, `linkCode`, `startCommand`, `botUsername`, Matrix's `roomId`: kept.
 */
export const ChannelModel = t.Object(
  {
    id: t.Number(),
    kind: EndpointKindModel,
    label: t.String(),
    name: t.String(),
    url: t.String({ description: 'shown masked where it holds a secret' }),
    level: LevelModel,
    ratePerMinute: nullable(t.Number()),
    createdAt: t.String(),
    lastResult: nullable(t.String()),
    lastResultAt: nullable(t.String()),
    failing: t.Boolean(),
    linked: t.Optional(t.Boolean({ description: 'Telegram: the chat is linked' })),
    linkCode: t.Optional(nullable(t.String({ description: 'Telegram: send /start <linkCode> to the bot' }))),
    startCommand: t.Optional(nullable(t.String())),
    botUsername: t.Optional(nullable(t.String())),
    roomId: t.Optional(nullable(t.String({ description: 'Matrix' }))),
  },
  { additionalProperties: true },
)
export const NotificationsHoldGetResponse = t.Object({
  max_seconds: t.Number(),
  recheck_note: nullable(
    t.Literal(
      'This installation reads Reddit without an API key: a post is checked again only when a later poll of the feed still lists it (a title edited to [SOLD] while it is among the newest posts). Removed posts and older ones are not re-checked, so waiting may not catch them.',
    ),
  ),
  hold_seconds: t.Number(),
})
export const NotificationsHoldPutResponse = t.Object({
  hold_seconds: t.Number(),
  max_seconds: t.Number(),
  recheck_note: nullable(
    t.Literal(
      'This installation reads Reddit without an API key: a post is checked again only when a later poll of the feed still lists it (a title edited to [SOLD] while it is among the newest posts). Removed posts and older ones are not re-checked, so waiting may not catch them.',
    ),
  ),
})
export const NotificationsPreferencesGetResponse = t.Object({
  email_frequency: EmailFrequencyModel,
  web_push_enabled: t.Boolean(),
  claim_template: nullable(t.String()),
  claim_template_default: t.String(),
  quiet_hours: nullable(t.Object({ start: t.String(), end: t.String(), time_zone: t.String() })),
  quiet_summary: t.String(),
  digest_interval_minutes: t.Number(),
  gates: t.Object({ email: GateModel, webPush: GateModel }),
})
export const NotificationsChannelsGetResponse = t.Object({
  channels: t.Array(ChannelModel),
  kinds: t.Array(
    t.Object({
      kind: EndpointKindModel,
      label: t.String(),
      setup: t.String(),
      fields: t.Array(FieldSpecModel),
      unavailable: nullable(t.String()),
    }),
  ),
  gate: t.Object({ allowed: t.Boolean(), message: nullable(t.String()) }),
  max: t.Number(),
  maxRatePerMinute: t.Number(),
})
/** A channel just added or changed; on adding, what its provider shows once (a webhook's signing `secret`, Telegram's `linkCode`, `startCommand`, `startLink`). */
export const ChannelResponse = t.Object(
  {
    channel: ChannelModel,
    secret: t.Optional(t.String({ description: 'webhook: its signing secret, shown this once' })),
    linkCode: t.Optional(t.String()),
    botUsername: t.Optional(nullable(t.String())),
    startCommand: t.Optional(t.String()),
    startLink: t.Optional(nullable(t.String())),
  },
  { additionalProperties: true },
)
export const IdResponse = t.Object({ id: t.Number() })
export const NotificationsChannelsIdTestResponse = t.Object({
  ok: t.Boolean(),
  result: t.String(),
  channel: ChannelModel,
})
export const NotificationsChannelsIdPayloadResponse = t.Object({ request: HttpRequestModel })
export const SecretResponse = t.Object({ secret: t.String() })
export const PushVapidPublicKeyResponse = t.Object({ publicKey: t.String() })
export const PushSubscriptionsPostResponse = t.Object({ id: t.Number(), count: t.Number() })
export const PushSubscriptionsDeleteResponse = t.Object({ removed: t.Number(), count: t.Number() })
export const UnsubscribeResponse = t.Object({ status: t.Union([t.Literal('success'), t.Literal('error')]), code: t.Optional(UnsubscribeCodeModel) })
