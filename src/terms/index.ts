// Routes of saved search terms (DESIGN "HTTP routes"). Thin: the service holds the rules.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import type { Deps } from '../deps'
import type { WithMatcher } from '../matches/matcher'
import { hasRedditKey } from '../forums/key-only'
import { TERM_EMAIL } from '../notify/delivery'
import { updateTermDelivery } from './delivery'
import { addTerm, clearTerms, listTerms, removeTerm, termItem, updateTerm, type TermRow } from './service'
import { exportTerms, importTerms } from './transfer'
import { CSV_COLUMNS, exportCsv, exportJson, importFormat, MAX_IMPORT_ROWS } from './transfer-format'
import {
  TermsDeleteResponse,
  TermsExportResponse,
  TermsGetResponse,
  TermsIdDeleteResponse,
  TermsIdDeliveryResponse,
  TermsImportResponse,
  TermsPostResponse,
} from './models'
import { errors, nullable } from '../lib/models'
import { oneOf } from '../lib/one-of'

const category = t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])
const tags = ['terms']
const yes = (v: string | undefined) => v === '1' || v === 'true'

export const termRoutes = (deps: Deps & WithMatcher) =>
  new Elysia({ name: 'terms' })
    .use(authPlugin(deps))
    .get('/api/terms', ({ user, access, query }) => listTerms(deps, user.id, access, query.category), {
      response: { 200: TermsGetResponse, ...errors(400, 401) },
      auth: true,
      query: t.Object({ category }),
      detail: { summary: 'Saved terms of a category, oldest first, with the role limit', tags },
    })
    .get(
      '/api/terms/export',
      async ({ user, query, set }) => {
        const terms = await exportTerms(deps, user.id)
        const day = deps.now().toISOString().slice(0, 10)
        const format = query.format ?? 'json'
        set.headers['content-disposition'] = `attachment; filename="${deps.config.appName.replace(/[^A-Za-z0-9_-]/g, '') || 'dibs'}-terms-${day}.${format}"`
        if (format === 'json') return exportJson(terms, deps.now())
        set.headers['content-type'] = 'text/csv; charset=utf-8; header=present'
        return exportCsv(terms)
      },
      {
        response: { 200: TermsExportResponse, ...errors(400, 401) },
        auth: true,
        query: t.Object({ format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv')])) }),
        detail: {
          summary: 'Every saved term of every category with its options, as a JSON or CSV download (format=json, the default, or csv)',
          description: `JSON: {format: "dibs-terms", version: 1, exportedAt, terms: [{category, term, paused, delivery: {email, push, endpoints}, mutedUntil, alwaysNotify, createdAt}]}. CSV (RFC 4180, header row): ${CSV_COLUMNS.join(',')}.`,
          tags,
        },
      },
    )
    .post(
      '/api/terms/import',
      ({ user, access, query, body, request }) =>
        importTerms(deps, user.id, access, { format: importFormat(query.format, request.headers.get('content-type'), body), body, dryRun: yes(query.dryRun) }),
      {
        response: { 200: TermsImportResponse, ...errors(400, 401) },
        auth: true,
        parse: 'text',
        body: t.String({ description: 'The JSON or CSV an export wrote (or any file of that shape)' }),
        query: t.Object({ dryRun: t.Optional(t.String()), format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv')])) }),
        detail: {
          summary: 'Import terms from JSON or CSV: ?dryRun=1 previews, the same request without it applies that in one transaction',
          description: `Answers {dryRun, format, rows: [{line, category, term, status: add|duplicate|refused, code, reason, note}], summary: {add, duplicate, refused}}. Refusals: UNKNOWN_CATEGORY, FORUM_NOT_IN_PLAN, INVALID_TERM (the parser's message), INVALID_OPTION, TERM_LIMIT (the plan's per-category limit); duplicates: TERM_EXISTS (already saved), REPEATED (earlier in the file). The format is ?format=, else the Content-Type, else sniffed. 400 BAD_IMPORT for a file that cannot be read (bad JSON or CSV, no category/term column, over ${MAX_IMPORT_ROWS} rows).`,
          tags,
        },
      },
    )
    .post(
      '/api/terms',
      ({ user, access, body, set }) => {
        set.status = 201
        return addTerm(deps, user.id, access, body.category, body.term)
      },
      {
        response: { 200: TermsPostResponse, ...errors(400, 401) },
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
      response: { 200: TermsPostResponse, ...errors(400, 401, 404) },
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
      async ({ user, params, body }) => ({ term: termItem(await updateTermDelivery<TermRow>(deps, user.id, params.id, body), hasRedditKey(deps.config)) }),
      {
        response: { 200: TermsIdDeliveryResponse, ...errors(400, 401, 404) },
        auth: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        body: t.Object({
          email: t.Optional(oneOf(TERM_EMAIL)),

          push: t.Optional(t.Boolean()),
          endpoints: t.Optional(t.Record(t.String({ pattern: '^[0-9]+$' }), t.Boolean())),
          mute: t.Optional(nullable(t.Union([t.Literal('1h'), t.Literal('8h'), t.Literal('24h'), t.Literal('forever')]))),
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
      response: { 200: TermsIdDeleteResponse, ...errors(400, 401, 404) },
      auth: true,
      params: t.Object({ id: t.Integer({ minimum: 1 }) }),
      detail: { summary: 'Remove a term and its matches', tags },
    })
    .delete('/api/terms', ({ user, query }) => clearTerms(deps, user.id, query.category), {
      response: { 200: TermsDeleteResponse, ...errors(400, 401) },
      auth: true,
      query: t.Object({ category }),
      detail: { summary: 'Remove every term of a category and their matches', tags },
    })
