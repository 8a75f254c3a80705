// The matches capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { MatchItemModel, UnreadCountsModel } from '../contract/models'
import { nullable } from '../lib/models'

export const MatchCountsModel = t.Object({ total: t.Number(), unread: t.Number(), archived: t.Number() })
export const BatchResultModel = t.Object({
  total_search_terms: t.Number(),
  recent_posts_count: t.Number(),
  matches_created: t.Number(),
  execution_time_seconds: t.Number(),
  skipped: t.Optional(t.Literal('paused')),
})
export const MatchesResponse = t.Object({ matches: t.Array(MatchItemModel), nextCursor: nullable(t.String()) })
export const CountResponse = t.Object({ count: t.Number() })
export const MatchesIdReadResponse = t.Object({ id: t.Number(), isNew: t.Literal(false) })
export const MatchesIdActedResponse = t.Object({ id: t.Number(), recorded: t.Boolean() })
export const MatchesIdUnreadResponse = t.Object({ id: t.Number(), isNew: t.Boolean() })
export const MatchesIdArchiveResponse = t.Object({ id: t.Number(), archivedAt: t.String() })
export const MatchesIdRestoreResponse = t.Object({ id: t.Number(), archivedAt: t.Null() })
export const UnreadResponse = UnreadCountsModel
export const MatchDefaultsResponse = t.Object({ skipSold: t.Boolean(), excludeWords: t.Array(t.String()), suggestions: t.Array(t.String()) })
