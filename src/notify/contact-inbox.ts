// The contact-form inbox as stored (messages from Help & Contact, ./contact.ts): unread → read →
// resolved (handled_at), and the admin's reply (reply, replied_at). This folder owns
// contact_messages (src/db/owners.json); Admin → Feedback reads and changes it through these.
import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm'
import { contactMessages } from '../db/schema'
import type { OwnerDb } from '../db/async-db'
import { asAsync } from '../db/async-sqlite'

export const INBOX_FILTERS = ['all', 'unread', 'read', 'resolved'] as const
export type InboxFilter = (typeof INBOX_FILTERS)[number]
export type ContactMessage = typeof contactMessages.$inferSelect

const WHERE: Record<InboxFilter, SQL | undefined> = {
  all: undefined,
  unread: and(isNull(contactMessages.readAt), isNull(contactMessages.handledAt)),
  read: and(isNotNull(contactMessages.readAt), isNull(contactMessages.handledAt)),
  resolved: isNotNull(contactMessages.handledAt),
}

export async function countContactMessages(deps: OwnerDb, filter: InboxFilter): Promise<number> {
  const [row] = await asAsync(deps.db)
    .select({ n: sql<number>`count(*)` })
    .from(contactMessages)
    .where(WHERE[filter])
  return Number(row!.n)
}

/** Newest first, `limit` from `offset`. */
export async function contactMessagesPage(deps: OwnerDb, filter: InboxFilter, limit: number, offset: number): Promise<ContactMessage[]> {
  return asAsync(deps.db)
    .select()
    .from(contactMessages)
    .where(WHERE[filter])
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit)
    .offset(offset)
}

export async function contactMessage(deps: OwnerDb, id: number): Promise<ContactMessage | undefined> {
  return (await asAsync(deps.db).select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1))[0]
}

/** Sets the read, resolved (handledAt) and reply fields given. */
export async function updateContactMessage(
  deps: OwnerDb,
  id: number,
  set: Partial<Pick<ContactMessage, 'readAt' | 'handledAt' | 'reply' | 'repliedAt'>>,
): Promise<void> {
  await asAsync(deps.db).update(contactMessages).set(set).where(eq(contactMessages.id, id))
}
