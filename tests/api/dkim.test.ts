// DKIM (issue 17 item 5): with DKIM_* set, every message the mailer sends over SMTP carries a
// DKIM-Signature whose h= covers List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 §4: a
// receiver offers one-click unsubscribe only when both are signed), and which verifies against
// the public key — checked on the raw message a real SMTP server received. Config: all three or none.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from '../../src/config'
import { createMailer } from '../../src/outbox/mailer'
import { verifyDkim } from '../fakes/dkim-verify'
import { startSmtp, type FakeSmtp } from '../fakes/smtp'
import { makeConfig, tempDir } from '../helpers'

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

let smtp: FakeSmtp
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(() => smtp.stop())

const unsubscribe = {
  'List-Unsubscribe': '<https://dibs.example.com/unsubscribe/abc123>, <mailto:unsubscribe@dibs.example.com?subject=abc123>',
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  'List-Id': 'Dibs alerts <alerts.dibs.example.com>',
}

describe('DKIM signing', () => {
  test('a sent alert is signed over List-Unsubscribe and List-Unsubscribe-Post, and the signature verifies', async () => {
    const keyFile = join(tempDir(), 'dkim.pem')
    writeFileSync(keyFile, pem, { mode: 0o600 })
    const config = makeConfig({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Dibs <alerts@dibs.example.com>',
      DKIM_DOMAIN: 'dibs.example.com',
      DKIM_SELECTOR: 'dibs2026',
      DKIM_PRIVATE_KEY: keyFile, // a path; the PEM itself works too (below)
    })
    const mailer = createMailer(config)
    try {
      await mailer.send({
        to: 'sub@example.com',
        subject: 'New match: [WTS] Aimpoint T-2 – $640',
        text: 'A match.\n\nhttps://dibs.example.com/m/1',
        html: '<p>A match</p>',
        headers: unsubscribe,
      })
    } finally {
      mailer.close()
    }
    const [mail] = await smtp.waitFor(1)
    const r = verifyDkim(mail!.raw, publicKey)
    expect(r.tags).toMatchObject({ d: 'dibs.example.com', s: 'dibs2026', a: 'rsa-sha256' })
    expect(r.signedHeaders).toEqual(expect.arrayContaining(['from', 'subject', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'auto-submitted']))
    expect(r.bodyHashOk).toBe(true)
    expect(r.signatureOk).toBe(true)

    // The verifier can fail: a header changed in transit breaks the signature.
    const tampered = mail!.raw.replace('List-Unsubscribe=One-Click', 'List-Unsubscribe=Two-Clicks')
    expect(verifyDkim(tampered, publicKey).signatureOk).toBe(false)
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey
    expect(verifyDkim(mail!.raw, otherKey).signatureOk).toBe(false)
  })

  test('DKIM_PRIVATE_KEY may be the PEM itself, with \\n escapes as env files write it', () => {
    const config = makeConfig({ DKIM_DOMAIN: 'dibs.example.com', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') })
    expect(config.dkim).toMatchObject({ domain: 'dibs.example.com', selector: 's1' })
    expect(config.dkim!.privateKey).toContain('-----BEGIN PRIVATE KEY-----\n')
  })

  test('all three or none; a key that is not RSA PEM is refused naming the variable', () => {
    const bad = (env: Record<string, string>) => {
      try {
        makeConfig(env)
        return null
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError)
        return (err as ConfigError).variable
      }
    }
    expect(bad({ DKIM_DOMAIN: 'dibs.example.com' })).toBe('DKIM_SELECTOR')
    expect(bad({ DKIM_DOMAIN: 'dibs.example.com', DKIM_SELECTOR: 's1' })).toBe('DKIM_PRIVATE_KEY')
    expect(bad({ DKIM_DOMAIN: 'dibs.example.com', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: '/no/such/key.pem' })).toBe('DKIM_PRIVATE_KEY')
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    expect(bad({ DKIM_DOMAIN: 'dibs.example.com', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: ec })).toBe('DKIM_PRIVATE_KEY')
    expect(bad({ DKIM_DOMAIN: 'not a domain', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: pem })).toBe('DKIM_DOMAIN')
    expect(makeConfig({}).dkim).toBeNull()
  })
})
