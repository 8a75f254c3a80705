// /api/admin/alerts — the Alerts page: the outbox overview and failed messages (./view.ts), retry one or all.
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { audited } from '../../audit/log'
import { badRequest, notFound } from '../../lib/errors'
import { blockSeller, listBlockedSellers, sellerName, unblockSeller } from '../../forums/blocked-sellers'
import { retryAllFailed, retryFailed } from '../../outbox/queue'
import { channelOf } from '../../outbox/stats'
import type { AdminDeps } from '../shared/deps'
import { rangeDays, rangeQuery } from '../shared/range'
import { FAILED_PAGE_SIZE, failedMessages, outboxOverview } from './view'
import { AdminAlertsFailedResponse, AdminAlertsIdRetryResponse, AdminAlertsResponse, AdminBlockedSellersGetResponse } from '../models'
import { CountResponse } from '../../matches/models'
import { errors } from '../../lib/models'

const tags = ['admin']

export const alertsRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-alerts' })
    .use(authPlugin(deps))
    .get('/api/admin/alerts', async ({ query }) => outboxOverview(deps, rangeDays(query)), {
      response: { 200: AdminAlertsResponse, ...errors(400, 401, 403) },
      admin: true,
      query: rangeQuery,
      detail: {
        summary:
          'The outbox over 7/30/90 days: per channel and day, rows queued by their status now; per channel pending/sending/sent/failed, due and the oldest pending age; push subscriptions removed as gone; email bounces (not known)',
        tags,
      },
    })
    .get('/api/admin/alerts/failed', ({ query }) => failedMessages(deps, query.page ?? 1), {
      response: { 200: AdminAlertsFailedResponse, ...errors(400, 401, 403) },
      admin: true,
      query: t.Object({ page: t.Optional(t.Integer({ minimum: 1, maximum: 100_000 })) }),
      detail: { summary: `Failed outbox messages with their last error, newest first, ${FAILED_PAGE_SIZE} per page`, tags },
    })
    .post(
      '/api/admin/alerts/:id/retry',
      async ({ params, user }) => {
        const channel = await channelOf(deps, params.id)
        await audited(deps, { actor: { id: user.id, email: user.email }, action: 'outbox.retry', target: `outbox:${params.id}` }, async () => {
          if (!channel || !(await retryFailed(deps, params.id))) throw notFound('No failed message with that id.')
        })
        deps.bus.emit('outbox.queued', { channel: channel! })
        return { ok: true, id: params.id }
      },
      {
        response: { 200: AdminAlertsIdRetryResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: { summary: 'Put one failed message back in the queue (attempts reset) and wake the outbox; 404 unless it is failed', tags },
      },
    )
    .post(
      '/api/admin/alerts/retry-failed',
      async ({ user }) => {
        const r = await audited(
          deps,
          { actor: { id: user.id, email: user.email }, action: 'outbox.retry_all' },
          () => retryAllFailed(deps),
          (r) => ({ count: r.count }),
        )
        for (const channel of r.channels) deps.bus.emit('outbox.queued', { channel })
        return { count: r.count }
      },
      {
        response: { 200: CountResponse, ...errors(401, 403) },
        admin: true,
        detail: { summary: 'Put every failed message back in the queue and wake the outbox → {count}', tags },
      },
    )
    // Sellers Dibs never alerts on (src/forums/blocked-sellers.ts): the matcher drops their posts; each change is audited.
    .get('/api/admin/blocked-sellers', async () => ({ sellers: await listBlockedSellers(deps) }), {
      response: { 200: AdminBlockedSellersGetResponse, ...errors(401, 403) },
      admin: true,
      detail: { summary: 'Sellers Dibs never alerts on, by name: {sellers: [{name, reason, createdAt}]}', tags },
    })
    .post(
      '/api/admin/blocked-sellers',
      async ({ body, user, set }) => {
        const name = sellerName(body.name)
        if (name === null) throw badRequest('A seller is a user name: letters, digits, - and _ (u/ is left out).', 'INVALID_SELLER')
        const reason = (body.reason ?? '').trim()
        await audited(deps, { actor: { id: user.id, email: user.email }, action: 'seller.block', target: `u/${name}`, details: { reason } }, () =>
          blockSeller(deps, name, reason, user.id, deps.now().getTime()),
        )
        set.status = 201
        return { sellers: await listBlockedSellers(deps) }
      },
      {
        response: { 200: AdminBlockedSellersGetResponse, ...errors(400, 401, 403) },
        admin: true,
        body: t.Object({ name: t.String({ maxLength: 60 }), reason: t.Optional(t.String({ maxLength: 300 })) }),
        detail: { summary: 'Never alert on a seller (posts by them match no term from now on); 400 INVALID_SELLER', tags },
      },
    )
    .delete(
      '/api/admin/blocked-sellers/:name',
      async ({ params, user }) => {
        const name = sellerName(params.name)
        await audited(deps, { actor: { id: user.id, email: user.email }, action: 'seller.unblock', target: `u/${name ?? params.name}` }, async () => {
          if (name === null || !(await unblockSeller(deps, name))) throw notFound('That seller is not on the list.', 'SELLER_NOT_FOUND')
        })
        return { sellers: await listBlockedSellers(deps) }
      },
      {
        response: { 200: AdminBlockedSellersGetResponse, ...errors(400, 401, 403, 404) },
        admin: true,
        params: t.Object({ name: t.String({ maxLength: 60 }) }),
        detail: { summary: 'Take a seller off the never-alert list; 404 SELLER_NOT_FOUND', tags },
      },
    )
