// TOTP secrets at rest (ASVS 2.8.2): sealed with AES-256-GCM under a key kept outside the database
// (TOTP_ENCRYPTION_KEY, or the one src/config.ts generates into DATA_DIR/secrets.json) and bound to
// their user as additional data, so a sealed secret copied to another account's row does not open.
// Stored form: 'v1:' + base64url(12-byte IV ‖ ciphertext ‖ 16-byte tag). A value without the prefix is
// a clear secret from before sealing: the server seals those at startup and reads them meanwhile.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const PREFIX = 'v1:'
const IV_BYTES = 12
const TAG_BYTES = 16

const aad = (userId: number) => Buffer.from(`dibs totp secret of user ${userId}`)

export const isSealed = (stored: string) => stored.startsWith(PREFIX)

export function sealSecret(key: Buffer, userId: number, secret: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(userId))
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
}

/** The base32 secret, or null when the value does not open with this key for this user. */
export function openSecret(key: Buffer, userId: number, stored: string): string | null {
  if (!isSealed(stored)) return stored
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url')
  if (raw.length <= IV_BYTES + TAG_BYTES) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES)).setAAD(aad(userId))
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
