// The notifier's background jobs: deliver the outbox.
import type { Job } from '../jobs'
import { createMailer, type Mailer } from './mailer'
import { processOutbox, recoverStuckSending, type Sender } from './outbox'
import type { Deps } from '../deps'
import type { MailMessage } from './mailer'

export function emailSender(mailer: Mailer): Sender {
  return async (row) => {
    await mailer.send(row.payload as unknown as MailMessage)
  }
}

export function notifyJobs(deps: Deps): Job[] {
  const mailer = createMailer(deps.config)
  recoverStuckSending(deps)
  const senders = { email: emailSender(mailer) }
  return [{ name: 'outbox', every: 1000, immediate: true, run: (d) => processOutbox(d, senders) }]
}
