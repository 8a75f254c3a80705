// GET /api/posts: the public live feed (no sign-in).
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps'
import { livePosts } from './feed'

export const postRoutes = (deps: Deps) =>
  new Elysia({ name: 'posts' }).get('/api/posts', ({ query }) => livePosts(deps, { category: query.category, page: query.page }), {
    query: t.Object({
      category: t.Optional(t.Union([t.Literal('wts'), t.Literal('wtb'), t.Literal('gd')])),
      page: t.Optional(t.Integer({ minimum: 1, maximum: 100000 })),
    }),
    detail: { summary: 'Public live feed: last 7 days, newest first, 10 per page; {posts, total, page, pageSize}', tags: ['posts'] },
  })
