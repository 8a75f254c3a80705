// Routes of the feeds of a user's matches (issue 28 §2). The signed-in user reads and rotates their
// addresses under /api/feeds; a feed reader polls /feeds/<secret>/matches.atom|json[?category=], where
// the secret in the path is the only credential (readers send no cookie or header).
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import { feedAddresses, feedResponse, rotateFeedAddresses } from './service'
import { errors, otherResponses } from '../lib/models'

const category = t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])
const tags = ['feeds']
const urls = t.Object({ atom: t.String(), json: t.String() })
const addresses = t.Object({ atom: t.String(), json: t.String(), categories: t.Object({ wts: urls, wtb: urls, gd: urls }) })
const feedParams = t.Object({ secret: t.String({ maxLength: 100 }) })
const feedQuery = t.Object({ category: t.Optional(category) })
const feedAnswers = (type: string) =>
  otherResponses(
    { 200: { description: 'the feed', type, headers: ['etag', 'last-modified'] }, 304: { description: 'not modified since the validators sent' } },
    400,
    404,
  )

export const feedRoutes = (deps: Deps) =>
  new Elysia({ name: 'feeds' })
    .use(authPlugin(deps))
    .get('/api/feeds', ({ user }) => feedAddresses(deps, user.id), {
      auth: true,
      response: { 200: addresses, ...errors(401) },
      detail: {
        summary: 'Your secret feed addresses: Atom and JSON Feed 1.1 of your matches, all categories and per category (?category=wts|wtb|gd)',
        description: 'Anyone with an address can read that feed: treat it like a password. POST /api/feeds/rotate replaces them.',
        tags,
      },
    })
    .post('/api/feeds/rotate', ({ user }) => rotateFeedAddresses(deps, user.id), {
      auth: true,
      response: { 200: addresses, ...errors(401) },
      detail: { summary: 'New feed addresses; the old ones answer 404 FEED_NOT_FOUND at once', tags },
    })
    .get('/feeds/:secret/matches.atom', ({ params, query, request }) => feedResponse(deps, params.secret, 'atom', query.category ?? null, request), {
      params: feedParams,
      query: feedQuery,
      detail: {
        security: [],
        summary: 'Atom 1.0 feed of your 50 newest matches (no session: the secret in the path is the credential)',
        description: 'ETag and Last-Modified; 304 on If-None-Match / If-Modified-Since. 404 FEED_NOT_FOUND for an unknown or rotated secret.',
        tags,
        responses: feedAnswers('application/atom+xml'),
      },
    })
    .get('/feeds/:secret/matches.json', ({ params, query, request }) => feedResponse(deps, params.secret, 'json', query.category ?? null, request), {
      params: feedParams,
      query: feedQuery,
      detail: {
        security: [],
        summary: 'JSON Feed 1.1 of your 50 newest matches (no session: the secret in the path is the credential)',
        description: 'Each item carries `_dibs: {category, matched_terms, price, source, matched_at}`. Validators and errors as the Atom feed.',
        tags,
        responses: feedAnswers('application/feed+json'),
      },
    })
