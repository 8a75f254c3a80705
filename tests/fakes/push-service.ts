// A local Web Push service speaking the real protocol: HTTPS (self-signed certificate made with
// openssl at start), POST /push/<id> with an aes128gcm body (RFC 8291) that it decrypts with
// http_ece using the subscription's private key, and a VAPID Authorization header (RFC 8292)
// whose ES256 JWT it verifies against the `k=` key. Answers 201, or whatever a test scripts
// (e.g. 410 Gone for an expired subscription).
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error http_ece ships no types
import ece from 'http_ece'

export type Received = { id: string; payload: unknown; jwt: string; headers: Record<string, string>; at: number }
type Sub = { id: string; ecdh: ReturnType<typeof createECDH>; auth: Buffer; status: number }

/** A self-signed certificate for 127.0.0.1/localhost, valid one day. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dibs-cert-'))
  const r = Bun.spawnSync(
    [
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stderr: 'pipe' },
  )
  if (r.exitCode !== 0) throw new Error(`openssl failed: ${r.stderr.toString()}`)
  const out = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  rmSync(dir, { recursive: true, force: true })
  return out
}

function b64url(buf: Buffer): string {
  return buf.toString('base64url')
}

/** Verifies `vapid t=<jwt>, k=<key>`: ES256 signature, audience = our origin, expiry within 24 h. */
export function verifyVapid(
  header: string | null,
  origin: string,
  nowS = Math.floor(Date.now() / 1000),
): { ok: true; jwt: string; claims: Record<string, unknown> } | { ok: false; reason: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!m) return { ok: false, reason: 'no vapid Authorization header' }
  const [jwt, k] = [m[1]!, m[2]!]
  const [h, p, s] = jwt.split('.')
  if (!h || !p || !s) return { ok: false, reason: 'malformed JWT' }
  const raw = Buffer.from(k, 'base64url')
  if (raw.length !== 65) return { ok: false, reason: 'bad k' }
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) }, format: 'jwk' })
  const good = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))
  if (!good) return { ok: false, reason: 'bad signature' }
  const jose = JSON.parse(Buffer.from(h, 'base64url').toString())
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
  if (jose.alg !== 'ES256') return { ok: false, reason: 'alg' }
  if (claims.aud !== origin) return { ok: false, reason: `aud ${claims.aud} != ${origin}` }
  if (!(claims.exp > nowS) || claims.exp > nowS + 24 * 3600) return { ok: false, reason: 'exp out of range' }
  if (!/^(mailto:|https:)/.test(String(claims.sub))) return { ok: false, reason: 'sub' }
  return { ok: true, jwt, claims }
}

export async function startFakePushService(opts: { decrypt?: boolean } = {}) {
  const { key, cert } = selfSignedCert()
  const subs = new Map<string, Sub>()
  const received: Received[] = []
  const rejected: string[] = []
  const decrypt = opts.decrypt ?? true
  let origin = ''
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { key, cert },
    async fetch(req) {
      const url = new URL(req.url)
      const id = /^\/push\/([\w-]+)$/.exec(url.pathname)?.[1]
      if (req.method !== 'POST' || !id) return new Response('not found', { status: 404 })
      const sub = subs.get(id)
      if (!sub) return new Response('no such subscription', { status: 404 })
      const vapid = verifyVapid(req.headers.get('authorization'), origin)
      if (!vapid.ok) {
        rejected.push(vapid.reason)
        return new Response(vapid.reason, { status: 403 })
      }
      if (req.headers.get('content-encoding') !== 'aes128gcm' || !req.headers.get('ttl')) return new Response('bad headers', { status: 400 })
      const body = Buffer.from(await req.arrayBuffer())
      if (sub.status >= 300) return new Response('scripted', { status: sub.status })
      let payload: unknown = null
      if (decrypt) {
        const plain: Buffer = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth })
        const text = plain.toString('utf8')
        try {
          payload = JSON.parse(text)
        } catch {
          payload = text
        }
      }
      received.push({ id, payload, jwt: vapid.jwt, headers: Object.fromEntries(req.headers), at: Date.now() })
      return new Response(null, { status: 201, headers: { location: `${origin}/message/${received.length}` } })
    },
  })
  origin = `https://127.0.0.1:${server.port}`
  return {
    origin,
    cert,
    received,
    rejected,
    /** A browser-like PushSubscription whose private key stays here. */
    subscribe(): { endpoint: string; keys: { p256dh: string; auth: string }; id: string } {
      const id = b64url(randomBytes(12))
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16)
      subs.set(id, { id, ecdh, auth, status: 201 })
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } }
    },
    /** Script the answer for one subscription (e.g. 410 Gone, 500, 429). */
    respondWith(id: string, status: number) {
      subs.get(id)!.status = status
    },
    stop: () => server.stop(true),
  }
}
export type FakePushService = Awaited<ReturnType<typeof startFakePushService>>
