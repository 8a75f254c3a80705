// Email channel: a queued row's payload is a MailMessage; nodemailer (SMTP_URL) or the dev outbox
// sends it. An SMTP 55x answer (mailbox unknown, policy refusal) will not change on retry.
// Every attempt of a row carries the same Message-ID, so a provider that dedupes by it drops the
// copy of a maybe-sent email (src/outbox/queue.ts, recoverStuckSending).
import { createHash } from 'node:crypto'
import type { OutboxRow } from '../../db/schema'
import type { Mailer, MailMessage } from '../mailer'
import { PermanentFailure } from '../queue'
import type { Channel } from './types'

/**
 * `<outbox-<id>.<hash>@<APP_URL host>>`: the id names the row; the hash of its dedupe key and
 * creation time keeps the id unique when a restored backup hands out the same row id again.
 */
export function messageIdOf(row: Pick<OutboxRow, 'id' | 'dedupeKey' | 'createdAt'>, host: string): string {
  const hash = createHash('sha256')
    .update(`${row.dedupeKey ?? ''}\n${row.createdAt.getTime()}`)
    .digest('base64url')
    .slice(0, 16)
  return `<outbox-${row.id}.${hash}@${host}>`
}

export function emailChannel(mailer: Mailer, opts: { host: string }): Channel {
  return {
    name: 'email',
    async send(row) {
      try {
        await mailer.send({ ...(row.payload as unknown as MailMessage), messageId: messageIdOf(row, opts.host) })
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode
        if (typeof code === 'number' && code >= 550 && code <= 554) throw new PermanentFailure(`SMTP ${code}: ${(err as Error).message}`)
        throw err
      }
    },
    close: () => mailer.close(),
  }
}
