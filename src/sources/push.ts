// Pushed posts (issue 25 §3), the pure part: the source's secret, the signature and the batch. The route is
// src/scanner/ingest-route.ts (`POST /api/ingest/<source id>`); a push source's secret is kept in its sources row,
// shown once and rotatable (src/sources/store.ts).
//
// Signature, Stripe's scheme: `X-Dibs-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
// (lib/signature.ts). Several v1 values may be sent and any one may match any of the source's secrets, so
// a client can sign with the old and the new secret while one is rotated. The check runs in Stripe's
// order: the header's shape, then the signature (constant-time), then the 5-minute window both ways —
// so a stale or future timestamp is only reported for a request the secret really signed.
//
// Batch: `{"posts": [{id, title, url, author, created_utc, body?, flair?}]}`, at most 1 MB and 100 posts
// (413 beyond either), every field checked in that order and the first bad one named (400). Unknown
// fields are ignored (a client may send more than Dibs reads). A post id seen twice in one batch keeps its
// first occurrence, as the route keeps the first version it stored.
import { randomToken, safeEqual } from '../lib/tokens'
import { timestampedHmacHex } from '../lib/signature'
import type { ForumPost } from '../forums/listing'

export const PUSH_SECRET_PREFIX = 'dps_'
export const SIGNATURE_HEADER = 'X-Dibs-Signature'
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60
export const MAX_BATCH_BYTES = 1024 * 1024
export const MAX_BATCH_POSTS = 100
export const MAX_FUTURE_SECONDS = 10 * 60
export const LIMITS = { id: 64, title: 300, url: 2048, author: 64, body: 40_000, flair: 64 } as const

/** 32 random bytes (256 bits), base64url, behind a prefix that says what it is when it leaks into a log. */
export function newPushSecret(): string {
  return PUSH_SECRET_PREFIX + randomToken(32)
}

/** The header value a client sends; `t` in unix seconds. */
export function signPush(secret: string, body: string | Uint8Array, t: number): string {
  return `t=${t},v1=${timestampedHmacHex(secret, t, body)}`
}

export type SignatureError = { ok: false; error: 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch'; message: string }
export type SignatureCheck = { ok: true; t: number } | SignatureError

const fail = (error: SignatureError['error'], message: string): SignatureError => ({ ok: false, error, message })

/** `secrets`: the current secret, and the previous one while a rotation is under way. Empty ones never match. */
export function verifyPushSignature(
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  secrets: string | readonly string[],
  now: Date,
): SignatureCheck {
  if (header === null || header === undefined || header.trim() === '') return fail('missing', `Missing ${SIGNATURE_HEADER} header.`)
  let t: number | null = null
  const v1: string[] = []
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === 't') t = /^\d{1,12}$/.test(value) ? Number(value) : null
    else if (key === 'v1') v1.push(value.toLowerCase())
  }
  if (t === null || v1.length === 0) return fail('malformed', `${SIGNATURE_HEADER} must read t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">.`)
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).filter((s) => s !== '')
  const expected = keys.map((s) => timestampedHmacHex(s, t, rawBody))
  // Every pair is compared, no early exit: the time taken says nothing about which one matched.
  let matched = false
  for (const e of expected) for (const got of v1) matched = safeEqual(e, got) || matched
  if (!matched) return fail('mismatch', `${SIGNATURE_HEADER} does not match the body signed with this source's secret.`)
  const skew = Math.floor(now.getTime() / 1000) - t
  if (skew > SIGNATURE_TOLERANCE_SECONDS) return fail('stale', `${SIGNATURE_HEADER} timestamp is more than 5 minutes old; sign each request when sending it.`)
  if (skew < -SIGNATURE_TOLERANCE_SECONDS)
    return fail('future', `${SIGNATURE_HEADER} timestamp is more than 5 minutes in the future; check the sender's clock.`)
  return { ok: true, t }
}

/** A pushed post in ForumPost's terms: `url` the post's page, `content` its body ('' when none). */
export type PushedPost = Pick<ForumPost, 'title' | 'url' | 'author' | 'content' | 'flair' | 'createdAt'> & { id: string }
export type BatchError = { status: 400 | 413; field: string; message: string }
/** `received`: the posts the batch held, an id sent twice counted twice (the answer's duplicates count them). */
export type BatchResult = { posts: PushedPost[]; received: number } | BatchError

const ID = /^[A-Za-z0-9_-]{1,64}$/
const chars = (s: string) => Array.from(s).length
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const bad = (field: string, problem: string): BatchError => ({ status: 400, field, message: `${field} ${problem}` })

class FieldError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field} ${problem}`)
  }
}

function text(o: Record<string, unknown>, at: string, key: string, min: number, max: number): string {
  const v = o[key]
  if (typeof v !== 'string') throw new FieldError(`${at}.${key}`, min > 0 ? 'is required and must be a string.' : 'must be a string.')
  const s = min > 0 ? v.trim() : v
  if (chars(s) < min || chars(s) > max)
    throw new FieldError(`${at}.${key}`, min > 0 ? `must be ${min} to ${max} characters.` : `must be at most ${max} characters.`)
  return s
}

function optionalText(o: Record<string, unknown>, at: string, key: string, max: number): string | null {
  return o[key] === undefined || o[key] === null ? null : text(o, at, key, 0, max)
}

function postUrl(o: Record<string, unknown>, at: string): string {
  const raw = text(o, at, 'url', 1, LIMITS.url)
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new FieldError(`${at}.url`, 'must be an absolute http(s) URL.')
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.hostname === '') throw new FieldError(`${at}.url`, 'must be an http(s) URL.')
  return raw
}

function createdAt(o: Record<string, unknown>, at: string, now: Date): Date {
  const v = o.created_utc
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new FieldError(`${at}.created_utc`, 'is required: the post time in unix seconds.')
  if (v > now.getTime() / 1000 + MAX_FUTURE_SECONDS)
    throw new FieldError(`${at}.created_utc`, 'is more than 10 minutes in the future (unix seconds, not milliseconds).')
  return new Date(Math.round(v * 1000))
}

function post(v: unknown, at: string, now: Date): PushedPost {
  if (!isObject(v)) throw new FieldError(at, 'must be an object.')
  if (typeof v.id !== 'string' || !ID.test(v.id)) throw new FieldError(`${at}.id`, 'must be 1 to 64 letters, digits, "_" or "-".')
  return {
    id: v.id,
    title: text(v, at, 'title', 1, LIMITS.title),
    url: postUrl(v, at),
    author: text(v, at, 'author', 1, LIMITS.author),
    createdAt: createdAt(v, at, now),
    content: optionalText(v, at, 'body', LIMITS.body) ?? '',
    flair: optionalText(v, at, 'flair', LIMITS.flair) || null,
  }
}

export function parsePushBatch(rawBody: string | Uint8Array, now: Date): BatchResult {
  const size = typeof rawBody === 'string' ? Buffer.byteLength(rawBody) : rawBody.byteLength
  if (size > MAX_BATCH_BYTES)
    return { status: 413, field: 'request', message: `The request body is over 1 MB (${size} bytes); send at most ${MAX_BATCH_POSTS} posts per request.` }
  let json: unknown
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody))
  } catch {
    return { status: 400, field: 'request', message: 'The request body is not valid JSON.' }
  }
  if (!isObject(json) || !Array.isArray(json.posts)) return bad('posts', 'is required: {"posts": [...]}.')
  if (json.posts.length > MAX_BATCH_POSTS)
    return { status: 413, field: 'posts', message: `posts holds ${json.posts.length} posts; at most ${MAX_BATCH_POSTS} per request.` }
  if (json.posts.length === 0) return bad('posts', 'is empty.')
  const byId = new Map<string, PushedPost>()
  for (const [i, v] of json.posts.entries()) {
    try {
      const p = post(v, `posts[${i}]`, now)
      if (!byId.has(p.id)) byId.set(p.id, p)
    } catch (err) {
      if (err instanceof FieldError) return bad(err.field, err.problem)
      throw err
    }
  }
  return { posts: [...byId.values()], received: json.posts.length }
}
