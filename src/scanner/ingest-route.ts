// POST /api/ingest/<source id>: posts pushed by a moderator's Reddit app, a browser extension or an operator's
// script to a source of kind push (issue 25 §3). In order: the source must exist, be a push source and be enabled
// (404 / 403); at most 120 requests a minute per source (429); the body at most 1 MB (413); the signature
// `X-Dibs-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the source's secret, within
// 5 minutes (401); then the batch (src/sources/push.ts: at most 100 posts, 413; 400 naming the first bad field).
// Nothing is stored unless all of it passes. Posts are stored once by the source and their id (a post pushed again
// is a duplicate, not an error), matched at once and announced like a poll's (src/scanner/ingest.ts).
import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import type { ForumPost } from '../forums/listing'
import { AppError, notFound, tooMany } from '../lib/errors'
import { RateLimiter } from '../lib/rate-limit'
import type { WithMatcher } from '../matches/matcher'
import { MAX_BATCH_BYTES, parsePushBatch, SIGNATURE_HEADER, verifyPushSignature, type PushedPost } from '../sources/push'
import { getSource, postForum, recordPoll, type SourceRow } from '../sources/store'
import { ingestPosts } from './ingest'
import { IngestIdResponse } from './models'
import { errors } from '../lib/models'

/** Requests per minute one push source may send. */
export const PUSH_REQUESTS_PER_MINUTE = 120

/** A pushed post's id in `posts.reddit_id`: unique per source (`p<source id>_<id>`), so a post pushed twice is stored once. */
export const pushPostId = (sourceId: number, id: string) => `p${sourceId}_${id}`

export function pushedToPosts(s: Pick<SourceRow, 'id' | 'name' | 'forum'>, posts: PushedPost[]): ForumPost[] {
  return posts.map((p) => {
    const id = pushPostId(s.id, p.id)
    return {
      redditId: id,
      name: id,
      title: p.title,
      url: p.url,
      linkUrl: p.url,
      content: p.content,
      author: p.author,
      subreddit: s.name,
      flair: p.flair,
      createdAt: p.createdAt,
      forum: postForum(s.forum),
      sourceId: s.id,
      sourceName: s.name,
    }
  })
}

export const ingestRoutes = (deps: Deps & WithMatcher) => {
  const limiter = new RateLimiter(PUSH_REQUESTS_PER_MINUTE, 60_000, () => deps.now().getTime())
  return new Elysia({ name: 'ingest' }).post(
    '/api/ingest/:id',
    async ({ params, request, body, set }) => {
      const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0
      const source = id > 0 ? await getSource(deps, id) : null
      if (!source || source.kind !== 'push' || !source.secret) throw notFound('No push source has this id.', 'NO_SUCH_SOURCE')
      if (!source.enabled) throw new AppError(403, 'SOURCE_DISABLED', 'This push source is disabled: an admin can enable it on Admin → Logs.')
      const raw = typeof body === 'string' ? body : ''
      if (Buffer.byteLength(raw) > MAX_BATCH_BYTES)
        throw new AppError(413, 'PAYLOAD_TOO_LARGE', `The request body is over 1 MB; send at most 100 posts per request.`)
      const now = deps.now()
      const signed = verifyPushSignature(request.headers.get(SIGNATURE_HEADER), raw, source.secret, now)
      if (!signed.ok) throw new AppError(401, 'BAD_SIGNATURE', signed.message)
      // Only signed requests count: unsigned ones cannot use up the sender's allowance (a 256-bit secret is not guessed).
      const wait = limiter.hit(`push:${id}`)
      if (wait > 0) throw tooMany(`Too many pushes to this source: at most ${PUSH_REQUESTS_PER_MINUTE} requests a minute. Try again in ${wait} s.`, wait)
      const batch = parsePushBatch(raw, now)
      if ('status' in batch)
        throw new AppError(batch.status, batch.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_POST', batch.message, { field: batch.field })
      const posts = pushedToPosts(source, batch.posts)
      const ingested = await ingestPosts(deps, posts, now.getTime())
      await recordPoll(deps, source.id, { at: now.getTime(), ok: true, posts: ingested.stored.length })
      const storedIds = new Set(ingested.stored.map((p) => p.redditId))
      set.status = 200
      return {
        received: batch.received,
        stored: ingested.stored.length,
        duplicates: batch.received - ingested.stored.length,
        matches: ingested.matchesCreated,
        posts: batch.posts.map((p, i) => ({ id: p.id, stored: storedIds.has(posts[i]!.redditId) })),
      }
    },
    {
      response: { 200: IngestIdResponse, ...errors(404) },
      // The raw text, whatever the content type: the signature covers the exact bytes sent.
      parse: 'text',
      detail: {
        security: [],
        summary:
          'Push posts to a push source: {"posts": [{id, title, url, author, created_utc, body?, flair?}]} (at most 100, 1 MB), signed X-Dibs-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> with the source\'s secret',
        description:
          'Answers {received, stored, duplicates, matches, posts: [{id, stored}]}. 401 BAD_SIGNATURE (missing, wrong or older than 5 minutes), 413 over 1 MB or 100 posts, 400 INVALID_POST naming the first bad field (nothing stored), 404 no such push source, 403 disabled, 429 over 120 requests a minute. A post id pushed again, or twice in one batch, is a duplicate: stored once, counted in duplicates.',
        tags: ['sources'],
      },
    },
  )
}
