// Email channel: a queued row's payload is a MailMessage; nodemailer (SMTP_URL) or the dev outbox
// sends it. An SMTP 55x answer (mailbox unknown, policy refusal) will not change on retry.
import type { Mailer, MailMessage } from '../mailer'
import { PermanentFailure } from '../queue'
import type { Channel } from './types'

export function emailChannel(mailer: Mailer): Channel {
  return {
    name: 'email',
    async send(row) {
      try {
        await mailer.send(row.payload as unknown as MailMessage)
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode
        if (typeof code === 'number' && code >= 550 && code <= 554) throw new PermanentFailure(`SMTP ${code}: ${(err as Error).message}`)
        throw err
      }
    },
    close: () => mailer.close(),
  }
}
