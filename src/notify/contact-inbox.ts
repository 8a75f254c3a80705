// The contact-form inbox as stored (messages from Help & Contact, ./contact.ts): unread → read →
// resolved (handled_at), and the admin's reply (reply, replied_at). This folder owns
// contact_messages (src/db/owners.json); Admin → Feedback reads and changes it through these.
import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm'
import { contactMessages } from '../db/schema'
import type { Deps } from '../deps'

export const INBOX_FILTERS = ['all', 'unread', 'read', 'resolved'] as const
export type InboxFilter = (typeof INBOX_FILTERS)[number]
export type ContactMessage = typeof contactMessages.$inferSelect

const WHERE: Record<InboxFilter, SQL | undefined> = {
  all: undefined,
  unread: and(isNull(contactMessages.readAt), isNull(contactMessages.handledAt)),
  read: and(isNotNull(contactMessages.readAt), isNull(contactMessages.handledAt)),
  resolved: isNotNull(contactMessages.handledAt),
}

export function countContactMessages(deps: Pick<Deps, 'db'>, filter: InboxFilter): number {
  return deps.db
    .select({ n: sql<number>`count(*)` })
    .from(contactMessages)
    .where(WHERE[filter])
    .get()!.n
}

/** Newest first, `limit` from `offset`. */
export function contactMessagesPage(deps: Pick<Deps, 'db'>, filter: InboxFilter, limit: number, offset: number): ContactMessage[] {
  return deps.db
    .select()
    .from(contactMessages)
    .where(WHERE[filter])
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit)
    .offset(offset)
    .all()
}

export function contactMessage(deps: Pick<Deps, 'db'>, id: number): ContactMessage | undefined {
  return deps.db.select().from(contactMessages).where(eq(contactMessages.id, id)).get()
}

/** Sets the read, resolved (handledAt) and reply fields given. */
export function updateContactMessage(
  deps: Pick<Deps, 'db'>,
  id: number,
  set: Partial<Pick<ContactMessage, 'readAt' | 'handledAt' | 'reply' | 'repliedAt'>>,
): void {
  deps.db.update(contactMessages).set(set).where(eq(contactMessages.id, id)).run()
}
