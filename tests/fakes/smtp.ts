// A real SMTP server (smtp-server) on loopback that keeps every message it accepts, with a small
// MIME reader (mailparser does not install here): headers, text and html parts, decoded.
// `stop()` and `start()` again on the same port simulate an outage. `hold = true` keeps the
// answer to a message's final "." back (the message is received, the client waits), as a
// provider does that has the message but has not said so yet.
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { from: string; to: string[]; raw: string; headers: Record<string, string>; subject: string; text: string; html: string }

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _cs, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  )
}

function splitHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  return headers
}

function decodeBody(body: string, encoding = ''): string {
  const enc = encoding.toLowerCase()
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (enc === 'quoted-printable')
    return Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_x, h) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8')
  return body
}

export function parseMail(raw: string): Omit<ReceivedMail, 'from' | 'to' | 'raw'> {
  const split = raw.search(/\r?\n\r?\n/)
  const headers = splitHeaders(raw.slice(0, split))
  const rest = raw.slice(split).replace(/^\r?\n\r?\n/, '')
  let text = ''
  let html = ''
  const walk = (h: Record<string, string>, body: string) => {
    const type = h['content-type'] ?? 'text/plain'
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
    if (boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break
        const p = part.replace(/^\r?\n/, '')
        const i = p.search(/\r?\n\r?\n/)
        walk(
          splitHeaders(p.slice(0, i)),
          p
            .slice(i)
            .replace(/^\r?\n\r?\n/, '')
            .replace(/\r?\n$/, ''),
        )
      }
    } else if (type.startsWith('text/html')) html += decodeBody(body, h['content-transfer-encoding'])
    else if (type.startsWith('text/plain')) text += decodeBody(body, h['content-transfer-encoding'])
  }
  walk(headers, rest)
  return { headers, subject: decodeWords(headers.subject ?? ''), text: text.replace(/\r\n/g, '\n'), html }
}

/** `auth`: require AUTH PLAIN/LOGIN with these credentials (plain connection, as on a private relay). */
export async function startSmtp(port = 0, opts: { auth?: { user: string; pass: string } } = {}) {
  const messages: ReceivedMail[] = []
  let hold = false
  const held: (() => void)[] = []
  let server: SMTPServer | null = null
  let boundPort = port
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: !opts.auth,
        allowInsecureAuth: true,
        closeTimeout: 200,
        disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
        onAuth(auth, _session, callback) {
          const ok = opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass
          callback(ok ? null : Object.assign(new Error('Invalid username or password'), { responseCode: 535 }), ok ? { user: auth.username } : undefined)
        },
        logger: false,
        onData(stream, session, done) {
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8')
            messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              ...parseMail(raw),
            })
            if (hold) held.push(() => done())
            else done()
          })
        },
      })
      server.on('error', () => {})
      server.listen(boundPort, '127.0.0.1', () => {
        boundPort = (server!.server.address() as { port: number }).port
        resolve()
      })
      server.server.once('error', reject)
    })
  await start()
  return {
    messages,
    get hold() {
      return hold
    },
    /** true: answer no message until set back to false (which answers the held ones: 250) */
    set hold(on: boolean) {
      hold = on
      if (!on) for (const answer of held.splice(0)) answer()
    },
    get port() {
      return boundPort
    },
    get url() {
      return `smtp://127.0.0.1:${boundPort}`
    },
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    /** Resolves when at least n messages have arrived (or rejects after the timeout). */
    async waitFor(n: number, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs
      while (messages.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} messages, got ${messages.length}`)
        await Bun.sleep(20)
      }
      return messages
    },
  }
}
export type FakeSmtp = Awaited<ReturnType<typeof startSmtp>>
