import { describe, expect, test } from 'bun:test'
import { clientAddress, isTrusted, parseTrustedProxies } from '../../../src/lib/ip'
import { ConfigError, parseEnv } from '../../../src/config'

describe('TRUST_PROXY', () => {
  test('loopback covers 127.0.0.0/8, ::1 and IPv4-mapped loopback', () => {
    const t = parseTrustedProxies('loopback')
    for (const a of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '[::1]']) expect(isTrusted(a, t)).toBe(true)
    for (const a of ['10.0.0.1', '::2', '128.0.0.1']) expect(isTrusted(a, t)).toBe(false)
  })

  test('CIDRs and single addresses, IPv4 and IPv6', () => {
    const t = parseTrustedProxies('10.0.0.0/8, 192.168.1.5, fd00::/8')
    expect(isTrusted('10.200.3.4', t)).toBe(true)
    expect(isTrusted('192.168.1.5', t)).toBe(true)
    expect(isTrusted('192.168.1.6', t)).toBe(false)
    expect(isTrusted('fd12:3456::1', t)).toBe(true)
    expect(isTrusted('fe80::1', t)).toBe(false)
  })

  test('a bad entry is a configuration error naming it', () => {
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow('10.0.0.0/33')
    expect(() => parseEnv({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError)
    expect(parseEnv({}).trustProxy).toBeNull()
  })

  test('the client is the right-most untrusted hop, and only when the peer is trusted', () => {
    const t = parseTrustedProxies('loopback, 10.0.0.0/8')
    expect(clientAddress('127.0.0.1', '203.0.113.9', t)).toBe('203.0.113.9')
    expect(clientAddress('127.0.0.1', 'spoofed.example, 1.2.3.4, 203.0.113.9, 10.0.0.2', t)).toBe('203.0.113.9')
    expect(clientAddress('198.51.100.1', '203.0.113.9', t)).toBe('198.51.100.1')
    expect(clientAddress('127.0.0.1', '203.0.113.9', null)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', 'not-an-ip', t)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', '2001:db8::7', t)).toBe('2001:db8::7')
  })
})
