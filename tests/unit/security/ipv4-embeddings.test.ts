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

const octets = (v4: string) => v4.split('.').map(Number) as [number, number, number, number]
const hex = (...bytes: number[]) => ((bytes[0]! << 8) | (bytes[1] ?? 0)).toString(16)
const pair = (v4: string) => {
  const [a, b, c, d] = octets(v4)
  return [hex(a, b), hex(c, d)] as const
}
const not16 = (h: string) => (~parseInt(h, 16) & 0xffff).toString(16)

/** embedding → IPv6 text carrying v4 */
const FORMS: Record<string, (v4: string) => string> = {
  'IPv4-mapped, dotted': (v4) => `::ffff:${v4}`,
  'IPv4-mapped, hex': (v4) => `::ffff:${pair(v4).join(':')}`,
  'IPv4-translated ::ffff:0:0:0/96': (v4) => `::ffff:0:${pair(v4).join(':')}`,
  'IPv4-compatible ::/96': (v4) => `::${pair(v4).join(':')}`,
  '6to4 2002::/16': (v4) => `2002:${pair(v4).join(':')}::1`,
  'NAT64 well-known 64:ff9b::/96': (v4) => `64:ff9b::${pair(v4).join(':')}`,
  'NAT64 local-use 64:ff9b:1::/48, /96 layout': (v4) => `64:ff9b:1::${pair(v4).join(':')}`,
  'NAT64 local-use, /48 layout': (v4) => {
    const [a, b, c, d] = octets(v4)
    return `64:ff9b:1:${hex(a, b)}:${hex(0, c)}:${hex(d, 0)}::`
  },
  'NAT64 local-use, /56 layout': (v4) => {
    const [a, b, c, d] = octets(v4)
    return `64:ff9b:1:${hex(0, a)}:${hex(0, b)}:${hex(c, d)}::`
  },
  'NAT64 local-use, /64 layout': (v4) => {
    const [a, b, c, d] = octets(v4)
    return `64:ff9b:1:0:${hex(0, a)}:${hex(b, c)}:${hex(d, 0)}:0`
  },
  'Teredo 2001::/32, obfuscated client': (v4) => {
    const [hi, lo] = pair(v4)
    return `2001:0:5db8:d70e:8000:f227:${not16(hi)}:${not16(lo)}` // server 93.184.215.14 (public)
  },
  'Teredo 2001::/32, server': (v4) => `2001:0:${pair(v4).join(':')}:8000:f227:a247:28f1`, // client 93.184.215.14
}
const INWARD = ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0']
const PUBLIC = ['93.184.215.14', '8.8.8.8']

/**
 * The local-use prefix's length is the local network's choice, so each layout that fits is a
 * possible reading: 64:ff9b:1:808:8:800:: is 8.8.8.8 under a /48 prefix but 0.0.0.0 under a /96 one.
 * An address with any inward reading is refused, so these public cases are refused too.
 */
const AMBIGUOUS = new Set(['NAT64 local-use, /48 layout', 'NAT64 local-use, /56 layout'])
const cases = Object.entries(FORMS).flatMap(([form, make]) => [
  ...INWARD.map((v4) => ({ form, v4, address: make(v4), inward: true })),
  ...PUBLIC.map((v4) => ({ form, v4, address: make(v4), inward: AMBIGUOUS.has(form) })),
])
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
