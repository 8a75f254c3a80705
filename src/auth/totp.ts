// Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 6 digits, 30-second
// steps, secrets in base32 (RFC 4648) as authenticator apps read them from an otpauth:// URL.
// Pure apart from the randomness of a new secret.
import { createHmac, randomBytes } from 'node:crypto'

export const STEP_SECONDS = 30
export const DIGITS = 6
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const b of bytes) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '')
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch)
    if (i < 0) throw new Error('not base32')
    value = (value << 5) | i
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

/** A new 160-bit secret (RFC 4226 recommends at least 128, SHA-1's block suits 160). */
export function newSecret(): string {
  return base32Encode(randomBytes(20))
}

export function hotp(key: Uint8Array, counter: number, digits = DIGITS): string {
  const msg = Buffer.alloc(8)
  msg.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(msg).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits
  return String(n).padStart(digits, '0')
}

export const stepAt = (ms: number) => Math.floor(ms / 1000 / STEP_SECONDS)

/** The code of `secret` at a time. */
export function totp(secret: string, ms: number): string {
  return hotp(base32Decode(secret), stepAt(ms))
}

/**
 * The step whose code equals `code` within ±`window` steps of `ms` (clock drift), newest first,
 * or null. The caller refuses a step it has already accepted (each code is usable once).
 */
export function matchStep(secret: string, code: string, ms: number, window = 1): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const key = base32Decode(secret)
  const now = stepAt(ms)
  for (let s = now + window; s >= now - window; s--) if (hotp(key, s) === code) return s
  return null
}

/** The otpauth:// URL an authenticator app scans (Key Uri Format). */
export function otpauthUrl(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`)
  const q = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) })
  return `otpauth://totp/${label}?${q}`
}
