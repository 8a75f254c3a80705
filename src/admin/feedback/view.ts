// Admin → Feedback: the contact-form inbox (stored by src/notify/contact-inbox.ts): the page's view of a
// message, unread → read → resolved, and a reply by email through the outbox, kept on the message.
import type { Deps } from '../../deps'
import { badRequest, notFound } from '../../lib/errors'
import { composeEmail } from '../../lib/email-layout'
import {
  contactMessage,
  contactMessagesPage,
  countContactMessages,
  INBOX_FILTERS,
  updateContactMessage,
  type ContactMessage,
  type InboxFilter,
} from '../../notify/contact-inbox'
import { enqueueEmail } from '../../outbox/queue'

export const FEEDBACK_FILTERS = INBOX_FILTERS
export type FeedbackFilter = InboxFilter
export const FEEDBACK_STATES = ['unread', 'read', 'resolved', 'unresolved'] as const
export type FeedbackState = (typeof FEEDBACK_STATES)[number]
export const MAX_REPLY_LENGTH = 5000
const PAGE_SIZE = 25

export function readFilter(value: unknown): FeedbackFilter {
  if (value === undefined || value === '') return 'all'
  if ((FEEDBACK_FILTERS as readonly unknown[]).includes(value)) return value as FeedbackFilter
  throw badRequest(`Filter must be one of ${FEEDBACK_FILTERS.join(', ')}.`, 'INVALID_FILTER')
}

type Row = ContactMessage
const iso = (d: Date | null) => d?.toISOString() ?? null

/** A message's state as the inbox shows it (typed, not widened to string: the admin page's labels are keyed by it). */
const stateOf = (r: Row): Exclude<FeedbackState, 'unresolved'> => (r.handledAt ? 'resolved' : r.readAt ? 'read' : 'unread')

function view(r: Row) {
  return {
    id: r.id,
    userId: r.userId,
    email: r.email,
    subject: r.subject,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
    readAt: iso(r.readAt),
    resolvedAt: iso(r.handledAt),
    repliedAt: iso(r.repliedAt),
    reply: r.reply,
    state: stateOf(r),
  }
}
export type FeedbackMessage = ReturnType<typeof view>

export async function listFeedback(deps: Pick<Deps, 'db'>, filter: FeedbackFilter, page = 1) {
  const n = (f: FeedbackFilter) => countContactMessages(deps, f)
  const counts = { all: await n('all'), unread: await n('unread'), read: await n('read'), resolved: await n('resolved') }
  const total = counts[filter]
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  const p = Math.min(Math.max(1, Math.floor(page) || 1), pages)
  const rows = await contactMessagesPage(deps, filter, PAGE_SIZE, (p - 1) * PAGE_SIZE)
  return { messages: rows.map(view), counts, page: p, pages }
}

async function messageOrFail(deps: Pick<Deps, 'db'>, id: number): Promise<Row> {
  const row = await contactMessage(deps, id)
  if (row === undefined) throw notFound('No message with that id.', 'MESSAGE_NOT_FOUND')
  return row
}

/** unread / read (read_at), resolved / unresolved (handled_at); resolving also marks it read. */
export async function setFeedbackState(deps: Pick<Deps, 'db' | 'now'>, id: number, state: unknown) {
  if (!(FEEDBACK_STATES as readonly unknown[]).includes(state)) throw badRequest(`State must be one of ${FEEDBACK_STATES.join(', ')}.`, 'INVALID_STATE')
  const row = await messageOrFail(deps, id)
  const now = deps.now()
  const set =
    state === 'unread'
      ? { readAt: null, handledAt: null }
      : state === 'read'
        ? { readAt: row.readAt ?? now }
        : state === 'resolved'
          ? { readAt: row.readAt ?? now, handledAt: row.handledAt ?? now }
          : { handledAt: null }
  await updateContactMessage(deps, id, set)
  return view(await messageOrFail(deps, id))
}

function replyEmail(deps: Pick<Deps, 'config'>, row: Row, reply: string) {
  const app = deps.config.appName
  const subject = (/^re:/i.test(row.subject) ? row.subject : `Re: ${row.subject}`).slice(0, 250)
  return composeEmail(row.email, subject, {
    appName: app,
    heading: subject,
    blocks: [{ pre: reply }, { heading: 'Your message' }, { pre: row.message }],
    footer: [{ text: `${app} support, answering the message you sent through Help & Contact on ${row.createdAt.toUTCString()}.` }],
  })
}

/** Emails the reply (queued in the outbox), keeps it on the message and marks the message read. */
export async function replyToFeedback(deps: Pick<Deps, 'db' | 'now' | 'bus' | 'config'>, id: number, input: unknown) {
  const reply = typeof input === 'string' ? input.trim() : ''
  if (!reply) throw badRequest('Please write a reply.', 'VALIDATION')
  if (reply.length > MAX_REPLY_LENGTH) throw badRequest(`Please keep the reply under ${MAX_REPLY_LENGTH} characters.`, 'TOO_LONG')
  const row = await messageOrFail(deps, id)
  const now = deps.now()
  await enqueueEmail(deps, 'contact_reply', replyEmail(deps, row, reply), { userId: row.userId })
  await updateContactMessage(deps, id, { reply, repliedAt: now, readAt: row.readAt ?? now })
  return view(await messageOrFail(deps, id))
}
