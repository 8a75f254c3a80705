// A small DKIM verifier (RFC 6376) for received test mail: rsa-sha256 with relaxed/relaxed
// canonicalization, which is what nodemailer signs with. The public key is given (a receiver
// would fetch it from DNS at <s>._domainkey.<d>). Returns the signature's tags and whether the
// body hash and the signature hold; any other algorithm or canonicalization is reported, not guessed.
import { createHash, createVerify, type KeyObject } from 'node:crypto'

export type DkimResult = { tags: Record<string, string>; signedHeaders: string[]; bodyHashOk: boolean; signatureOk: boolean }

/** Header lines of a raw message, each unfolded field as it appears ("Name: value" with its folds). */
function headerFields(block: string): { name: string; raw: string }[] {
  const out: { name: string; raw: string }[] = []
  for (const line of block.split('\r\n')) {
    if (/^[ \t]/.test(line) && out.length) out.at(-1)!.raw += `\r\n${line}`
    else if (line) out.push({ name: line.slice(0, line.indexOf(':')).trim().toLowerCase(), raw: line })
  }
  return out
}

/** Relaxed header canonicalization (RFC 6376 §3.4.2). */
const relaxedHeader = (raw: string) => {
  const i = raw.indexOf(':')
  const name = raw.slice(0, i).trim().toLowerCase()
  const value = raw
    .slice(i + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()
  return `${name}:${value}`
}

/** Relaxed body canonicalization (RFC 6376 §3.4.4). */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
  while (lines.length && lines.at(-1) === '') lines.pop()
  return lines.length ? lines.join('\r\n') + '\r\n' : ''
}

export function verifyDkim(rawMessage: string, publicKey: KeyObject | string): DkimResult {
  const raw = rawMessage.replace(/\r?\n/g, '\r\n')
  const split = raw.indexOf('\r\n\r\n')
  const fields = headerFields(raw.slice(0, split))
  const body = raw.slice(split + 4)
  const sig = fields.find((f) => f.name === 'dkim-signature')
  if (!sig) throw new Error('no DKIM-Signature header')
  const tagText = sig.raw.slice(sig.raw.indexOf(':') + 1).replace(/\r\n[ \t]*/g, '')
  const tags = Object.fromEntries(
    tagText
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => [t.slice(0, t.indexOf('=')).trim(), t.slice(t.indexOf('=') + 1).replace(/[ \t]/g, '')]),
  )
  if (tags.a !== 'rsa-sha256' || tags.c !== 'relaxed/relaxed') throw new Error(`unsupported a=${tags.a} c=${tags.c}`)
  const bodyHashOk = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64') === tags.bh

  // Signed header fields in h= order; a name listed twice takes the next instance from the bottom.
  const signedHeaders = tags.h!.split(':').map((h: string) => h.trim().toLowerCase())
  const used = new Map<string, number>()
  let data = ''
  for (const name of signedHeaders) {
    const instances = fields.filter((f) => f.name === name)
    const n = used.get(name) ?? 0
    used.set(name, n + 1)
    const field = instances[instances.length - 1 - n]
    if (field) data += relaxedHeader(field.raw) + '\r\n'
  }
  data += relaxedHeader(sig.raw)
    .replace(/(;\s*b=)[^;]*$/, '$1')
    .replace(/(^|;\s*)b=[^;]*(;|$)/, '$1b=$2')
  const signatureOk = createVerify('RSA-SHA256').update(data, 'latin1').verify(publicKey, tags.b!, 'base64')
  return { tags, signedHeaders, bodyHashOk, signatureOk }
}
