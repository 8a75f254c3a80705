// The contract capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { t } from 'elysia'
import { nullable } from '../lib/models'

/** A category: wts (for sale), wtb (wanted), gd (deals); src/access/categories.ts. */
export const CategoryModel = t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])
/** A listing's title price at a time, and a price drop (src/forums/price-history.ts). */
export const PricePointModel = t.Object({ price: t.Number(), at: t.String() })
export const PriceDropModel = t.Object({ from: t.Number(), to: t.Number() })
export const PostStateModel = t.Union([t.Literal('open'), t.Literal('pending'), t.Literal('removed'), t.Literal('sold')])
export const SellerTrustModel = t.Object({ trades: nullable(t.Number()), ageDays: nullable(t.Number()), karma: nullable(t.Number()) })
export const MatchItemModel = t.Object({
  id: t.Number(),
  postId: nullable(t.Number()),
  title: t.String(),
  url: t.String(),
  linkUrl: nullable(t.String()),
  author: t.String(),
  createdAt: t.String(),
  postCreatedAt: nullable(t.String()),
  matchedTerms: t.Array(t.String()),
  isNew: t.Boolean(),
  category: CategoryModel,
  source: t.String(),
  archivedAt: nullable(t.String()),
  state: PostStateModel,
  repost: t.Optional(nullable(t.Object({ firstSeenAt: t.String(), postedAt: t.Array(t.String()) }))),
  priceHistory: t.Optional(t.Array(PricePointModel)),
  priceDrop: t.Optional(nullable(PriceDropModel)),
  titleParts: t.Optional(t.Array(t.Object({ text: t.String(), hit: t.Boolean() }))),
  location: t.Optional(nullable(t.String())),
  sourceName: t.Optional(nullable(t.String())),
  sourceKind: t.Optional(nullable(t.Union([t.Literal('reddit'), t.Literal('feed'), t.Literal('push')]))),
  price: t.Optional(nullable(t.Number())),
  seller: t.Optional(nullable(SellerTrustModel)),
  claimedAfterMs: t.Optional(nullable(t.Number())),
})
export const UnreadCountsModel = t.Object({ gd: t.Number(), wtb: t.Number(), wts: t.Number() })
export const FeedItemModel = t.Object({
  id: t.Number(),
  redditId: t.String(),
  title: t.String(),
  url: t.String(),
  linkUrl: nullable(t.String()),
  content: t.String(),
  author: t.String(),
  subreddit: t.String(),
  forum: t.String(),
  postType: nullable(CategoryModel),
  createdAt: t.String(),
  state: PostStateModel,
  location: nullable(t.String()),
  source: nullable(t.String()),
})
export const SettingNameModel = t.Union([t.Literal('is_emergency_paused'), t.Literal('is_maintenance_mode_active')])
export const ScanMetricModel = t.Object({
  id: t.Number(),
  createdAt: t.String(),
  scanType: t.String(),
  status: t.String(),
  postsFetched: t.Number(),
  postsNew: t.Number(),
  usersProcessed: t.Number(),
  matchesFound: t.Number(),
  requests: t.Number(),
  durationMs: t.Number(),
  error: nullable(t.String()),
})
