// One read of a feed URL. In order: the URL is checked (checkPublicUrl: http(s), no credentials, and,
// unless ALLOW_PRIVATE_SOURCES=1, every address its name resolves to now must be public), one GET
// without following redirects (with If-None-Match / If-Modified-Since from the last read), and a
// redirect is followed by hand, at most 5 hops, each hop checked like the first (a public forum
// may redirect inward). 304 means nothing new. The body's bytes are read up to 5 MB (counted after fetch
// decodes gzip/deflate/br, so a compression bomb stops there too), then parsed (feed-parse.ts).
// One time cap covers the whole read: name lookups, redirects and the body included. Failures are FeedFetchError
// with a kind the caller can act on and a sentence an admin can read. Politeness (how often a host
// may be asked) is the caller's, with HostPoliteness; a 429's Retry-After comes back in the error.
import { checkPublicUrl, type Resolver } from '../lib/public-url'
import { readCappedBytes } from '../forums/reddit-client'
import { FeedFormatError } from '../forums/xml'
import { MAX_FEED_BYTES, NotAFeedError, parseFeed, type ParsedFeed } from './feed-parse'

export const FEED_TIMEOUT_MS = 20_000
export const MAX_REDIRECTS = 5
const USER_AGENT = 'Dibs feed reader (self-hosted)'

export type Validators = { etag: string | null; lastModified: string | null }

export type FeedFetchResult =
  { status: 'not_modified'; url: string; validators: Validators } | { status: 'ok'; url: string; validators: Validators; feed: ParsedFeed }

export type FeedFetchErrorKind =
  | 'refused' // the URL (or a redirect) is not allowed: scheme, credentials, private address
  | 'blocked' // 403 with a web page: bot protection
  | 'gone' // 404, 410
  | 'rate_limited' // 429
  | 'server' // 5xx
  | 'http' // any other status
  | 'redirects' // more than 5 hops, or a redirect without a Location
  | 'timeout'
  | 'network'
  | 'too_big'
  | 'not_a_feed'

export class FeedFetchError extends Error {
  constructor(
    readonly kind: FeedFetchErrorKind,
    message: string,
    readonly detail: { status?: number; retryAfterMs?: number; url?: string } = {},
  ) {
    super(message)
    this.name = 'FeedFetchError'
  }
}

export type FeedFetchOpts = {
  allowPrivate: boolean
  now: () => number
  resolve?: Resolver
  timeoutMs?: number
  validators?: Validators
  /** the HTTP client (tests put a public-looking host in front of the local fake) */
  fetch?: (url: string, init: RequestInit) => Promise<Response>
}

export async function fetchFeed(url: string, opts: FeedFetchOpts): Promise<FeedFetchResult> {
  const timeoutMs = opts.timeoutMs ?? FEED_TIMEOUT_MS
  const signal = AbortSignal.timeout(timeoutMs)
  let current = url
  try {
    for (let hop = 0; ; hop++) {
      const check = await untilAborted(checkPublicUrl(current, { allowPrivate: opts.allowPrivate, allowHttp: true, resolve: opts.resolve }), signal)
      if (!check.ok)
        throw new FeedFetchError('refused', hop === 0 ? check.reason : `The feed redirected to ${current}, which is refused: ${check.reason}`, { url: current })
      const res = await (opts.fetch ?? fetch)(check.url.href, { headers: requestHeaders(opts.validators), redirect: 'manual', signal })
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await res.body?.cancel().catch(() => {})
        const location = res.headers.get('location')
        if (!location) throw new FeedFetchError('redirects', `The feed answered ${res.status} without saying where to go`, { status: res.status })
        if (hop >= MAX_REDIRECTS)
          throw new FeedFetchError('redirects', `The feed redirected more than ${MAX_REDIRECTS} times; use the address it ends at`, { status: res.status })
        current = URL.parse(location, current)?.href ?? ''
        if (!current)
          throw new FeedFetchError('redirects', `The feed redirected to an address that is not a URL (${location.slice(0, 100)})`, { status: res.status })
        continue
      }
      const validators = { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') }
      if (res.status === 304) {
        await res.body?.cancel().catch(() => {})
        return { status: 'not_modified', url: current, validators: mergeValidators(opts.validators, validators) }
      }
      if (res.status !== 200) throw await statusError(res, opts.now())
      if (Number(res.headers.get('content-length') ?? 0) > MAX_FEED_BYTES) {
        await res.body?.cancel().catch(() => {})
        throw tooBig()
      }
      const body = await readCappedBytes(res, MAX_FEED_BYTES).catch((e: unknown) => {
        if (e instanceof FeedFormatError && /larger/.test(e.message)) throw tooBig()
        throw e
      })
      return { status: 'ok', url: current, validators, feed: parseFeed(body, { url: current, now: opts.now() }) }
    }
  } catch (e) {
    throw asFetchError(e, timeoutMs, signal)
  }
}

/** A name lookup that hangs must not outlast the time cap (fetch itself honours the signal). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

const tooBig = () => new FeedFetchError('too_big', `The feed is larger than ${MAX_FEED_BYTES / 1024 / 1024} MB`)

function requestHeaders(v: Validators | undefined): Record<string, string> {
  const h: Record<string, string> = {
    accept: 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': USER_AGENT,
  }
  if (v?.etag) h['if-none-match'] = v.etag
  if (v?.lastModified) h['if-modified-since'] = v.lastModified
  return h
}

/** A 304 may leave out the validators; the old ones then stay good. */
const mergeValidators = (old: Validators | undefined, got: Validators): Validators => ({
  etag: got.etag ?? old?.etag ?? null,
  lastModified: got.lastModified ?? old?.lastModified ?? null,
})

async function statusError(res: Response, now: number): Promise<FeedFetchError> {
  const status = res.status
  const html = /html/i.test(res.headers.get('content-type') ?? '')
  await res.body?.cancel().catch(() => {})
  if (status === 403 && html)
    return new FeedFetchError(
      'blocked',
      'The forum answered 403 with a web page: its bot protection blocks this server. Ask its admins to allow feed readers',
      { status },
    )
  if (status === 404 || status === 410)
    return new FeedFetchError(
      'gone',
      `The feed is gone (${status}): the board may have moved or been removed, or it is private. Check the address in a browser`,
      { status },
    )
  if (status === 429) {
    const retryAfterMs = retryAfterMsOf(res.headers.get('retry-after'), now)
    const wait = retryAfterMs === null ? '' : `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s`
    return new FeedFetchError('rate_limited', `The forum says too many requests (429)${wait}`, { status, ...(retryAfterMs === null ? {} : { retryAfterMs }) })
  }
  if (status >= 500) return new FeedFetchError('server', `The forum's server failed (${status}); Dibs will try again`, { status })
  return new FeedFetchError('http', `The feed answered ${status}`, { status })
}

/** Retry-After as seconds or as an HTTP date → ms from now; null when absent or unreadable. */
export function retryAfterMsOf(value: string | null, now: number): number | null {
  const v = value?.trim()
  if (!v) return null
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000)
  const at = Date.parse(v)
  return Number.isFinite(at) ? Math.max(0, at - now) : null
}

function asFetchError(e: unknown, timeoutMs: number, signal: AbortSignal): FeedFetchError {
  if (e instanceof FeedFetchError) return e
  if (signal.aborted || (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')))
    return new FeedFetchError('timeout', `The feed did not answer within ${Math.round(timeoutMs / 1000)} s`)
  if (e instanceof NotAFeedError) return new FeedFetchError(e.reason === 'too_big' ? 'too_big' : 'not_a_feed', e.message)
  if (e instanceof FeedFormatError) return new FeedFetchError('not_a_feed', `Not read: ${e.message}`)
  return new FeedFetchError('network', `The forum could not be reached: ${e instanceof Error ? e.message : String(e)}`)
}
