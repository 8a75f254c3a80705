// Routes of saved search terms (DESIGN "HTTP routes"). Thin: the service holds the rules.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import type { WithMatcher } from '../matches/matcher'
import { hasRedditKey } from '../forums/key-only'
import { TERM_EMAIL } from '../notify/delivery'
import { updateTermDelivery } from './delivery'
import { addTerm, clearTerms, listTerms, removeTerm, termItem, updateTerm, type TermRow } from './service'

const category = t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])
const tags = ['terms']

export const termRoutes = (deps: Deps & WithMatcher) =>
  new Elysia({ name: 'terms' })
    .use(authPlugin(deps))
    .get('/api/terms', ({ user, access, query }) => listTerms(deps, user.id, access, query.category), {
      auth: true,
      query: t.Object({ category }),
      detail: { summary: 'Saved terms of a category, oldest first, with the role limit', tags },
    })
    .post(
      '/api/terms',
      ({ user, access, body, set }) => {
        set.status = 201
        return addTerm(deps, user.id, access, body.category, body.term)
      },
      {
        auth: true,
        body: t.Object({ category, term: t.String({ maxLength: 1000 }) }),
        detail: {
          summary: 'Save a term (lowercased, trimmed); matches the last 7 days of posts at once (read, never notified)',
          description:
            "Errors carry the toast title: 403 TERM_LIMIT 'Maximum terms reached', 409 TERM_EXISTS 'Term already exists', 400 INVALID_TERM 'Invalid search term' (message: the parse error), 403 FORUM_NOT_IN_PLAN. Without a Reddit key a `flair:` or `trades>=` term is saved and `term.note` says why it cannot match on this installation (null otherwise).",
          tags,
        },
      },
    )
    .patch('/api/terms/:id', ({ user, access, params, body }) => updateTerm(deps, user.id, access, params.id, body), {
      auth: true,
      params: t.Object({ id: t.Integer({ minimum: 1 }) }),
      body: t.Object({ term: t.Optional(t.String({ maxLength: 1000 })), paused: t.Optional(t.Boolean()) }),
      detail: {
        summary: 'Edit a term in place {term} and/or pause or resume it {paused}; its matches stay ({term, backfilled})',
        description: "Same errors as saving: 400 INVALID_TERM, 409 TERM_EXISTS; 404 TERM_NOT_FOUND for another user's term.",
        tags,
      },
    })
    .patch(
      '/api/terms/:id/delivery',
      ({ user, params, body }) => ({ term: termItem(updateTermDelivery<TermRow>(deps, user.id, params.id, body), hasRedditKey(deps.config)) }),
      {
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        body: t.Object({
          email: t.Optional(t.Union(TERM_EMAIL.map((e) => t.Literal(e)))),
          push: t.Optional(t.Boolean()),
          endpoints: t.Optional(t.Record(t.String({ pattern: '^[0-9]+$' }), t.Boolean())),
          mute: t.Optional(t.Nullable(t.Union([t.Literal('1h'), t.Literal('8h'), t.Literal('24h'), t.Literal('forever')]))),
          always_notify: t.Optional(t.Boolean()),
          important: t.Optional(t.Boolean()),
        }),
        detail: {
          summary:
            "A term's delivery: email default/instant/digest/off, push on/off, each external channel on/off, mute (1h/8h/24h/forever, null unmutes), always notify, important (reaches channels set to 'important')",
          description:
            'Answers {term} with delivery, mutedUntil (ISO, "forever" or null) and alwaysNotify. 404 TERM_NOT_FOUND; 400 CHANNEL_NOT_FOUND for a channel id not yours.',
          tags,
        },
      },
    )
    .delete('/api/terms/:id', ({ user, params }) => removeTerm(deps, user.id, params.id), {
      auth: true,
      params: t.Object({ id: t.Integer({ minimum: 1 }) }),
      detail: { summary: 'Remove a term and its matches', tags },
    })
    .delete('/api/terms', ({ user, query }) => clearTerms(deps, user.id, query.category), {
      auth: true,
      query: t.Object({ category }),
      detail: { summary: 'Remove every term of a category and their matches', tags },
    })
