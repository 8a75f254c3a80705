// The sources capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { nullable } from '../lib/models'

export const SourceHealthStateModel = t.Union([t.Literal('disabled'), t.Literal('failing'), t.Literal('new'), t.Literal('ok'), t.Literal('push')])
export const SourceViewModel = t.Object({
  id: t.Number(),
  forum: t.Union([t.Literal('accessories'), t.Literal('deals')]),
  kind: t.Union([t.Literal('reddit'), t.Literal('feed'), t.Literal('push')]),
  name: t.String(),
  url: nullable(t.String()),
  subreddits: t.Array(t.String()),
  preset: nullable(t.String()),
  presetTitle: nullable(t.String()),
  enabled: t.Boolean(),
  ingestUrl: nullable(t.String()),
  health: t.Object({
    state: SourceHealthStateModel,
    summary: t.String(),
    lastPolledAt: nullable(t.String()),
    lastOkAt: nullable(t.String()),
    lastError: nullable(t.String()),
    failures: t.Number(),
    lastPosts: nullable(t.Number()),
  }),
  createdAt: t.String(),
  updatedAt: nullable(t.String()),
})
export const GrammarNameModel = t.Union([t.Literal('classifieds'), t.Literal('deals'), t.Literal('reddit-gun'), t.Literal('reddit-hw')])
/** A forum preset (src/sources/presets.ts): common fields, an address (a subreddit or a board URL pattern) and a role (accessories: wts/wtb, deals: gd). */
const presetCommon = { name: t.String(), title: t.String(), grammar: GrammarNameModel, label: t.String(), short: t.String(), notes: t.String() }
const reddit = { kind: t.Literal('reddit'), subreddit: t.String() }
const feed = { kind: t.Literal('feed'), urlPattern: t.String() }
const accessories = { forum: t.Literal('accessories'), categories: t.Object({ wts: t.String(), wtb: t.String() }) }
const deals = { forum: t.Literal('deals'), categories: t.Object({ gd: t.String() }) }
export const PresetModel = t.Union([
  t.Object({ ...presetCommon, ...reddit, ...accessories }),
  t.Object({ ...presetCommon, ...reddit, ...deals }),
  t.Object({ ...presetCommon, ...feed, ...accessories }),
  t.Object({ ...presetCommon, ...feed, ...deals }),
])
export const PresetPairModel = t.Object({
  name: t.String(),
  title: t.String(),
  accessories: t.String(),
  deals: t.String(),
  default: t.Boolean(),
  notes: t.String(),
})
export const PreviewPostModel = t.Object({
  id: t.String(),
  title: t.String(),
  url: t.String(),
  author: t.String(),
  createdAt: t.String(),
  category: nullable(t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])),
  classifiedAs: t.String(),
  state: t.String(),
  price: nullable(t.Number()),
  location: nullable(t.String()),
  error: nullable(t.String()),
})
