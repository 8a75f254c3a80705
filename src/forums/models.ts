// The forums capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { FeedItemModel } from '../contract/models'
import { nullable } from '../lib/models'

export const FailureReasonModel = t.Union([
  t.Literal('auth'),
  t.Literal('blocked'),
  t.Literal('closed'),
  t.Literal('forum_missing'),
  t.Literal('login_required'),
  t.Literal('malformed'),
  t.Literal('network'),
  t.Literal('rate_limited'),
  t.Literal('server'),
  t.Literal('timeout'),
])
export const UnparsedPostModel = t.Object({ redditId: t.String(), title: t.String(), error: t.String(), at: t.String() })
export const HealthStateModel = t.Union([
  t.Literal('blocked'),
  t.Literal('failing'),
  t.Literal('forum_missing'),
  t.Literal('login_required'),
  t.Literal('ok'),
  t.Literal('slow'),
])
export const SourceHealthModel = t.Object({
  name: t.String(),
  state: HealthStateModel,
  reason: nullable(t.String()),
  since: nullable(t.String()),
  lastSuccessAt: nullable(t.String()),
  lastFailureAt: nullable(t.String()),
  requestsLastHour: t.Number(),
  rateLimitedLastHour: t.Number(),
  forbiddenLastHour: t.Number(),
  missingForums: t.Array(t.String()),
  nextTryAt: nullable(t.String()),
})
export const BlockedSellerModel = t.Object({ name: t.String(), reason: t.String(), createdAt: t.String() })
export const PostsResponse = t.Object({ posts: t.Array(FeedItemModel), total: t.Number(), page: t.Number(), pageSize: t.Number(), delayed: t.Boolean() })
