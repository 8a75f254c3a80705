// The contact form (spec Help & FAQ → Contact Us; §3 email_sending_queue contact_form): the
// message is stored for the admin feedback page and queued as one email per ADMIN_EMAILS address.
import { asAsync } from '../db/async-sqlite'
import { contactMessages } from '../db/schema'
import type { Deps } from '../deps'
import { AppError } from '../lib/errors'
import { enqueueEmail } from '../outbox/queue'
import { contactEmail } from './templates'

export const CONTACT_LIMITS = { subject: 200, message: 5000 }
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function missingInformation() {
  return new AppError(400, 'MISSING_INFORMATION', 'Please enter a subject and your message.', { title: 'Missing Information' })
}

export async function submitContact(
  deps: Pick<Deps, 'db' | 'now' | 'config' | 'bus'>,
  from: { userId: number | null; email: string | null },
  input: { subject?: unknown; message?: unknown; email?: unknown },
): Promise<{ id: number }> {
  const subject = typeof input.subject === 'string' ? input.subject.trim() : ''
  const message = typeof input.message === 'string' ? input.message.trim() : ''
  if (!subject || !message) throw missingInformation()
  if (subject.length > CONTACT_LIMITS.subject || message.length > CONTACT_LIMITS.message)
    throw new AppError(400, 'TOO_LONG', `Please keep the subject under ${CONTACT_LIMITS.subject} and the message under ${CONTACT_LIMITS.message} characters.`)
  const email = from.email ?? (typeof input.email === 'string' ? input.email.trim().toLowerCase() : '')
  if (!EMAIL.test(email)) throw new AppError(400, 'MISSING_INFORMATION', 'Please enter your email address so we can reply.', { title: 'Missing Information' })
  const [row] = await asAsync(deps.db)
    .insert(contactMessages)
    .values({ userId: from.userId, email, subject, message, createdAt: deps.now() })
    .returning({ id: contactMessages.id })
  for (const admin of deps.config.adminEmails)
    await enqueueEmail(deps, 'contact_form', contactEmail(deps.config, admin, { email, userId: from.userId }, subject, message), {
      userId: from.userId,
      dedupeKey: `contact:${row!.id}:${admin}`,
    })
  return { id: row!.id }
}
