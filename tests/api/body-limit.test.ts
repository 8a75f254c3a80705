// The request body limit (MAX_BODY_BYTES, 64 KiB by default) holds for the bytes read, not for
// what Content-Length says: a body sent with `Transfer-Encoding: chunked` and no Content-Length
// is counted as it arrives and refused with the same 413 {error: {code: 'PAYLOAD_TOO_LARGE'}} as
// a declared oversize body. A real server on loopback, spoken to over a raw socket.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { startTestServer } from '../helpers'

let server: Awaited<ReturnType<typeof startTestServer>>
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stop())

/** One HTTP/1.1 request over a raw socket; the body goes in 16 KiB chunks. Resolves with status and JSON body. */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (d) => (answer += d))
    socket.on('error', (e) => (answer ? undefined : reject(e)))
    socket.on('close', () => {
      const [head = '', ...rest] = answer.split('\r\n\r\n')
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0)
      let text = rest.join('\r\n\r\n')
      if (/transfer-encoding: chunked/i.test(head)) text = dechunk(text)
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      resolve({ status, body: parsed })
    })
    const lines = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    const chunked = headers['Transfer-Encoding'] === 'chunked'
    for (let i = 0; i < body.length; i += 16 * 1024) {
      const part = body.slice(i, i + 16 * 1024)
      socket.write(chunked ? `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n` : part)
    }
    if (chunked) socket.write('0\r\n\r\n')
  })
}

function dechunk(text: string): string {
  let out = ''
  let rest = text
  for (;;) {
    const nl = rest.indexOf('\r\n')
    const size = parseInt(rest.slice(0, nl), 16)
    if (!size) return out
    out += rest.slice(nl + 2, nl + 2 + size)
    rest = rest.slice(nl + 2 + size + 2)
  }
}

const json = (bytes: number) => JSON.stringify({ subject: 'Hello', email: 'pat@example.com', message: 'x'.repeat(bytes) })
const chunkedHeaders = () => ({ 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', Origin: server.deps.config.appUrl })

describe('the body limit counts the bytes read', () => {
  test('a chunked body of 0.5 MB without Content-Length is refused: 413 PAYLOAD_TOO_LARGE, the usual error shape', async () => {
    const r = await rawPost('/api/contact', json(512 * 1024), chunkedHeaders())
    expect(r.status).toBe(413)
    expect(r.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: `Request body is larger than ${server.config.maxBodyBytes} bytes.` } })
  })

  test('so does a chunked body of 2 MB, past the hard stop of the server (maxRequestBodySize)', async () => {
    const r = await rawPost('/api/contact', json(2 * 1024 * 1024), chunkedHeaders())
    expect(r.status).toBe(413)
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('a declared oversize body answers the same', async () => {
    const body = json(512 * 1024)
    const r = await rawPost('/api/contact', body, {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      Origin: server.deps.config.appUrl,
    })
    expect(r.status).toBe(413)
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('a chunked body one byte over the limit is refused; one at the limit is read and parsed', async () => {
    const max = server.config.maxBodyBytes
    const over = json(max) // the JSON around the message makes it a little over
    expect((await rawPost('/api/contact', over, chunkedHeaders())).status).toBe(413)
    const base = json(0).length
    const exact = json(max - base)
    expect(exact.length).toBe(max)
    const r = await rawPost('/api/contact', exact, chunkedHeaders())
    expect(r.status).toBe(400) // parsed: the contact form says the message is too long
    expect(r.body.error.code).toBe('TOO_LONG')
  })
})
