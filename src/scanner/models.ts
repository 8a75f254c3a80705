// The scanner capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { PreviewPostModel, SourceViewModel } from '../sources/models'
import { nullable } from '../lib/models'

export const ForumActivityModel = t.Object({
  subreddit: t.String(),
  at: nullable(t.String()),
  usualGapMs: nullable(t.Number()),
  flag: nullable(t.String()),
})
export const ScanTypeModel = t.Union([t.Literal('catch-up'), t.Literal('demo'), t.Literal('live'), t.Literal('manual')])
export const GapWindowModel = t.Object({ fromAt: t.Number(), toAt: t.Number() })
export const CoverageGapModel = t.Object({
  source: t.String(),
  forums: t.Array(t.String()),
  subreddits: t.Array(t.String()),
  fromAt: t.String(),
  toAt: t.String(),
  seconds: t.Number(),
  foundAt: t.String(),
})
export const PreviewModel = t.Object({
  posts: t.Array(PreviewPostModel),
  fetched: t.Number(),
  title: nullable(t.String()),
  software: nullable(t.String()),
  notes: t.Array(t.String()),
})
export const PollOutcomeModel = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('not_modified'), t.Literal('failed'), t.Literal('waiting')]),
  fetched: t.Number(),
  new: t.Number(),
  matches: t.Number(),
  error: nullable(t.String()),
  retryAt: nullable(t.String()),
  posts: t.Array(PreviewPostModel),
})
export const AddedModel = t.Object({ source: SourceViewModel, secret: nullable(t.String()), ingested: nullable(PollOutcomeModel) })
export const SwitchedModel = t.Object({ pair: t.String(), enabled: t.Array(t.String()), added: t.Array(t.String()), disabled: t.Array(t.String()) })
export const ScanTotalsModel = t.Object({
  scans: t.Number(),
  successful: t.Number(),
  failed: t.Number(),
  postsNew: t.Number(),
  matchesFound: t.Number(),
  usersProcessed: t.Number(),
  avgDurationMs: nullable(t.Number()),
})
export const IngestIdResponse = t.Object({
  received: t.Number(),
  stored: t.Number(),
  duplicates: t.Number(),
  matches: t.Number(),
  posts: t.Array(t.Object({ id: t.String(), stored: t.Boolean() })),
})
