// SSRF guard for URLs users give us to POST to (webhook, ntfy, Discord: src/notify/endpoints.ts).
// A URL must be https, carry no credentials, and its host — an address, or every address its
// name resolves to — must be public: no loopback, private, link-local, CGNAT, unique-local,
// multicast or unspecified ranges. The check runs when the URL is saved AND before every send
// (a name that resolved publicly at save time may point inward later: DNS rebinding). The admin
// may lift it (CHANNELS_ALLOW_PRIVATE=1) for LAN-only setups and tests; credentials stay refused.
import { lookup } from 'node:dns/promises'
import { isTrusted, parseTrustedProxies } from './ip'

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
    '64:ff9b::/96',
    'fc00::/7',
    'fe80::/10',
    'ff00::/8',
  ].join(','),
)

/** True for an address in a non-public range (IPv4-mapped IPv6 reads as IPv4). */
export function isPrivateAddress(address: string): boolean {
  return isTrusted(address, BLOCKED)
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string }
export type Resolver = (host: string) => Promise<string[]>

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

const isIpLiteral = (host: string) => /^[\d.]+$/.test(host) || host.startsWith('[')

/** Checks the URL's form and every address its host resolves to. */
export async function checkPublicUrl(raw: string, opts: { allowPrivate: boolean; resolve?: Resolver }): Promise<UrlCheck> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'Enter a full URL starting with https://' }
  }
  if (url.username || url.password) return { ok: false, reason: 'The URL must not contain a user name or password' }
  if (url.protocol !== 'https:' && !(opts.allowPrivate && url.protocol === 'http:')) return { ok: false, reason: 'The URL must start with https://' }
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
