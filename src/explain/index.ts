// GET /api/explain — "Why didn't I get an alert?" (service.ts). Signed-in users ask about their own
// alerts; admins may name any user (userId: an id or an email), others get 403 for anyone else.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../auth/plugin'
import { RateLimiter } from '../lib/rate-limit'
import { explainPost, READS_PER_USER, type ExplainDeps } from './service'
import { ExplainResponse } from './models'
import { errors } from '../lib/models'

export const explainRoutes = (deps: ExplainDeps, reads = new RateLimiter(READS_PER_USER.limit, READS_PER_USER.windowMs, () => deps.now().getTime())) =>
  new Elysia({ name: 'explain' })
    .use(authPlugin(deps))
    .get(
      '/api/explain',
      ({ user, access, query }) =>
        explainPost(deps, { id: user.id, role: access.role }, { url: query.url ?? '', userId: query.userId, timeZone: query.tz }, reads),
      {
        response: { 200: ExplainResponse, ...errors(400, 401) },
        auth: true,
        query: t.Object({
          url: t.Optional(t.String({ maxLength: 2000 })),
          userId: t.Optional(t.String({ maxLength: 320 })),
          tz: t.Optional(t.String({ maxLength: 64 })),
        }),
        detail: {
          summary:
            "Why a post did or did not alert: url = a Reddit post link, t3_ fullname or id; userId (admins) = another user's id or email; tz = the browser's time zone, used when the user has no quiet hours. {user, post, category, terms, otherTerms, match, timeZone}",
          tags: ['matches'],
        },
      },
    )
