// Every entity of spec §3 in its Dibs form. Times are integer milliseconds (Date in TS).
// Indexes follow the queries: match lists by user+category+archived ordered by time,
// the live feed by post type+created, the outbox by status+due time.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { OutboxStatus } from '../outbox/status'

const ms = (name: string) => integer(name, { mode: 'timestamp_ms' })
const createdAt = () =>
  ms('created_at')
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`)

export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(), // stored lowercased
  name: text('name').notNull().default(''),
  passwordHash: text('password_hash'), // null for Google-only accounts
  emailConfirmedAt: ms('email_confirmed_at'),
  bannedAt: ms('banned_at'),
  createdAt: createdAt(),
  updatedAt: ms('updated_at'),
})

/** Roles, plans and access (spec user_roles), one row per user. */
export const userAccess = sqliteTable('user_access', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** admin | product | gd | product+gd | app_trial | trial_expired | none */
  role: text('role').notNull().default('none'),
  /** active | trialing | active_until_period_end | canceled | past_due | gifted | … */
  subscriptionStatus: text('subscription_status'),
  accessExpiresAt: ms('access_expires_at'),
  stripeCustomerId: text('stripe_customer_id'),
  stripeSubscriptionId: text('stripe_subscription_id'),
  /** who granted gifted access (admin email or 'cli'), null when paid or trial */
  grantedBy: text('granted_by'),
  trialEndingNotifiedAt: ms('trial_ending_notified_at'),
  trialEndedNotifiedAt: ms('trial_ended_notified_at'),
  updatedAt: ms('updated_at'),
})

export const authIdentities = sqliteTable(
  'auth_identities',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(), // 'google'
    providerUserId: text('provider_user_id').notNull(),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_identities_provider_uid').on(t.provider, t.providerUserId), index('auth_identities_user').on(t.userId)],
)

/** Second factors (spec auth user `factors`): one TOTP secret per user; verified once confirmed with a code. */
export const authFactors = sqliteTable(
  'auth_factors',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    factorType: text('factor_type').notNull(), // 'totp'
    /** the base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s), sealed with AES-256-GCM (src/auth/totp-secret.ts) */
    secret: text('secret').notNull(),
    verifiedAt: ms('verified_at'),
    /** the last 30-second step whose code was accepted: each code signs in once */
    lastUsedStep: integer('last_used_step'),
    /** when the owner was last emailed about a reused code (one email per burst) */
    replayAlertedAt: ms('replay_alerted_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_factors_user_type').on(t.userId, t.factorType)],
)

/** One-time recovery codes of a two-factor account, stored hashed only (`scheme`: src/auth/recovery-codes.ts). */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    /** how code_hash was made; rows from before it existed are 'short-sha256', upgraded at startup */
    scheme: text('scheme').notNull().default('short-sha256'),
    usedAt: ms('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash').on(t.userId, t.codeHash)],
)

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(), // sha-256 of the cookie token
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ms('expires_at').notNull(),
    lastSeenAt: ms('last_seen_at'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** set when the sign-in presented a two-factor code (or recovery code): the admin gate asks for it */
    secondFactorAt: ms('second_factor_at'),
  },
  (t) => [index('sessions_user').on(t.userId)],
)

/**
 * Personal access tokens (issue 28): `Authorization: Bearer dibs_pat_…` on the user's /api routes.
 * Only the SHA-256 of the token is stored; `hint` (its first characters) lets the owner tell tokens
 * apart. Revoking deletes the row. Owned by src/auth/access-tokens.ts.
 */
export const accessTokens = sqliteTable(
  'access_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** the token's first characters, e.g. 'dibs_pat_Ab3d' (shown as 'dibs_pat_Ab3d…') */
    hint: text('hint').notNull(),
    /** JSON array: 'read' and/or 'write' */
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: createdAt(),
    /** null: never expires */
    expiresAt: ms('expires_at'),
    lastUsedAt: ms('last_used_at'),
  },
  (t) => [index('access_tokens_user').on(t.userId)],
)

/** Single-use tokens (email confirmation, password reset), stored hashed. */
export const oneTimeTokens = sqliteTable(
  'one_time_tokens',
  {
    id: text('id').primaryKey(), // sha-256 of the emailed token
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(), // confirm | reset
    expiresAt: ms('expires_at').notNull(),
    usedAt: ms('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_tokens_user_purpose').on(t.userId, t.purpose)],
)

export const searchTerms = sqliteTable(
  'search_terms',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category').notNull(), // wts | wtb | gd
    term: text('term').notNull(), // lowercased, trimmed query text
    createdAt: createdAt(),
    /** paused: kept with its matches, not matched against new posts until resumed */
    pausedAt: ms('paused_at'),
    /** per-term delivery (src/notify/delivery.ts): {email?, push?, endpoints?}; null = the user's defaults */
    delivery: text('delivery', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** muted: alerts in-app only until then (far future = until unmuted) */
    mutedUntil: ms('muted_until'),
    /** delivered even during quiet hours */
    alwaysNotify: integer('always_notify', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [uniqueIndex('search_terms_user_category_term').on(t.userId, t.category, t.term)],
)

export const posts = sqliteTable(
  'posts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    redditId: text('reddit_id').notNull().unique(),
    forum: text('forum').notNull(), // product | gd
    subreddit: text('subreddit').notNull(), // real subreddit name
    title: text('title').notNull(),
    url: text('url').notNull(), // reddit permalink
    linkUrl: text('link_url'), // outbound link (deals)
    content: text('content').notNull().default(''),
    author: text('author').notNull().default(''),
    flair: text('flair'),
    /** the author's user flair ("Trades: 12"), where the forum shows confirmed trades */
    authorFlair: text('author_flair'),
    postType: text('post_type'), // wts | wtb | gd | null (unclassified)
    classification: text('classification'), // wts | wtb (accessories forum only)
    createdAt: ms('created_at').notNull(), // Reddit's created time
    ingestedAt: ms('ingested_at')
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    // Listing lifecycle (src/forums/recheck.ts): open | pending | sold | removed, when it last changed,
    // the listing price in dollars (title, or a price edit in the body), and the re-check bookkeeping.
    state: text('state').notNull().default('open'),
    stateChangedAt: ms('state_changed_at'),
    price: real('price'),
    recheckedAt: ms('rechecked_at'),
    recheckCount: integer('recheck_count').notNull().default(0),
    /** reposts (src/forums/reposts.ts): the first post of the same listing; null for a listing's first post */
    listingId: integer('listing_id'),
    /** why the post could not be read (classified, priced or matched): stored unclassified and shown to admins, never matched */
    parseError: text('parse_error'),
    /** where the seller is, read from the title's location tag ("USA-TX", "CAN-ON", "UK"); null when the title names none */
    location: text('location'),
    /** the source the post came from (sources.id); null for posts stored before sources were data, and the demo forum */
    sourceId: integer('source_id'),
    /** that source's name when the post arrived (match cards and the live feed say where a post came from) */
    sourceName: text('source_name'),
  },
  (t) => [
    index('posts_type_created').on(t.postType, t.createdAt),
    index('posts_created').on(t.createdAt),
    index('posts_ingested').on(t.ingestedAt),
    index('posts_author_created').on(sql`lower(${t.author})`, t.createdAt),
    index('posts_listing').on(t.listingId),
    index('posts_source_created').on(t.sourceId, t.createdAt),
  ],
)

/** One match per (user, post). Post title/url are copied so archived posts keep their matches readable. */
export const matches = sqliteTable(
  'matches',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: integer('post_id').references(() => posts.id, { onDelete: 'set null' }),
    category: text('category').notNull(), // wts | wtb | gd
    /** JSON array of the term texts that matched */
    matchedTerms: text('matched_terms', { mode: 'json' }).$type<string[]>().notNull(),
    postTitle: text('post_title').notNull(),
    postUrl: text('post_url').notNull(),
    postAuthor: text('post_author').notNull().default(''),
    postCreatedAt: ms('post_created_at'),
    /** live (alerted) | backfill (term added later: read, never alerted) | batch */
    source: text('source').notNull().default('live'),
    matchedAt: createdAt(),
    isNew: integer('is_new', { mode: 'boolean' }).notNull().default(true),
    archivedAt: ms('archived_at'),
    /** JSON {from, to}: this match alerted as a price drop of its listing (src/matches/listing.ts) */
    priceDrop: text('price_drop', { mode: 'json' }).$type<{ from: number; to: number }>(),
  },
  (t) => [
    uniqueIndex('matches_user_post').on(t.userId, t.postId),
    index('matches_user_category_archived_time').on(t.userId, t.category, t.archivedAt, t.matchedAt),
    index('matches_user_new').on(t.userId, t.isNew, t.archivedAt, t.category), // covers the unread counts
    index('matches_time').on(t.matchedAt),
    index('matches_post').on(t.postId), // the re-check: who matched a post whose state changed
  ],
)

/** Which terms produced a match; removing a term removes its rows, and a match left with none goes. */
export const matchTerms = sqliteTable(
  'match_terms',
  {
    matchId: integer('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    termId: integer('term_id')
      .notNull()
      .references(() => searchTerms.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.termId] }), index('match_terms_term').on(t.termId)],
)

/**
 * Matches whose alerts are owed: written in the match runner's transaction for every match that
 * alerts, removed in the dispatcher's transaction that queues its email, push and channel rows.
 * A row left here means the process stopped in between; the server re-dispatches it at start
 * (src/matches/owed.ts, src/notify/dispatcher.ts dispatchOwed), idempotently by the dedupe keys.
 */
export const alertsOwed = sqliteTable('alerts_owed', {
  matchId: integer('match_id')
    .primaryKey()
    .references(() => matches.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
})

/**
 * Per-user matching defaults (issue 15 item 16): no row = skip SOLD/PENDING posts, no excluded words.
 * exclude_words: JSON array of lowercased words/phrases, applied to every term (src/matches/defaults.ts).
 */
export const matchDefaults = sqliteTable('match_defaults', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  skipSold: integer('skip_sold', { mode: 'boolean' }).notNull().default(true),
  excludeWords: text('exclude_words', { mode: 'json' })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
  updatedAt: ms('updated_at'),
})

export const notificationPrefs = sqliteTable('notification_prefs', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailFrequency: text('email_frequency').notNull().default('instant'), // instant | batched | none
  webPushEnabled: integer('web_push_enabled', { mode: 'boolean' }).notNull().default(false),
  /** 'Wait before email and push' (0–120 s): held rows are released after one re-check (src/notify/hold.ts) */
  holdSeconds: integer('hold_seconds').notNull().default(0),
  lastDigestAt: ms('last_digest_at'),
  updatedAt: ms('updated_at'),
  /** quiet hours (src/notify/quiet-hours.ts): local 'HH:MM' start/end in an IANA time zone; null = none */
  quietStart: text('quiet_start'),
  quietEnd: text('quiet_end'),
  timeZone: text('time_zone'),
  /** the claim message (src/notify/claim.ts) with {title}, {price}, {link}, {author}; null = the default */
  claimTemplate: text('claim_template'),
})

/** A user's external alert channels (src/notify/endpoints.ts): webhook, ntfy topic, Discord webhook. */
export const notifyEndpoints = sqliteTable(
  'notify_endpoints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(), // webhook | ntfy | discord
    name: text('name').notNull().default(''),
    url: text('url').notNull(),
    /** webhook: HMAC signing secret; ntfy: optional access token (shown to the owner once / masked) */
    secret: text('secret'),
    /** ntfy: {priority, tags} */
    options: text('options', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    lastResult: text('last_result'),
    lastResultAt: ms('last_result_at'),
  },
  (t) => [index('notify_endpoints_user').on(t.userId)],
)

/**
 * A user's secret feed address (src/feeds/keys.ts): the URL's secret is HMAC(SESSION_SECRET, "feed:<user>:<nonce>"),
 * so the database alone (nonce, and the secret's SHA-256 to look it up) never yields a working URL. Rotating
 * draws a new nonce: the old URL is not found at once.
 */
export const feedKeys = sqliteTable('feed_keys', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  nonce: text('nonce').notNull(),
  secretHash: text('secret_hash').notNull().unique(),
  createdAt: createdAt(),
})

export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSuccessAt: ms('last_success_at'),
  },
  (t) => [index('push_subscriptions_user').on(t.userId)],
)

/** Durable outbound queue for every email and push (spec email_sending_queue). */
export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel').notNull(), // email | push | webhook | ntfy | discord
    kind: text('kind').notNull(), // match | digest | confirm | reset | trial_ending | trial_ended | contact_form | …
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** idempotency: e.g. "match:42:email"; a second enqueue with the same key is ignored */
    dedupeKey: text('dedupe_key').unique(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** written only by src/outbox/store.ts, one function per transition (src/outbox/status.ts) */
    status: text('status').$type<OutboxStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at')
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: ms('sent_at'),
  },
  (t) => [index('outbox_status_due').on(t.status, t.nextAttemptAt), index('outbox_user').on(t.userId)],
)

export const systemSettings = sqliteTable('system_settings', {
  name: text('name').primaryKey(), // is_emergency_paused | is_maintenance_mode_active | …
  value: text('value', { mode: 'json' }).$type<{ active: boolean; [k: string]: unknown }>().notNull(),
  description: text('description'),
  updatedAt: ms('updated_at'),
})

export const maintenanceLogs = sqliteTable(
  'maintenance_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobName: text('job_name').notNull(),
    status: text('status').notNull(), // success | failed | skipped
    executedAt: createdAt(),
    durationMs: integer('duration_ms').notNull().default(0),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [index('maintenance_logs_job_status_time').on(t.jobName, t.status, t.executedAt), index('maintenance_logs_time').on(t.executedAt)],
)

export const scanMetrics = sqliteTable(
  'scan_metrics',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    createdAt: createdAt(),
    scanType: text('scan_type').notNull(), // live | catch-up | manual | demo
    status: text('status').notNull().default('success'),
    postsFetched: integer('posts_fetched').notNull().default(0),
    postsNew: integer('posts_new').notNull().default(0),
    usersProcessed: integer('users_processed').notNull().default(0),
    matchesFound: integer('matches_found').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    durationMs: integer('duration_ms').notNull().default(0),
    error: text('error'),
  },
  (t) => [index('scan_metrics_time').on(t.createdAt)],
)

/** Small named values, e.g. id 'next_reddit_scrape' → { at: ISO time }. */
export const metrics = sqliteTable('metrics', {
  id: text('id').primaryKey(),
  value: text('value', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  updatedAt: ms('updated_at'),
})

export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
    /** resolved in the admin Feedback inbox */
    handledAt: ms('handled_at'),
    readAt: ms('read_at'),
    repliedAt: ms('replied_at'),
    /** the admin's last reply, as sent by email */
    reply: text('reply'),
  },
  (t) => [index('contact_messages_time').on(t.createdAt)],
)

export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(), // Stripe event id
  type: text('type').notNull(),
  processedAt: createdAt(),
})

/** Every state-changing admin action (pages, CLI, billing webhooks): who, what, on what, when, result. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: createdAt(),
    /** the acting account, null for the CLI, Stripe and the system */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** admin email, 'cli', 'stripe' or 'system' */
    actor: text('actor').notNull(),
    /** dotted verb, e.g. 'settings.emergency_pause', 'user.ban', 'billing.subscription' */
    action: text('action').notNull(),
    /** what it acted on, e.g. 'user:12' or a setting name */
    target: text('target'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** ok | failed */
    result: text('result').notNull().default('ok'),
  },
  (t) => [index('audit_log_time').on(t.at), index('audit_log_action_time').on(t.action, t.at)],
)

/** Every write to user_access, kept for revenue and trial statistics (trials started/converted/expired, churn). */
export const accessHistory = sqliteTable(
  'access_history',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: createdAt(),
    role: text('role').notNull(),
    subscriptionStatus: text('subscription_status'),
    accessExpiresAt: ms('access_expires_at'),
    /** signup | stripe | admin | cli | system */
    source: text('source').notNull(),
  },
  (t) => [index('access_history_time').on(t.at), index('access_history_user').on(t.userId, t.at)],
)

/**
 * One row per alert (a live match that notifies): the times of its path, ms since the epoch, null
 * until that step happens (src/metrics/README.md). Pruned after 30 days.
 */
export const alertLatency = sqliteTable(
  'alert_latency',
  {
    matchId: integer('match_id').primaryKey(),
    userId: integer('user_id').notNull(),
    postId: integer('post_id'),
    createdAt: integer('created_at'), // the post's Reddit time (created_utc)
    receivedAt: integer('received_at'), // the scan's fetch returned the listing
    storedAt: integer('stored_at'), // the post row committed
    matchedAt: integer('matched_at').notNull(), // the match row written
    socketAt: integer('socket_at'), // the hub published match.new to an open socket of the user
    pushAt: integer('push_at'), // the push service answered 2xx
    emailAt: integer('email_at'), // the SMTP server accepted the message
    claimedAt: integer('claimed_at'), // the user first opened or claimed the alert (once)
    claimChannel: text('claim_channel'), // where: app | push | email | webhook | … (src/notify/alert-links.ts)
    claimAction: text('claim_action'), // open | claim
  },
  (t) => [index('alert_latency_matched').on(t.matchedAt)],
)

/**
 * Coverage gaps (src/scanner/gaps.ts): a poll whose oldest post was newer than the newest post already stored
 * from the same source may have missed posts in between. One row per gap: which source and subreddits, and the
 * window (ms since the epoch) in which Dibs was not reading them. Pruned after 30 days.
 */
export const sourceGaps = sqliteTable(
  'source_gaps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    source: text('source').notNull(), // the source's name, e.g. 'reddit'
    forum: text('forum').notNull(), // product | gd
    subreddits: text('subreddits').notNull(), // 'hardwareswap' or 'a+b': what was not read
    fromAt: ms('from_at').notNull(), // the newest post stored before the gap
    toAt: ms('to_at').notNull(), // the oldest post of the poll that found it
    createdAt: createdAt(), // when the poll found it
  },
  (t) => [index('source_gaps_to').on(t.toAt)],
)

/**
 * Reddit accounts as /user/<name>/about told them (src/forums/authors.ts): one cached look-up per author, on the
 * re-check's budget share, for seller trust (account age, karma) in alerts and the `age>=` / `karma>=` filters.
 */
export const redditAuthors = sqliteTable('reddit_authors', {
  /** lowercased name */
  name: text('name').primaryKey(),
  /** found | missing (deleted, suspended or never existed) */
  status: text('status').notNull(),
  /** the account's creation time (created_utc), ms */
  accountCreatedAt: integer('account_created_at'),
  /** link + comment karma */
  karma: integer('karma'),
  fetchedAt: ms('fetched_at').notNull(),
})

/** Sellers the admin never alerts on (src/forums/blocked-sellers.ts; Admin → Alerts): matched posts by them are dropped. */
export const blockedSellers = sqliteTable('blocked_sellers', {
  /** lowercased name, as posts.author */
  name: text('name').primaryKey(),
  reason: text('reason').notNull().default(''),
  createdBy: integer('created_by'),
  createdAt: createdAt(),
})

export type User = typeof users.$inferSelect
export type Post = typeof posts.$inferSelect
export type Match = typeof matches.$inferSelect
export type SearchTerm = typeof searchTerms.$inferSelect
export type OutboxRow = typeof outbox.$inferSelect

/**
 * Where each forum's posts come from (issue 25): a subreddit list read over Reddit (kind reddit), any RSS/Atom/JSON
 * feed (kind feed), or posts pushed to POST /api/ingest/<id> (kind push). Seeded from the environment on first
 * start, managed on Admin → Logs and by `dibs sources`. Owned by src/sources/store.ts.
 */
export const sources = sqliteTable('sources', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** accessories | deals: the spec forum the source feeds */
  forum: text('forum').notNull(),
  /** reddit | feed | push */
  kind: text('kind').notNull(),
  /** the label shown on match cards and the live feed */
  name: text('name').notNull(),
  /** feed: the feed URL */
  url: text('url'),
  /** reddit: subreddit names, comma-separated */
  subreddits: text('subreddits'),
  /** the preset it was made from (src/sources/presets.json), or null */
  preset: text('preset'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  /** push: the HMAC key its pushes are signed with (shown once, rotatable) */
  secret: text('secret'),
  /** feed: the last answer's validators, sent back as If-None-Match / If-Modified-Since */
  etag: text('etag'),
  lastModified: text('last_modified'),
  /** health: the last fetch (or push), the last success, the last error in words, failures in a row, posts the last success brought */
  lastPolledAt: ms('last_polled_at'),
  lastOkAt: ms('last_ok_at'),
  lastError: text('last_error'),
  failures: integer('failures').notNull().default(0),
  lastPosts: integer('last_posts'),
  createdAt: createdAt(),
  updatedAt: ms('updated_at'),
})

export type Source = typeof sources.$inferSelect
