// /api/admin/feedback — the Feedback page: the contact-form inbox (unread / read / resolved),
// state changes and replies by email (./view.ts). State changes and replies are audited ('feedback.*').
import { Elysia, t } from 'elysia'
import { authPlugin } from '../../auth/plugin'
import { badRequest } from '../../lib/errors'
import { audited } from '../../audit/log'
import type { AdminDeps } from '../shared/deps'
import { listFeedback, readFilter, replyToFeedback, setFeedbackState } from './view'
import { FeedbackMessageModel, AdminFeedbackResponse } from '../models'
import { errors } from '../../lib/models'

const tags = ['admin']
const loose = t.Object({}, { additionalProperties: true })
const idParam = t.Object({ id: t.String() })

function readId(raw: string): number {
  const id = Number(raw)
  if (!Number.isInteger(id) || id < 1) throw badRequest('Message id must be a positive whole number.', 'INVALID_ID')
  return id
}

export const feedbackRoutes = (deps: AdminDeps) =>
  new Elysia({ name: 'admin-feedback' })
    .use(authPlugin(deps))
    .get(
      '/api/admin/feedback',
      ({ query }) => {
        const q = query as Record<string, string | undefined>
        return listFeedback(deps, readFilter(q.filter), q.page ? Number(q.page) : 1)
      },
      {
        response: { 200: AdminFeedbackResponse, ...errors(401, 403) },
        admin: true,
        detail: { summary: 'Contact-form messages, newest first, 25 a page: ?filter=all|unread|read|resolved&page; counts per state', tags },
      },
    )
    .post(
      '/api/admin/feedback/:id/state',
      ({ user, params, body }) => {
        const id = readId(params.id)
        const state = (body as { state?: unknown }).state
        return audited(deps, { actor: { id: user.id, email: user.email }, action: 'feedback.state', target: `contact:${id}`, details: { state } }, () =>
          setFeedbackState(deps, id, state),
        )
      },
      {
        response: { 200: FeedbackMessageModel, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        body: loose,
        detail: { summary: 'Mark a message {state: unread | read | resolved | unresolved}', tags },
      },
    )
    .post(
      '/api/admin/feedback/:id/reply',
      ({ user, params, body }) => {
        const id = readId(params.id)
        return audited(
          deps,
          { actor: { id: user.id, email: user.email }, action: 'feedback.reply', target: `contact:${id}` },
          () => replyToFeedback(deps, id, (body as { reply?: unknown }).reply),
          (m) => ({ to: m.email }),
        )
      },
      {
        response: { 200: FeedbackMessageModel, ...errors(400, 401, 403, 404) },
        admin: true,
        params: idParam,
        body: loose,
        detail: { summary: 'Reply by email {reply}: queued in the outbox, kept on the message, marks it read', tags },
      },
    )
