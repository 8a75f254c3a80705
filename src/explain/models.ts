// The explain capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { CategoryModel, PostStateModel } from '../contract/models'
import { ChannelOutcomeModel } from '../notify/models'
import { nullable } from '../lib/models'

export const TermVerdictModel = t.Object({
  id: t.Number(),
  term: t.String(),
  matched: t.Boolean(),
  alerts: t.Boolean(),
  reasons: t.Array(t.String()),
  blockers: t.Array(t.String()),
})
export const ExplanationModel = t.Object({
  user: t.Object({ id: t.Number(), email: t.String() }),
  post: t.Object({
    redditId: t.String(),
    title: t.String(),
    url: t.String(),
    author: t.String(),
    flair: nullable(t.String()),
    subreddit: t.String(),
    source: nullable(t.String()),
    createdAt: t.String(),
    state: PostStateModel,
    stored: t.Boolean(),
    ingestedAt: nullable(t.String()),
    seen: t.String(),
  }),
  category: t.Object({ value: nullable(CategoryModel), label: t.String(), reason: nullable(t.String()) }),
  terms: t.Array(TermVerdictModel),
  otherTerms: t.Array(t.String()),
  match: nullable(
    t.Object({ id: t.Number(), matchedAt: t.String(), source: t.String(), matchedTerms: t.Array(t.String()), channels: t.Array(ChannelOutcomeModel) }),
  ),
  timeZone: t.String(),
})
export const ExplainResponse = ExplanationModel
