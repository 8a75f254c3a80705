// The one event contract of Dibs: what the bus carries between capabilities (BusEvents) and what a
// WebSocket client receives (SocketMessages, DESIGN.md "/api/ws"). Pure types plus the list of
// names, so the UI imports it type-only and the server builds everything else from it.
//
// A socket message is the bus event minus its routing fields: `userId` is implied by the
// `user:<id>` topic and `notify` is the notifier's business (src/realtime/hub.ts).
import type { Category } from '../access/categories'
import type { PriceDrop, PricePoint } from '../forums/price-history'

/** A listing's state (src/forums/post-state.ts detects it): open, pending, sold or removed. */
export type PostState = 'open' | 'pending' | 'sold' | 'removed'

export type UnreadCounts = Record<Category, number>
export type MatchChange = 'read' | 'unread' | 'archived' | 'restored' | 'removed'

/** The seller's trust as alerts show it (src/forums/seller.ts builds it). */
export type SellerTrust = {
  /** confirmed trades from the author's flair; null when the flair shows none */
  trades: number | null
  /** the account's age in whole days when the post was made; null when not looked up (no OAuth, not yet, gone) */
  ageDays: number | null
  /** link + comment karma; null when not looked up */
  karma: number | null
}

/** A match as lists, sockets and the notifier see it (one per user and post). */
export type MatchItem = {
  id: number
  postId: number | null
  title: string
  url: string
  /** the deal's outbound link (gd posts), when the post has one */
  linkUrl: string | null
  author: string
  /** match time (ISO) */
  createdAt: string
  postCreatedAt: string | null
  matchedTerms: string[]
  isNew: boolean
  category: Category
  source: string
  archivedAt: string | null
  /** the post's listing state: open | pending | sold | removed (re-checked for 48 h) */
  state: PostState
  /** the post is a repost (bump) of an earlier listing by its author: when it was first posted, and every post time, oldest first */
  repost?: { firstSeenAt: string; postedAt: string[] } | null
  /** the listing's title prices, each change once, oldest first (empty when its posts name no price) */
  priceHistory?: PricePoint[]
  /** this match alerted as a price drop ('Price drop: $<from> → $<to>'): it replaced the user's match on an earlier post of the listing */
  priceDrop?: PriceDrop | null
  /** the title cut into parts, `hit` on the words the matched terms look for (src/matching/highlight.ts, read on the server
   *  as the matcher reads the title: aliases, categories, accessory-for mentions); absent → show the title plain */
  titleParts?: { text: string; hit: boolean }[]
  /** where the seller is, the title's location tag as written ("USA-TX", "San Juan, PR"); null when it names none */
  location?: string | null
  /** the name of the source the post came from (Admin → Logs → Sources); null for posts from before sources */
  sourceName?: string | null
  /** the kind of that source (the claim link depends on it: src/notify/claim.ts); null for posts from before sources */
  sourceKind?: 'reddit' | 'feed' | 'push' | null
  /** the listing price in dollars (posts.price), null when it names none */
  price?: number | null
  /** the seller's trust: confirmed trades (flair), account age and karma (Reddit OAuth look-up); src/forums/seller.ts */
  seller?: SellerTrust | null
  /** post → the user's first open or claim of this alert, ms; null until then (or not a live alert) */
  claimedAfterMs?: number | null
}

/** The public shape of a stored post (live feed, `post.new`). */
export type FeedItem = {
  id: number
  redditId: string
  title: string
  url: string
  linkUrl: string | null
  content: string
  author: string
  subreddit: string
  forum: string
  postType: Category | null
  createdAt: string
  /** open | pending | sold | removed */
  state: PostState
  /** the title's location tag as written ("USA-TX", "UK"); null when it names none */
  location: string | null
  /** the name of the source the post came from (Admin → Logs → Sources); null for posts from before sources */
  source: string | null
}

/** A stored post's listing state or price changed (src/forums/recheck.ts). */
export type PostUpdate = {
  postId: number
  redditId: string
  state: PostState
  /** when the state last changed (ISO), null while it never did */
  stateChangedAt: string | null
  /** the listing price in dollars after the change (an edited price), null when none */
  price: number | null
}

/** One scan as the admin topic sees it (a scan_metrics row). */
export type ScanMetric = {
  id: number
  createdAt: string
  scanType: string
  status: string
  postsFetched: number
  postsNew: number
  usersProcessed: number
  matchesFound: number
  requests: number
  durationMs: number
  error: string | null
}

export type SettingName = 'is_emergency_paused' | 'is_maintenance_mode_active'

/** Events that reach WebSocket clients (and are relayed from CLI processes to a running server). */
export type SocketEvents = {
  'post.new': { post: FeedItem }
  'match.new': { userId: number; match: MatchItem; notify: boolean }
  'match.updated': { userId: number; ids: number[]; change: MatchChange }
  unread: { userId: number; counts: UnreadCounts }
  'access.changed': { userId: number }
  'settings.changed': { name: SettingName; active: boolean }
  'scan.metric': { metric: ScanMetric }
  'scan.next': { at: string }
  /** routed to the public feed and to each user with a match on the post; userIds never reach a socket */
  'post.updated': { post: PostUpdate; userIds: number[] }
}
export type SocketEventName = keyof SocketEvents

/** Every socket event, in the order of DESIGN.md. */
export const SOCKET_EVENTS: readonly SocketEventName[] = [
  'post.new',
  'match.new',
  'match.updated',
  'unread',
  'access.changed',
  'settings.changed',
  'scan.metric',
  'scan.next',
  'post.updated',
]

/** Everything the bus carries: the socket events plus the process-internal ones. */
export type BusEvents = SocketEvents & {
  /** a row entered the outbox: the outbox worker delivers it now rather than on its next tick */
  'outbox.queued': { channel: string }
  /** sessions or access tokens of a user ended (sign-out, password change or reset, ban, deletion, token revoked): their sockets close */
  'sessions.revoked': { userId: number }
}
export type BusEventName = keyof BusEvents

/** Events a CLI process relays to a running server (src/realtime/relay.ts): the socket events and revocations. */
export const RELAYED_EVENTS: readonly BusEventName[] = [...SOCKET_EVENTS, 'sessions.revoked']

/** Close code and reason of a socket whose session ended; the client signs that tab out. */
export const SESSION_REVOKED_CLOSE = { code: 4401, reason: 'session revoked' } as const

/** Close code and reason of a socket this node may have missed events for (another node's, while the fan-out was reconnecting): the client reconnects and refetches. */
export const RESYNC_CLOSE = { code: 1012, reason: 'missed events: reconnect' } as const

/** Close code and reason of a socket opened with a personal access token that was revoked or expired. */
export const TOKEN_REVOKED_CLOSE = { code: 4401, reason: 'token revoked or expired' } as const

/** A bus event as a socket receives it: without the routing fields. */
export type SocketPayload<K extends SocketEventName> = Omit<SocketEvents[K], 'userId' | 'notify' | 'userIds'>

/** Server → client messages on /api/ws, `{type, data}`. */
export type SocketMessages = { [K in SocketEventName]: SocketPayload<K> } & {
  hello: { userId: number | null; admin: boolean }
  pong: null
}
