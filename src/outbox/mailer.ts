// Email transport: nodemailer over SMTP_URL, or, without it, a dev outbox in DATA_DIR/outbox
// (one .eml file per message, 600 in a 700 folder: they carry sign-in links) whose links are
// printed to the log so confirmation works offline. Every message says it was sent by a program
// (`Auto-Submitted: auto-generated`, RFC 3834), so vacation responders do not answer it.
import nodemailer from 'nodemailer'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config'
import { log } from '../lib/log'

export type MailMessage = {
  to: string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
  /** the Message-ID header, `<…@host>`; nodemailer makes a random one when unset */
  messageId?: string
}

export type Mailer = { send(msg: MailMessage): Promise<{ messageId: string }>; close(): void }

/** List-* values are built in their RFC 2369/2919 form; nodemailer would MIME-encode List-Id's quotes. */
const PREPARED = /^list-/i

/**
 * DKIM (when DKIM_* are set): the headers the signature covers. nodemailer's default list (RFC 4871
 * §5.5) has List-Unsubscribe but not List-Unsubscribe-Post, and RFC 8058 §4 asks that both be
 * signed, or a receiver must not offer one-click unsubscribe. Auto-Submitted is ours too.
 */
export const DKIM_SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'Auto-Submitted',
].join(':')

function dkimOptions(config: Config) {
  if (!config.dkim) return {}
  const { domain, selector, privateKey } = config.dkim
  return { dkim: { domainName: domain, keySelector: selector, privateKey, headerFieldNames: DKIM_SIGNED_HEADERS } }
}

/** What nodemailer sends for a message: our sender, and the headers every email carries. */
function envelope(config: Config, msg: MailMessage) {
  const headers = Object.entries({ ...msg.headers, 'Auto-Submitted': 'auto-generated' }).map(([key, value]) => [
    key,
    PREPARED.test(key) ? { prepared: true, value: value.replace(/[\r\n]+/g, ' ') } : value,
  ])
  return { from: config.mailFrom, ...msg, headers: Object.fromEntries(headers) }
}

export function createMailer(config: Config): Mailer {
  if (config.smtpUrl) {
    // A small connection pool: the outbox sends a batch concurrently over a few reused connections.
    const url = new URL(config.smtpUrl)
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true')
    if (!url.searchParams.has('maxConnections')) url.searchParams.set('maxConnections', '3')
    const transport = nodemailer.createTransport(url.toString(), { from: config.mailFrom, ...dkimOptions(config) })
    return {
      async send(msg) {
        const info = await transport.sendMail(envelope(config, msg))
        return { messageId: info.messageId }
      },
      close: () => transport.close(),
    }
  }
  const dir = join(config.dataDir, 'outbox')
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix', ...dkimOptions(config) })
  let ready = false
  return {
    async send(msg) {
      const info = await transport.sendMail(envelope(config, msg))
      if (!ready) {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
        chmodSync(dir, 0o700) // a folder left 755 by an older version
        ready = true
      }
      const file = join(dir, `${Date.now()}-${msg.to.replace(/[^a-z0-9@.]/gi, '_')}.eml`)
      writeFileSync(file, info.message as Buffer, { mode: 0o600 })
      const links = [...msg.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0])
      log.info(`dev outbox: "${msg.subject}" to ${msg.to}`, { file, links: links.join(' ') || undefined })
      return { messageId: info.messageId }
    },
    close() {},
  }
}
