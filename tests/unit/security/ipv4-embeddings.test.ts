// Outgoing URLs (webhook, ntfy and Discord channels now, feed sources later: one checker,
// src/lib/public-url.ts) must not reach inward through an IPv6 address that carries an IPv4 one.
// One table: every embedding form × inward and public IPv4 addresses inside, as a literal URL host
// and as a name that resolves to it, at save (checkPublicUrl) and at send (postTo, which checks
// again before every request).
import { describe, expect, test } from 'bun:test'
import { checkPublicUrl, embeddedIPv4, isPrivateAddress } from '../../../src/lib/public-url'
import { postTo } from '../../../src/outbox/channels/http'
import { PermanentFailure } from '../../../src/outbox/queue'
import { parseAddress } from '../../../src/lib/ip'
import { makeConfig } from '../../helpers'
import { AMBIGUOUS, cases, octets, PUBLIC } from '../../fixtures/ipv4-embeddings'

const dns = new Map(cases.map((c, i) => [`h${i}.example.com`, [c.address]]))
const resolve = async (host: string) => dns.get(host) ?? []
const nameOf = (i: number) => `h${i}.example.com`

describe('every IPv4 embedding is decoded before the address check', () => {
  test('the table is what it says: each address decodes to its IPv4', () => {
    for (const c of cases) {
      const { n } = parseAddress(c.address)!
      const want = octets(c.v4).reduce((acc, o) => (acc << 8n) | BigInt(o), 0n)
      if (c.form.startsWith('IPv4-mapped')) continue // parseAddress reads these as IPv4 before any decoding
      expect({ address: c.address, carries: embeddedIPv4(n) !== 'opaque' && (embeddedIPv4(n) as bigint[]).includes(want) }).toEqual({
        address: c.address,
        carries: true,
      })
    }
  })

  for (const [i, c] of cases.entries())
    test(`${c.form} carrying ${c.v4} (${c.address}) is ${c.inward ? 'refused' : 'allowed'}${AMBIGUOUS.has(c.form) && PUBLIC.includes(c.v4) ? ' (ambiguous)' : ''}, literal and resolved`, async () => {
      expect(isPrivateAddress(c.address)).toBe(c.inward)
      const literal = await checkPublicUrl(`https://[${c.address}]/hook`, { allowPrivate: false, resolve })
      const resolved = await checkPublicUrl(`https://${nameOf(i)}/hook`, { allowPrivate: false, resolve })
      expect([literal.ok, resolved.ok]).toEqual([!c.inward, !c.inward])
      if (!literal.ok) expect(literal.reason).toBe('The URL must not point to this server or a private network')
    })

  test('at every send, the inward forms are refused before any request (postTo throws PermanentFailure)', async () => {
    const deps = { config: makeConfig() }
    for (const [i, c] of cases.entries()) {
      if (!c.inward) continue
      for (const url of [`https://[${c.address}]/hook`, `https://${nameOf(i)}/hook`]) {
        const err = await postTo(deps, url, {}, '{}', { resolve, timeoutMs: 1 }).catch((e: unknown) => e)
        expect({ url, refused: err instanceof PermanentFailure && err.message.includes('private network') }).toEqual({ url, refused: true })
      }
    }
  })

  test('a NAT64 address no layout fits, or elsewhere in 64:ff9b::/32, is refused: where it leads cannot be told', () => {
    expect(isPrivateAddress('64:ff9b:1:0:100::')).toBe(true) // bits 64–71 set
    expect(isPrivateAddress('64:ff9b:2::1')).toBe(true)
  })

  test('ordinary public IPv6 stays allowed', () => {
    expect(isPrivateAddress('2606:4700::1111')).toBe(false)
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false)
    expect(isPrivateAddress('2001:db8:1::1')).toBe(false)
  })
})
