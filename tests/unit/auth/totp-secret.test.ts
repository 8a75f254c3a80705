// Sealing TOTP secrets (AES-256-GCM, bound to the user) and the key's configuration.
import { describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { loadSecrets } from '../../../src/config'
import { isSealed, openSecret, sealSecret } from '../../../src/auth/totp-secret'
import { newSecret } from '../../../src/auth/totp'
import { tempDir } from '../../helpers'

describe('sealSecret / openSecret', () => {
  const key = randomBytes(32)
  const secret = newSecret()

  test('round trip; every seal is different; the secret never shows', () => {
    const a = sealSecret(key, 7, secret)
    const b = sealSecret(key, 7, secret)
    expect(a).toStartWith('v1:')
    expect(a).not.toBe(b)
    expect(a).not.toContain(secret)
    expect(openSecret(key, 7, a)).toBe(secret)
    expect(isSealed(a)).toBe(true)
  })

  test('another key, another user or a changed byte does not open', () => {
    const sealed = sealSecret(key, 7, secret)
    expect(openSecret(randomBytes(32), 7, sealed)).toBeNull()
    expect(openSecret(key, 8, sealed)).toBeNull()
    const raw = Buffer.from(sealed.slice(3), 'base64url')
    raw[20]! ^= 1
    expect(openSecret(key, 7, 'v1:' + raw.toString('base64url'))).toBeNull()
    expect(openSecret(key, 7, 'v1:short')).toBeNull()
  })

  test('a clear secret from before sealing reads as itself', () => {
    expect(isSealed(secret)).toBe(false)
    expect(openSecret(key, 7, secret)).toBe(secret)
  })
})

describe('TOTP_ENCRYPTION_KEY', () => {
  test('unset: generated once into DATA_DIR/secrets.json and reused', () => {
    const dir = tempDir()
    const first = loadSecrets({}, dir, 'http://localhost:3000')
    expect(first.totpKey).toHaveLength(32)
    expect(loadSecrets({}, dir, 'http://localhost:3000').totpKey).toEqual(first.totpKey)
  })

  test('set: 64 hex digits or base64 of 32 bytes; anything else stops startup naming the variable', () => {
    const dir = tempDir()
    const key = randomBytes(32)
    expect(loadSecrets({ TOTP_ENCRYPTION_KEY: key.toString('hex') }, dir, 'http://localhost:3000').totpKey).toEqual(key)
    expect(loadSecrets({ TOTP_ENCRYPTION_KEY: key.toString('base64') }, dir, 'http://localhost:3000').totpKey).toEqual(key)
    expect(() => loadSecrets({ TOTP_ENCRYPTION_KEY: 'too-short' }, dir, 'http://localhost:3000')).toThrow('TOTP_ENCRYPTION_KEY')
  })
})
