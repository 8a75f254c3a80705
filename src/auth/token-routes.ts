// /api/tokens: the signed-in user's personal access tokens (Settings → Account). Session only: a
// token cannot list, make or revoke tokens (./token-scopes.ts).
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps'
import { createToken, listTokens, MAX_EXPIRY_DAYS, MAX_TOKEN_NAME, revokeToken } from './access-tokens'
import { authPlugin } from './plugin'
import { TOKEN_REQUESTS_PER_MINUTE } from './token-gate'
import { TOKEN_SCOPES } from './token-scopes'
import { OkResponse } from './models'
import { errors, nullable } from '../lib/models'

const tags = ['tokens']
const scope = t.Union([t.Literal(TOKEN_SCOPES[0]), t.Literal(TOKEN_SCOPES[1])])
const view = t.Object({
  id: t.Integer(),
  name: t.String(),
  hint: t.String({ description: "the token's first characters, e.g. 'dibs_pat_Ab3d…'" }),
  scopes: t.Array(scope),
  createdAt: t.String(),
  expiresAt: nullable(t.String()),
  lastUsedAt: nullable(t.String()),
  expired: t.Boolean(),
})

export const tokenRoutes = (deps: Deps) =>
  new Elysia({ name: 'token-routes' })
    .use(authPlugin(deps))
    .get('/api/tokens', async ({ user }) => ({ tokens: await listTokens(deps, user.id) }), {
      auth: true,
      response: { 200: t.Object({ tokens: t.Array(view) }), ...errors(401, 403) },
      detail: { summary: 'Personal access tokens of the signed-in user (never the token itself), oldest first', tags },
    })
    .post(
      '/api/tokens',
      async ({ user, body, set }) => {
        const made = await createToken(deps, user.id, body)
        set.status = 201
        return { ...made.view, token: made.token }
      },
      {
        auth: true,
        body: t.Object({
          name: t.String({ maxLength: MAX_TOKEN_NAME * 4 }),
          scopes: t.Array(t.String({ maxLength: 20 }), { maxItems: 4 }),
          expiresInDays: t.Optional(nullable(t.Number())),
        }),
        response: {
          201: t.Composite([t.Object({ token: t.String({ description: 'shown this once; only its hash is kept' }) }), view]),
          ...errors(400, 401, 403),
        },
        detail: {
          summary: `Create a token {name, scopes: ['read'] | ['read','write'], expiresInDays? (1–${MAX_EXPIRY_DAYS}; none: never expires)} → {id, token, …}`,
          description: `Use it as \`Authorization: Bearer <token>\` on your /api routes (and \`/api/ws?token=<token>\`). 'read': GETs (terms, matches, unread counts, the live stream); 'write' (includes read): changing terms, marking matches read, unread, archived or restored. Never: admin routes, tokens, sign-in and account changes (403 TOKEN_NOT_ALLOWED). Wrong scope → 403 TOKEN_SCOPE; unknown, revoked or expired → 401 TOKEN_INVALID; more than ${TOKEN_REQUESTS_PER_MINUTE} requests a minute per token → 429.`,
          tags,
        },
      },
    )
    .delete('/api/tokens/:id', ({ user, params }) => revokeToken(deps, user.id, params.id), {
      response: { 200: OkResponse, ...errors(400, 401, 404) },
      auth: true,
      params: t.Object({ id: t.Integer({ minimum: 1 }) }),
      detail: { summary: "Revoke a token: it answers 401 from now on and its open sockets close; 404 TOKEN_NOT_FOUND for another user's token", tags },
    })
