// The admin capability's HTTP answer models (Elysia `t`): what its routes return, as the OpenAPI document at /api/docs/json and the typed client see it.
import { oneOf } from '../lib/one-of'
import { t } from 'elysia'
import { SavedTermModel } from '../terms/models'
import { AccessInfoModel, PlanIdModel, RoleModel } from '../access/models'
import { ScanMetricModel, SettingNameModel } from '../contract/models'
import { BlockedSellerModel, FailureReasonModel, SourceHealthModel, UnparsedPostModel } from '../forums/models'
import { LatencyReportModel } from '../metrics/models'
import {
  AddedModel,
  CoverageGapModel,
  ForumActivityModel,
  GapWindowModel,
  PollOutcomeModel,
  PreviewModel,
  ScanTotalsModel,
  ScanTypeModel,
  SwitchedModel,
} from '../scanner/models'
import { LogLineModel, nullable } from '../lib/models'
import { PresetModel, PresetPairModel, SourceViewModel } from '../sources/models'
import { FileSizesModel, IntegrityResultModel, TableStatModel } from '../db/models'
import { BatchResultModel, MatchCountsModel } from '../matches/models'

export const HealthStatusModel = t.Union([t.Literal('critical'), t.Literal('healthy'), t.Literal('warning')])
export const QueueColourModel = t.Union([t.Literal('green'), t.Literal('red'), t.Literal('yellow')])
export const KpiCountsModel = t.Object({
  matchesToday: t.Number(),
  matchesYesterday: t.Number(),
  usersMatched24h: t.Number(),
  postsToday: t.Number(),
  totalUsers: t.Number(),
  activeOrTrialing: t.Number(),
  trialUsers: t.Number(),
  paidUsers: t.Number(),
})
export const ActivityItemModel = t.Object({
  at: t.String(),
  kind: t.Union([t.Literal('admin'), t.Literal('job'), t.Literal('scan')]),
  text: t.String(),
  status: t.String(),
  actor: nullable(t.String()),
})
export const UserListItemModel = t.Object({
  id: t.Number(),
  email: t.String(),
  name: t.String(),
  role: t.String(),
  storedRole: t.String(),
  hasAccess: t.Boolean(),
  statusText: t.String(),
  subscriptionStatus: nullable(t.String()),
  accessExpiresAt: nullable(t.String()),
  grantedBy: nullable(t.String()),
  confirmed: t.Boolean(),
  banned: t.Boolean(),
  twoFactor: t.Boolean(),
  adminByConfig: t.Boolean(),
  createdAt: t.String(),
  lastSignInAt: nullable(t.String()),
  trialEndingSoon: t.Boolean(),
})
export const ScannerStateModel = t.Union([t.Literal('failing'), t.Literal('idle'), t.Literal('paused'), t.Literal('running'), t.Literal('waiting')])
export const ScanSettingsViewModel = t.Object({
  intervalSeconds: nullable(t.Number()),
  maxRequestsPerMinute: t.Number(),
  source: t.Union([t.Literal('stored'), t.Literal('environment')]),
  mode: nullable(t.String()),
  modeCapPerMinute: nullable(t.Number()),
  minIntervalSeconds: nullable(t.Number()),
  updatedAt: nullable(t.String()),
  applicable: t.Boolean(),
})
export const ScanLogEntryModel = t.Object({
  at: t.String(),
  source: t.Union([t.Literal('scan'), t.Literal('job')]),
  job: t.String(),
  status: t.String(),
  durationMs: t.Number(),
  summary: t.String(),
  error: nullable(t.String()),
})
export const BackupInfoModel = t.Object({
  dir: t.String(),
  files: t.Number(),
  newestFile: nullable(t.Object({ name: t.String(), at: t.String(), bytes: t.Number() })),
  lastRecorded: nullable(t.Object({ at: t.String(), actor: t.String(), action: t.String() })),
  at: nullable(t.String()),
})
export const RangeDaysModel = t.Number({ enum: [7, 30, 90], description: 'the range in days: 7, 30 or 90' })
export const TrendsModel = t.Object({
  days: RangeDaysModel,
  labels: t.Array(t.String()),
  postsPerForum: t.Record(t.String(), t.Array(t.Number())),
  matchesPerCategory: t.Record(t.String(), t.Array(t.Number())),
  newAccounts: t.Array(t.Number()),
  latency: t.Object({ p50: t.Array(nullable(t.Number())), p95: t.Array(nullable(t.Number())), count: t.Array(t.Number()) }),
  topTerms: t.Array(SavedTermModel),
  oldestPostAt: nullable(t.String()),
})
export const FailedRowModel = t.Object({
  id: t.Number(),
  channel: t.String(),
  kind: t.String(),
  userId: nullable(t.Number()),
  email: nullable(t.String()),
  attempts: t.Number(),
  lastError: nullable(t.String()),
  createdAt: t.String(),
  lastAttemptAt: t.String(),
})
export const PlanLineModel = t.Object({ plan: PlanIdModel, name: t.String(), priceCents: t.Number(), subscribers: t.Number(), mrrCents: t.Number() })
export const AccountKindModel = t.Union([
  t.Literal('admin'),
  t.Literal('default_plan'),
  t.Literal('gifted'),
  t.Literal('gifted_expired'),
  t.Literal('lapsed_paid'),
  t.Literal('manual'),
  t.Literal('none'),
  t.Literal('paying'),
  t.Literal('trial'),
  t.Literal('trial_expired'),
])
export const WeekLineModel = t.Object({
  weekStart: t.String(),
  trialsStarted: t.Number(),
  trialsConverted: t.Number(),
  trialsExpired: t.Number(),
  churned: t.Number(),
})
export const ChurnModel = t.Object({ windowDays: t.Number(), churned: t.Number(), payingAtStart: t.Number(), rate: nullable(t.Number()) })
export const AdminSettingsResponse = t.Record(SettingNameModel, t.Boolean())
export const AdminSettingsNameResponse = t.Object({ name: SettingNameModel, active: t.Boolean() })
export const AdminHealthResponse = t.Object({
  status: HealthStatusModel,
  minutesSinceLastScan: nullable(t.Number()),
  performance: t.Number(),
  posts: t.Number(),
  users: t.Number(),
  matches: t.Number(),
  lastScanAt: nullable(t.String()),
  emailQueuePending: t.Number(),
  emailQueueColour: QueueColourModel,
  source: nullable(
    t.Object({
      state: t.Union([t.Literal('blocked'), t.Literal('failing'), t.Literal('forum_missing'), t.Literal('login_required'), t.Literal('slow')]),
      reason: nullable(t.String()),
      since: nullable(t.String()),
    }),
  ),
  forumNotice: nullable(t.String()),
  coverageGaps: t.Object({ count: t.Number(), seconds: t.Number() }),
  checkedAt: t.String(),
})
export const AdminKpisResponse = t.Composite([
  KpiCountsModel,
  t.Object({ conversionRate: nullable(t.Number()), matchesGrowthPercent: nullable(t.Number()) }),
  t.Object({ computedAt: t.String() }),
])
export const AdminResourcesResponse = t.Object({
  uptimeSeconds: t.Number(),
  memory: t.Object({ rssBytes: t.Number(), heapUsedBytes: t.Number(), heapTotalBytes: t.Number() }),
  eventLoopLag: t.Object({ lastMs: nullable(t.Number()), meanMs: nullable(t.Number()), maxMs: nullable(t.Number()), windowSeconds: t.Number() }),
  database: t.Object({ fileBytes: t.Number(), walBytes: t.Number() }),
  openSockets: t.Number(),
  outbox: t.Object({ pending: t.Number(), sending: t.Number() }),
  reddit: t.Object({
    mode: nullable(t.String()),
    requestsLastMinute: nullable(t.Number()),
    allowedPerMinute: nullable(t.Number()),
    remaining: nullable(t.Number()),
    blockedUntil: nullable(t.String()),
    blockedReason: nullable(FailureReasonModel),
    last429At: nullable(t.String()),
  }),
  scanInterval: t.Object({ ms: t.Number(), adaptive: t.Boolean() }),
  alertLatency24h: t.Object({ samples: t.Number(), p50Ms: nullable(t.Number()), p95Ms: nullable(t.Number()) }),
  measuredAt: t.String(),
})
export const AdminActivityResponse = t.Array(ActivityItemModel)
export const AdminLatencyResponse = LatencyReportModel
export const AdminUsersGetResponse = t.Object({
  users: t.Array(UserListItemModel),
  total: t.Number(),
  page: t.Number(),
  pages: t.Number(),
  pageSize: t.Number(),
})
export const AdminUsersPostResponse = t.Object({
  id: t.Number(),
  email: t.String(),
  mode: t.Union([t.Literal('confirmed'), t.Literal('invited')]),
  role: nullable(t.Union([t.Literal('none'), RoleModel])),
  message: t.String(),
})
export const AdminUsersIdRoleResponse = t.Object({ from: t.String(), to: t.Union([t.Literal('none'), RoleModel]) })
export const AdminUsersIdGrantResponse = t.Object({ plan: PlanIdModel, until: t.String() })
export const AdminUsersIdTrialResponse = t.Union([t.Object({ days: t.Number(), until: t.String() }), t.Object({ endedAt: t.String() })])
export const AdminUsersIdBanResponse = t.Object({ banned: t.Boolean() })
export const AdminUserEmailResponse = t.Object({ email: t.String() })
export const AdminUsersIdSignOutResponse = t.Object({})
export const AdminScannerResponse = t.Object({
  state: ScannerStateModel,
  paused: t.Boolean(),
  running: t.Boolean(),
  waitingUntil: nullable(t.String()),
  waitingReason: nullable(t.String()),
  waitingWhy: nullable(t.String()),
  failingSince: nullable(t.String()),
  lastError: nullable(t.String()),
  lastScanAt: nullable(t.String()),
  lastSuccessAt: nullable(t.String()),
  nextScanAt: nullable(t.String()),
  mode: nullable(t.String()),
  unparsed: t.Object({ last24h: t.Number(), recent: t.Array(UnparsedPostModel) }),
  health: nullable(SourceHealthModel),
  recheck: t.String(),
  gaps24h: t.Object({ count: t.Number(), seconds: t.Number() }),
  forumNotice: nullable(t.String()),
  lastPostPerForum: t.Array(ForumActivityModel),
  lastPostAt: nullable(t.String()),
  settings: ScanSettingsViewModel,
})
export const AdminScannerRunResponse = t.Object({
  status: t.Union([t.Literal('success'), t.Literal('failed'), t.Literal('paused'), t.Literal('waiting'), t.Literal('busy')]),
  scanType: ScanTypeModel,
  postsFetched: t.Number(),
  postsNew: t.Number(),
  postsChanged: t.Number(),
  matchesCreated: t.Number(),
  usersMatched: t.Number(),
  pages: t.Number(),
  requests: t.Number(),
  reachedKnown: t.Boolean(),
  durationMs: t.Number(),
  error: nullable(t.String()),
  gap: nullable(GapWindowModel),
  nextAt: t.String(),
  waitingWhy: nullable(t.String()),
})
export const AdminScanLogResponse = t.Array(ScanLogEntryModel)
export const AdminSourceGapsResponse = t.Object({
  count: t.Number(),
  seconds: t.Number(),
  window: t.Union([t.Literal('24h'), t.Literal('7d')]),
  since: t.String(),
  gaps: t.Array(CoverageGapModel),
})
export const AdminLogsAppResponse = t.Object({ lines: t.Array(LogLineModel), lastSeq: t.Number() })
export const AdminScanSettingsGetResponse = ScanSettingsViewModel
export const AdminSourcesGetResponse = t.Object({
  sources: t.Array(SourceViewModel),
  politenessSeconds: t.Number(),
  minPolitenessSeconds: t.Number(),
  presets: t.Array(PresetModel),
  pairs: t.Array(PresetPairModel),
  forumPreset: t.String(),
})
export const AdminSourcesPreviewResponse = PreviewModel
export const AdminSourcesPostResponse = AddedModel
export const AdminSourcesIdPatchResponse = SourceViewModel
export const AdminSourcesIdDeleteResponse = t.Object({ ok: t.Literal(true), name: t.String() })
export const AdminSourcesIdFetchResponse = PollOutcomeModel
export const AdminForumPresetResponse = SwitchedModel
export const AdminSourcesSettingsResponse = t.Object({ politenessSeconds: t.Number() })
export const AdminDatabaseResponse = t.Object({
  /** set on PostgreSQL only: the SQLite figures below do not apply (absent on SQLite) */
  engine: t.Optional(t.Literal('postgres')),
  path: t.String(),
  files: FileSizesModel,
  pageSize: t.Number(),
  pages: t.Number(),
  freeBytes: t.Number(),
  sqliteVersion: t.String(),
  sizes: t.Union([t.Literal('dbstat'), t.Literal('estimate')]),
  tables: t.Array(TableStatModel),
  backup: BackupInfoModel,
})
export const AdminDatabaseIntegrityResponse = IntegrityResultModel
export const AdminDatabaseOptimizeResponse = t.Object({ before: FileSizesModel, after: FileSizesModel, savedBytes: t.Number(), ms: t.Number() })
export const AdminTrendsResponse = TrendsModel
export const AdminAlertsResponse = t.Object({
  days: t.Number({ enum: [7, 30, 90], description: 'the range in days: 7, 30 or 90' }),
  labels: t.Array(t.String()),
  channels: t.Array(t.String()),
  channelNames: t.Record(t.String(), t.String()),
  perDay: t.Record(t.String(), t.Record(t.String(), t.Array(t.Number()))),
  /** per channel: rows queued now by status (pending, sending, sent, failed), the due ones and the oldest pending */
  queue: t.Record(
    t.String(),
    t.Object({
      pending: t.Number(),
      sending: t.Number(),
      sent: t.Number(),
      failed: t.Number(),
      due: t.Number(),
      oldestPendingAt: nullable(t.String()),
      oldestPendingAgeSeconds: nullable(t.Number()),
    }),
  ),
  parked: t.Record(t.String(), t.Record(t.String(), t.Number())),
  pushGone: t.Object({
    count: t.Number(),
    perDay: t.Array(t.Number()),
    recent: t.Array(
      t.Object({
        userId: t.Optional(t.Number()),
        status: t.Optional(t.Number()),
        service: t.Optional(t.String()),
        userAgent: t.Optional(nullable(t.String())),
        at: t.String(),
        target: nullable(t.String()),
      }),
    ),
  }),
  bounces: t.Object({ known: t.Literal(false), text: t.String() }),
})
export const AdminAlertsFailedResponse = t.Object({
  rows: t.Array(FailedRowModel),
  page: t.Number(),
  pageSize: t.Number(),
  total: t.Number(),
  pages: t.Number(),
})
export const AdminAlertsIdRetryResponse = t.Object({ ok: t.Boolean(), id: t.Number() })
export const AdminBlockedSellersGetResponse = t.Object({ sellers: t.Array(BlockedSellerModel) })
export const AdminRevenueResponse = t.Object({
  billingEnabled: t.Boolean(),
  defaultPlan: nullable(PlanIdModel),
  mrrCents: t.Number(),
  plans: t.Array(PlanLineModel),
  accounts: t.Record(AccountKindModel, t.Number()),
  gifted: t.Array(t.Object({ userId: t.Number(), email: t.String(), plan: t.String(), until: nullable(t.String()), grantedBy: nullable(t.String()) })),
  weeks: t.Array(WeekLineModel),
  churn: ChurnModel,
})
export const AdminScanMetricsResponse = t.Object({ rows: t.Array(ScanMetricModel), stats24h: ScanTotalsModel })
export const AdminScraperTriggerResponse = t.Object({ scheduled: t.Boolean(), sourceProblem: nullable(t.String()) })
export const AdminMatchBatchResponse = BatchResultModel
export const AdminMaintenanceLogsResponse = t.Array(
  t.Object({
    id: t.Number(),
    jobName: t.String(),
    status: t.String(),
    executedAt: t.String(),
    durationMs: t.Number(),
    details: nullable(t.Record(t.String(), t.Unknown())),
  }),
)
export const AdminBackfillPostTypesResponse = t.Object({ count: t.Number(), examined: t.Number() })
export const AdminArchivePostsGetResponse = t.Object({ count: t.Number(), olderThanHours: t.Number() })
export const FeedbackMessageModel = t.Object({
  id: t.Number(),
  userId: nullable(t.Number()),
  email: t.String(),
  subject: t.String(),
  message: t.String(),
  createdAt: t.String(),
  readAt: nullable(t.String()),
  resolvedAt: nullable(t.String()),
  repliedAt: nullable(t.String()),
  reply: nullable(t.String()),
  /** a message's state: its labels on the admin page are keyed by it */
  state: oneOf(['unread', 'read', 'resolved'] as const),
})
export const AdminFeedbackResponse = t.Object({
  messages: t.Array(FeedbackMessageModel),
  counts: t.Object({ all: t.Number(), unread: t.Number(), read: t.Number(), resolved: t.Number() }),
  page: t.Number(),
  pages: t.Number(),
})
export const AdminUserDetailResponse = t.Object({
  user: t.Composite([UserListItemModel, t.Object({ providers: t.Array(t.String()), hasPassword: t.Boolean() })]),
  access: AccessInfoModel,
  billing: t.Object({
    role: t.String(),
    subscriptionStatus: nullable(t.String()),
    accessExpiresAt: nullable(t.String()),
    stripeCustomerId: nullable(t.String()),
    stripeSubscriptionId: nullable(t.String()),
    grantedBy: nullable(t.String()),
    updatedAt: nullable(t.String()),
  }),
  terms: t.Record(t.String(), t.Array(t.Object({ id: t.Number(), term: t.String(), paused: t.Boolean() }))),
  matchCounts: t.Record(t.String(), MatchCountsModel),
  notifications: t.Object({
    emailFrequency: t.String(),
    webPushEnabled: t.Boolean(),
    pushDevices: t.Number(),
    defaults: t.Optional(t.Boolean({ description: 'true: no saved preferences, these are the defaults' })),
  }),
  sessions: t.Number(),
  audit: t.Array(
    t.Object({
      id: t.Number(),
      at: t.String(),
      actor: t.String(),
      action: t.String(),
      details: nullable(t.Record(t.String(), t.Unknown())),
      result: t.String(),
    }),
  ),
})
