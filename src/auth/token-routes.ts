// /api/tokens: the signed-in user's personal access tokens (Settings → Account). Session only: a
// token cannot list, make or revoke tokens (./token-scopes.ts).
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps'
import { createToken, listTokens, MAX_EXPIRY_DAYS, MAX_TOKEN_NAME, revokeToken } from './access-tokens'
import { authPlugin } from './plugin'
import { TOKEN_REQUESTS_PER_MINUTE } from './token-gate'
import { TOKEN_SCOPES } from './token-scopes'

const tags = ['tokens']
const scope = t.Union([t.Literal(TOKEN_SCOPES[0]), t.Literal(TOKEN_SCOPES[1])])
const view = t.Object({
  id: t.Integer(),
  name: t.String(),
  hint: t.String({ description: "the token's first characters, e.g. 'dibs_pat_Ab3d…'" }),
  scopes: t.Array(scope),
  createdAt: t.String(),
  expiresAt: t.Nullable(t.String()),
  lastUsedAt: t.Nullable(t.String()),
  expired: t.Boolean(),
})

export const tokenRoutes = (deps: Deps) =>
  new Elysia({ name: 'token-routes' })
    .use(authPlugin(deps))
    .get('/api/tokens', ({ user }) => ({ tokens: listTokens(deps, user.id) }), {
      auth: true,
      response: { 200: t.Object({ tokens: t.Array(view) }) },
      detail: { summary: 'Personal access tokens of the signed-in user (never the token itself), oldest first', tags },
    })
    .post(
      '/api/tokens',
      ({ user, body, set }) => {
        const made = createToken(deps, user.id, body)
        set.status = 201
        return { ...made.view, token: made.token }
      },
      {
        auth: true,
        body: t.Object({
          name: t.String({ maxLength: MAX_TOKEN_NAME * 4 }),
          scopes: t.Array(t.String({ maxLength: 20 }), { maxItems: 4 }),
          expiresInDays: t.Optional(t.Nullable(t.Number())),
        }),
        response: { 201: t.Composite([t.Object({ token: t.String({ description: 'shown this once; only its hash is kept' }) }), view]) },
        detail: {
          summary: `Create a token {name, scopes: ['read'] | ['read','write'], expiresInDays? (1–${MAX_EXPIRY_DAYS}; none: never expires)} → {id, token, …}`,
          description: `Use it as \`Authorization: Bearer <token>\` on your /api routes (and \`/api/ws?token=<token>\`). 'read': GETs (terms, matches, unread counts, the live stream); 'write' (includes read): changing terms, marking matches read, unread, archived or restored. Never: admin routes, tokens, sign-in and account changes (403 TOKEN_NOT_ALLOWED). Wrong scope → 403 TOKEN_SCOPE; unknown, revoked or expired → 401 TOKEN_INVALID; more than ${TOKEN_REQUESTS_PER_MINUTE} requests a minute per token → 429.`,
          tags,
        },
      },
    )
    .delete('/api/tokens/:id', ({ user, params }) => revokeToken(deps, user.id, params.id), {
      auth: true,
      params: t.Object({ id: t.Integer({ minimum: 1 }) }),
      detail: { summary: "Revoke a token: it answers 401 from now on and its open sockets close; 404 TOKEN_NOT_FOUND for another user's token", tags },
    })
