// SSRF guard for URLs the server sends to or fetches from on a user's word: webhook, ntfy and
// Discord channels (src/notify/endpoints.ts at save, src/outbox/channels/http.ts at every send),
// and feed sources (src/sources/feed-fetch.ts, before every request and every redirect hop; feeds
// may be plain http: `allowHttp`). A URL must be https, carry no credentials, and its host — an address, or
// every address its name resolves to — must be public: no loopback, private, link-local, CGNAT,
// unique-local, multicast or unspecified ranges. An IPv6 address that carries an IPv4 address
// (mapped, translated, compatible, 6to4, NAT64, Teredo) is judged by that IPv4 address too: the
// network may deliver it there. The check runs when the URL is saved AND before every send (a name
// that resolved publicly at save time may point inward later: DNS rebinding). The admin may lift
// it (CHANNELS_ALLOW_PRIVATE=1, ALLOW_PRIVATE_SOURCES=1 for feeds) for LAN-only setups and tests;
// credentials stay refused.
import { lookup } from 'node:dns/promises'
import { isTrusted, parseAddress, parseTrustedProxies } from './ip'

const BLOCKED = parseTrustedProxies(
  [
    '0.0.0.0/8',
    '10.0.0.0/8',
    '100.64.0.0/10',
    '127.0.0.0/8',
    '169.254.0.0/16',
    '172.16.0.0/12',
    '192.0.0.0/24',
    '192.168.0.0/16',
    '198.18.0.0/15',
    '224.0.0.0/3',
    '::/128',
    '::1/128',
    'fc00::/7',
    'fe80::/10',
    'ff00::/8',
  ].join(','),
)

const bitsAt = (n: bigint, from: number, length: number) => (n >> BigInt(128 - from - length)) & ((1n << BigInt(length)) - 1n)
const V4_MASK = 0xffffffffn

/**
 * The IPv4 addresses an IPv6 address (as a 128-bit number) carries, by each embedding that lets a
 * packet to it reach an IPv4 host: IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96, 6to4
 * 2002::/16, NAT64 64:ff9b::/96 (well-known) and 64:ff9b:1::/48 (local-use, RFC 8215: every RFC
 * 6052 layout whose suffix is zero, since the prefix length is the local network's choice),
 * Teredo 2001::/32 (its server and its obfuscated client). IPv4-mapped ::ffff:0:0/96 never
 * arrives here: parseAddress reads it as IPv4. 'opaque': inside a NAT64 range, but no layout fits,
 * so where it leads cannot be told (the rest of 64:ff9b::/32 is unassigned).
 */
export function embeddedIPv4(n: bigint): bigint[] | 'opaque' {
  if (n >> 32n === 0xffff0000n) return [n & V4_MASK] // ::ffff:0:a.b.c.d
  if (n >> 32n === 0n) return [n & V4_MASK] // ::a.b.c.d (::1 and :: read as 0.0.0.1 and 0.0.0.0)
  if (n >> 112n === 0x2002n) return [bitsAt(n, 16, 32)]
  if (n >> 96n === 0x20010000n) return [bitsAt(n, 32, 32), ~bitsAt(n, 96, 32) & V4_MASK]
  if (n >> 32n === 0x64ff9b0000000000000000n) return [n & V4_MASK]
  if (n >> 80n === 0x64ff9b0001n) {
    if (bitsAt(n, 64, 8) !== 0n) return 'opaque' // RFC 6052: bits 64–71 are zero in every layout
    const layouts: [bigint, number][] = [
      [(bitsAt(n, 48, 16) << 16n) | bitsAt(n, 72, 16), 88], // /48
      [(bitsAt(n, 56, 8) << 24n) | bitsAt(n, 72, 24), 96], // /56
      [bitsAt(n, 72, 32), 104], // /64
    ]
    return [...layouts.filter(([, suffix]) => bitsAt(n, suffix, 128 - suffix) === 0n).map(([v4]) => v4), n & V4_MASK] // and /96
  }
  if (n >> 96n === 0x64ff9bn) return 'opaque'
  return []
}

const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.')

/**
 * True for an address in a non-public range, or one that carries such an IPv4 address (embeddedIPv4),
 * or one that cannot be read: the one address check of every outgoing URL.
 */
export function isPrivateAddress(address: string): boolean {
  const a = parseAddress(address)
  if (a === null) return true
  if (isTrusted(address, BLOCKED)) return true
  if (!a.v6) return false
  const embedded = embeddedIPv4(a.n)
  return embedded === 'opaque' || embedded.some((v4) => isTrusted(v4Text(v4), BLOCKED))
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string }
export type Resolver = (host: string) => Promise<string[]>

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

const isIpLiteral = (host: string) => /^[\d.]+$/.test(host) || host.startsWith('[')

/** Checks the URL's form and every address its host resolves to. */
export async function checkPublicUrl(raw: string, opts: { allowPrivate: boolean; allowHttp?: boolean; resolve?: Resolver }): Promise<UrlCheck> {
  const schemes = opts.allowHttp ? 'http:// or https://' : 'https://'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: `Enter a full URL starting with ${schemes}` }
  }
  if (url.username || url.password) return { ok: false, reason: 'The URL must not contain a user name or password' }
  if (url.protocol !== 'https:' && !((opts.allowPrivate || opts.allowHttp) && url.protocol === 'http:'))
    return { ok: false, reason: `The URL must start with ${schemes}` }
  if (opts.allowPrivate) return { ok: true, url }
  const host = url.hostname.toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, reason: 'The URL must not point to this server or a private network' }
  let addresses: string[]
  if (isIpLiteral(host)) addresses = [host.replace(/^\[|\]$/g, '')]
  else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(host)
    } catch {
      return { ok: false, reason: `The host name ${host} could not be resolved` }
    }
    if (addresses.length === 0) return { ok: false, reason: `The host name ${host} could not be resolved` }
  }
  if (addresses.some(isPrivateAddress)) return { ok: false, reason: 'The URL must not point to this server or a private network' }
  return { ok: true, url }
}
