// GET /api/posts: the public live feed (no sign-in). `delayed` tells a visitor that new posts are held up
// (the forum source cannot read: blocked, failing, sent to a login page) and nothing more: the cause and
// its fix are for admins (Admin → Logs).
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps'
import { livePosts } from './feed'
import { cannotRead, type SourceHealth } from './source-health'
import { PostsResponse } from './models'
import { errors } from '../lib/models'

export const postRoutes = (deps: Deps & { source?: { healthReport?(): SourceHealth } }) =>
  new Elysia({ name: 'posts' }).get(
    '/api/posts',
    async ({ query }) => ({ ...(await livePosts(deps, { category: query.category, page: query.page })), delayed: cannotRead(deps.source?.healthReport?.()) }),
    {
      response: { 200: PostsResponse, ...errors(400) },
      query: t.Object({
        category: t.Optional(t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])),
        page: t.Optional(t.Integer({ minimum: 1, maximum: 100000 })),
      }),
      detail: {
        security: [],
        summary: 'Public live feed: last 7 days, newest first, 10 per page; {posts, total, page, pageSize, delayed} (delayed: new posts are held up)',
        tags: ['posts'],
      },
    },
  )
