// Reddit listing JSON → ForumPost. Pure: no I/O, no clock.
//
// A listing is `{kind: "Listing", data: {after, before, dist, modhash, children: [{kind, data}]}}`.
// We request with raw_json=1, so selftext/title carry plain characters, not HTML entities.
// Order of checks: the envelope must be a Listing (else the whole body is rejected — Reddit
// answered with something else, e.g. an HTML error page or a changed format); each child that
// is not a t3 (link/post) is skipped; a t3 missing an identifying field (id, title, subreddit,
// created_utc) is skipped and counted, so one odd post never blocks a scan.
import { httpUrl } from '../lib/urls'

export type ForumPost = {
  /** base-36 id without the kind prefix, e.g. "1abcd2" */
  redditId: string
  /** fullname, e.g. "t3_1abcd2" — what `after` takes */
  name: string
  title: string
  /** https://www.reddit.com + permalink (the discussion page) */
  url: string
  /** data.url: the shop link for deals, the post itself for self posts */
  linkUrl: string
  /** selftext, '' for link posts */
  content: string
  author: string
  /** the real subreddit name as Reddit spells it, e.g. "GunAccessoriesForSale" */
  subreddit: string
  flair: string | null
  /** the author's user flair (`author_flair_text`), e.g. "Trades: 12" on forums that count trades */
  authorFlair?: string | null
  createdAt: Date
  /** the spec forum the post belongs to, when its source says so (feeds, pushes, a subreddit of a reddit source) */
  forum?: 'product' | 'gd'
  /** the source it came from (sources.id) and that source's name */
  sourceId?: number
  sourceName?: string
}

/** Anything that yields forum posts the way RedditClient does (the demo source too). */
export type ForumSource = {
  /** one page, newest first */
  fetchNew(opts?: { after?: string; limit?: number }): Promise<FetchNewResult>
  /** everything newer than the newest known post, oldest first */
  fetchSince(isKnown: IsKnown, opts?: { maxPages?: number }): Promise<FetchSinceResult>
}
/** Whether a post is stored already (src/forums/store.ts knownPosts reads the database for it). */
export type IsKnown = (redditId: string) => boolean | Promise<boolean>
export type FetchNewResult = { posts: ForumPost[]; after: string | null }
export type FetchSinceResult = {
  posts: ForumPost[]
  pages: number
  reachedKnown: boolean
  /** posts already stored that the last page showed again, as they read now (a feed's later polls re-read them) */
  known?: ForumPost[]
}

export type ParsedListing = {
  /** newest first, as Reddit orders /new */
  posts: ForumPost[]
  after: string | null
  before: string | null
  /** t3 children dropped for missing identifying fields */
  skipped: number
}

export class MalformedListingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MalformedListingError'
  }
}

export const REDDIT_WEB = 'https://www.reddit.com'

const ID = /^[a-z0-9]{1,16}$/

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function optString(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

/** Parses a listing body (already JSON-decoded). Throws MalformedListingError on a bad envelope. */
export function parseListing(body: unknown): ParsedListing {
  if (!isObject(body)) throw new MalformedListingError('listing body is not an object')
  if (body.kind !== 'Listing') throw new MalformedListingError(`expected kind "Listing", got ${JSON.stringify(body.kind)}`)
  const data = body.data
  if (!isObject(data)) throw new MalformedListingError('listing has no data object')
  if (!Array.isArray(data.children)) throw new MalformedListingError('listing data has no children array')
  if (data.after !== null && data.after !== undefined && typeof data.after !== 'string')
    throw new MalformedListingError('listing after is neither a string nor null')

  const posts: ForumPost[] = []
  let skipped = 0
  for (const child of data.children) {
    if (!isObject(child) || child.kind !== 't3') continue
    const post = toForumPost(child.data)
    if (post === null) skipped++
    else posts.push(post)
  }
  return { posts, after: optString(data.after) || null, before: optString(data.before) || null, skipped }
}

/** Parses a raw response text; JSON errors become MalformedListingError. */
export function parseListingText(text: string): ParsedListing {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new MalformedListingError(`listing is not JSON (starts with ${JSON.stringify(text.slice(0, 40))})`)
  }
  return parseListing(body)
}

/**
 * Reddit sends some links relative to itself: a crosspost's `url` is the original's permalink
 * ("/r/hardwareswap/comments/…"). Those become https://www.reddit.com/…; "//host/…" and absolute
 * URLs pass through unchanged (httpUrl then keeps only http(s)).
 */
export function absoluteRedditUrl(url: string | null): string | null {
  if (url === null) return null
  const u = url.trim()
  return u.startsWith('/') && !u.startsWith('//') ? REDDIT_WEB + u : u
}

/** One t3 `data` object → ForumPost, or null when it lacks an identifying field. */
export function toForumPost(d: unknown): ForumPost | null {
  if (!isObject(d)) return null
  const id = optString(d.id)
  const title = optString(d.title)
  const subreddit = optString(d.subreddit)
  const created = typeof d.created_utc === 'number' ? d.created_utc : Number.NaN
  if (id === null || !ID.test(id) || title === null || subreddit === null || !Number.isFinite(created) || created <= 0) return null

  const permalink = optString(d.permalink)
  const url = permalink?.startsWith('/') ? REDDIT_WEB + permalink : `${REDDIT_WEB}/r/${subreddit}/comments/${id}/`
  const flair = optString(d.link_flair_text)?.trim() || null
  const authorFlair = optString(d.author_flair_text)?.trim() || null
  return {
    redditId: id,
    name: `t3_${id}`,
    title: title.trim(),
    url,
    linkUrl: httpUrl(absoluteRedditUrl(optString(d.url))) ?? url,
    content: optString(d.selftext) ?? '',
    author: optString(d.author) ?? '[deleted]',
    subreddit,
    flair,
    authorFlair,
    createdAt: new Date(Math.round(created * 1000)),
  }
}
