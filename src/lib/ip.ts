// Client addresses behind reverse proxies. TRUST_PROXY names the proxies whose X-Forwarded-For we
// believe: `loopback`, or CIDRs / single addresses (IPv4 or IPv6), comma-separated. The client is
// the right-most X-Forwarded-For entry that is not a trusted proxy (MDN: the left-most entries are
// whatever the client chose to send). Without TRUST_PROXY the header is ignored.

type Cidr = { v6: boolean; bits: bigint; prefix: number }

function parseV4(s: string): bigint | null {
  const parts = s.split('.')
  if (parts.length !== 4) return null
  let n = 0n
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null
    n = (n << 8n) | BigInt(p)
  }
  return n
}

function parseV6(s: string): bigint | null {
  if (!/^[0-9a-f:.]+$/i.test(s) || s.split('::').length > 2) return null
  let tail4: bigint | null = null
  let text = s
  const lastColon = s.lastIndexOf(':')
  if (s.includes('.')) {
    tail4 = parseV4(s.slice(lastColon + 1))
    if (tail4 === null) return null
    text = s.slice(0, lastColon + 1) + '0:0'
  }
  const [head, rest] = text.split('::') as [string, string | undefined]
  const h = head ? head.split(':') : []
  const t = rest === undefined ? [] : rest ? rest.split(':') : []
  const missing = 8 - h.length - t.length
  if (rest === undefined ? missing !== 0 : missing < 1) return null
  const groups = [...h, ...Array(rest === undefined ? 0 : missing).fill('0'), ...t]
  let n = 0n
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null
    n = (n << 16n) | BigInt(parseInt(g, 16))
  }
  return tail4 === null ? n : (n & ~0xffffffffn) | tail4
}

/** An address as (v6, 128- or 32-bit number); IPv4-mapped IPv6 (::ffff:1.2.3.4) reads as IPv4. */
export function parseAddress(raw: string): { v6: boolean; n: bigint } | null {
  const s = raw.trim().replace(/^\[|\]$/g, '')
  const v4 = parseV4(s)
  if (v4 !== null) return { v6: false, n: v4 }
  const v6 = parseV6(s.split('%')[0]!)
  if (v6 === null) return null
  if (v6 >> 32n === 0xffffn) return { v6: false, n: v6 & 0xffffffffn }
  return { v6: true, n: v6 }
}

function parseCidr(raw: string): Cidr | null {
  const [addr, len] = raw.trim().split('/') as [string, string | undefined]
  const a = parseAddress(addr)
  if (a === null) return null
  const max = a.v6 ? 128 : 32
  const prefix = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : -1
  if (prefix < 0 || prefix > max) return null
  return { v6: a.v6, bits: a.n >> BigInt(max - prefix), prefix }
}

function inCidr(a: { v6: boolean; n: bigint }, c: Cidr): boolean {
  if (a.v6 !== c.v6) return false
  return a.n >> BigInt((a.v6 ? 128 : 32) - c.prefix) === c.bits
}

const LOOPBACK = ['127.0.0.0/8', '::1/128']

/** Parses TRUST_PROXY; returns null for an empty value, throws with the bad entry for a wrong one. */
export function parseTrustedProxies(raw: string | null): Cidr[] | null {
  if (raw === null || !raw.trim()) return null
  const out: Cidr[] = []
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const names = entry.toLowerCase() === 'loopback' ? LOOPBACK : [entry]
    for (const n of names) {
      const c = parseCidr(n)
      if (c === null) throw new Error(entry)
      out.push(c)
    }
  }
  return out
}

export function isTrusted(address: string, trusted: Cidr[] | null): boolean {
  if (trusted === null) return false
  const a = parseAddress(address)
  return a !== null && trusted.some((c) => inCidr(a, c))
}

/**
 * The client address of a request that arrived from `peer`. X-Forwarded-For counts only when the
 * peer is a trusted proxy; then the right-most entry that is not itself trusted is the client.
 */
export function clientAddress(peer: string, forwardedFor: string | null, trusted: Cidr[] | null): string {
  if (!forwardedFor || !isTrusted(peer, trusted)) return peer
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    if (parseAddress(hop) === null) return peer // garbage in the chain: trust nothing of it
    if (!isTrusted(hop, trusted)) return hop.replace(/^\[|\]$/g, '')
  }
  return hops[0] ?? peer
}

export type TrustedProxies = Cidr[] | null
