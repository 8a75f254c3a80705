// Feeds of a user's matches at a secret address (issue 28 §2). In order: the URL's secret names a user
// (else 404) → the newest matches of the category (or all) → the view → Atom or JSON Feed text → its
// ETag (the SHA-256 of the body) and Last-Modified (the newest entry) → 304 when the reader's
// If-None-Match has that ETag, or, without If-None-Match, its If-Modified-Since is not older
// (RFC 9110 §13.2.2 order). A feed reader polls with those validators and gets 304 until a new match.
import { createHash } from 'node:crypto'
import type { Category } from '../access/categories'
import { CATEGORIES } from '../access/categories'
import type { Deps } from '../deps'
import { notFound } from '../lib/errors'
import { feedMatches } from '../matches/feed'
import { atomFeed } from './atom'
import { jsonFeed } from './json-feed'
import { feedOwner, feedSecret, rotateFeedSecret } from './keys'
import { feedUrl, feedView, type FeedFormat } from './view'

export type FeedUrls = { atom: string; json: string }
export type FeedAddresses = FeedUrls & { categories: Record<Category, FeedUrls> }

function addresses(appUrl: string, secret: string): FeedAddresses {
  const pair = (c: Category | null): FeedUrls => ({ atom: feedUrl(appUrl, secret, 'atom', c), json: feedUrl(appUrl, secret, 'json', c) })
  return { ...pair(null), categories: Object.fromEntries(CATEGORIES.map((c) => [c, pair(c)])) as Record<Category, FeedUrls> }
}

/** GET /api/feeds: the user's feed addresses (the secret is made on first use). */
export const feedAddresses = async (deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: number) => addresses(deps.config.appUrl, await feedSecret(deps, userId))

/** POST /api/feeds/rotate: new addresses; the old ones answer 404 from now on. */
export const rotateFeedAddresses = async (deps: Pick<Deps, 'db' | 'config' | 'now'>, userId: number) =>
  addresses(deps.config.appUrl, await rotateFeedSecret(deps, userId))

const CONTENT_TYPE: Record<FeedFormat, string> = { atom: 'application/atom+xml; charset=utf-8', json: 'application/feed+json; charset=utf-8' }

export const FEED_NOT_FOUND = 'No such feed. Copy the current address from Settings → Account.'

/** The feed as an HTTP answer: 200 with the body, or 304 when the reader's copy is current. */
export async function feedResponse(
  deps: Pick<Deps, 'db' | 'sqlite' | 'config'>,
  secret: string,
  format: FeedFormat,
  category: Category | null,
  request: Pick<Request, 'headers'>,
): Promise<Response> {
  const owner = await feedOwner(deps, secret)
  if (owner === null) throw notFound(FEED_NOT_FOUND, 'FEED_NOT_FOUND')
  const view = feedView(deps.config, {
    userId: owner.userId,
    secret,
    category,
    matches: await feedMatches(deps, owner.userId, category),
    emptySince: new Date(owner.keyCreatedAt),
  })
  const body = format === 'atom' ? atomFeed(view) : JSON.stringify(jsonFeed(view))
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
  const lastModified = new Date(Math.floor(view.updated.getTime() / 1000) * 1000)
  const headers = {
    'content-type': CONTENT_TYPE[format],
    etag,
    'last-modified': lastModified.toUTCString(),
    // per user and secret: no shared cache keeps it; readers revalidate with the validators above
    'cache-control': 'private, no-cache',
    // the address is the credential: never sent on as a Referer, never indexed
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex',
  }
  return notModified(request.headers, etag, lastModified) ? new Response(null, { status: 304, headers }) : new Response(body, { headers })
}

function notModified(headers: Pick<Headers, 'get'>, etag: string, lastModified: Date): boolean {
  const inm = headers.get('if-none-match')
  if (inm !== null) return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
  const ims = headers.get('if-modified-since')
  if (ims === null) return false
  const since = Date.parse(ims)
  return Number.isFinite(since) && lastModified.getTime() <= since
}
