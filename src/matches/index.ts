// Routes of a subscriber's matches. Every call is scoped to the signed-in user.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import { getMatchDefaults, MAX_EXCLUDE_LENGTH, MAX_EXCLUDE_WORDS, SUGGESTED_EXCLUDE_WORDS, updateMatchDefaults } from './defaults'
import { actedOnMatch, archiveMatch, listMatches, markAllRead, markRead, markUnread, restoreMatch, unreadCounts } from './service'
import {
  MatchDefaultsResponse,
  MatchesIdActedResponse,
  MatchesIdArchiveResponse,
  MatchesIdReadResponse,
  MatchesIdRestoreResponse,
  MatchesIdUnreadResponse,
  CountResponse,
  MatchesResponse,
  UnreadResponse,
} from './models'
import { errors } from '../lib/models'

const category = t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])
const tags = ['matches']
const id = t.Object({ id: t.Integer({ minimum: 1 }) })

export const matchRoutes = (deps: Deps) =>
  new Elysia({ name: 'matches' })
    .use(authPlugin(deps))
    .get(
      '/api/matches',
      ({ user, query }) =>
        listMatches(deps, user.id, {
          category: query.category,
          archived: query.archived === '1' || query.archived === 'true',
          cursor: query.cursor,
          limit: query.limit,
          q: query.q,
        }),
      {
        response: { 200: MatchesResponse, ...errors(400, 401) },
        auth: true,
        query: t.Object({
          category,
          archived: t.Optional(t.String()),
          cursor: t.Optional(t.String({ maxLength: 40 })),
          limit: t.Optional(t.Integer({ minimum: 1, maximum: 200 })),
          q: t.Optional(t.String({ maxLength: 100 })),
        }),
        detail: {
          summary:
            'Matches of a category, newest first (archived=1: the archive, by archive time; q: words in the title, author or matched terms); {matches, nextCursor}',
          tags,
        },
      },
    )
    .post('/api/matches/read-all', ({ user, body }) => markAllRead(deps, user.id, body.category), {
      response: { 200: CountResponse, ...errors(400, 401) },
      auth: true,
      body: t.Object({ category }),
      detail: { summary: 'Mark every new match of a category as read; returns {count}', tags },
    })
    .post('/api/matches/:id/read', ({ user, params }) => markRead(deps, user.id, params.id), {
      response: { 200: MatchesIdReadResponse, ...errors(400, 401, 404) },
      auth: true,
      params: id,
      detail: { summary: 'Mark one match as read', tags },
    })
    .post('/api/matches/:id/acted', ({ user, params, body }) => actedOnMatch(deps, user.id, params.id, body.action), {
      response: { 200: MatchesIdActedResponse, ...errors(400, 401, 404) },
      auth: true,
      params: id,
      body: t.Object({ action: t.Union([t.Literal('claim'), t.Literal('open')]) }),
      detail: {
        summary: "The match card's Claim or Open was used: records the alert's first open or claim (time to claim, once) and marks it read; {id, recorded}",
        tags,
      },
    })
    .post('/api/matches/:id/unread', ({ user, params }) => markUnread(deps, user.id, params.id), {
      response: { 200: MatchesIdUnreadResponse, ...errors(400, 401, 404) },
      auth: true,
      params: id,
      detail: { summary: 'Mark one read match as new again (not for archived matches)', tags },
    })
    .post('/api/matches/:id/archive', ({ user, params }) => archiveMatch(deps, user.id, params.id), {
      response: { 200: MatchesIdArchiveResponse, ...errors(400, 401, 404) },
      auth: true,
      params: id,
      detail: { summary: 'Archive one match (it leaves the list and appears in the archive)', tags },
    })
    .post('/api/matches/:id/restore', ({ user, params }) => restoreMatch(deps, user.id, params.id), {
      response: { 200: MatchesIdRestoreResponse, ...errors(400, 401, 404) },
      auth: true,
      params: id,
      detail: { summary: 'Take one match out of the archive (back in its list, read)', tags },
    })
    .get('/api/unread', ({ user }) => unreadCounts(deps, user.id), {
      response: { 200: UnreadResponse, ...errors(401) },
      auth: true,
      detail: { summary: 'Unread (new, not archived) match counts per category', tags },
    })
    .get('/api/match-defaults', async ({ user }) => ({ ...(await getMatchDefaults(deps, user.id)), suggestions: [...SUGGESTED_EXCLUDE_WORDS] }), {
      response: { 200: MatchDefaultsResponse, ...errors(401) },
      auth: true,
      detail: {
        summary: 'Matching defaults applied to every term: {skipSold (default true), excludeWords (default []), suggestions}',
        tags,
      },
    })
    .put(
      '/api/match-defaults',
      async ({ user, body }) => ({ ...(await updateMatchDefaults(deps, user.id, body)), suggestions: [...SUGGESTED_EXCLUDE_WORDS] }),
      {
        response: { 200: MatchDefaultsResponse, ...errors(400, 401) },
        auth: true,
        body: t.Object({
          skipSold: t.Optional(t.Boolean()),
          // the service checks each entry and names the bad one; these bounds only cap the body
          excludeWords: t.Optional(t.Array(t.String({ maxLength: MAX_EXCLUDE_LENGTH * 4 }), { maxItems: MAX_EXCLUDE_WORDS * 4 })),
        }),
        detail: {
          summary: 'Change the matching defaults (partial); applies to posts matched from now on',
          description: `400 INVALID_DEFAULTS: more than ${MAX_EXCLUDE_WORDS} words, an entry over ${MAX_EXCLUDE_LENGTH} characters, without letters or digits, or with a search operator.`,
          tags,
        },
      },
    )
